package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.Collections;

/**
 * Connection-manager settings of one HTTP filter chain: how much of {@code X-Forwarded-For} to trust, connection
 * timeouts, header and HTTP/2 limits, the {@code Server} header, access logs and the rate-limit service the
 * chain's routes ask. Everything is optional; {@link #NONE} keeps Envoy's defaults. Front ends check ranges and
 * references with named reasons; the factories here only refuse values Envoy could never take.
 *
 * @param xffNumTrustedHops     how many {@code X-Forwarded-For} entries, from the right, come from trusted proxies
 *                              (Envoy's {@code xff_num_trusted_hops}): the client address is the next one
 * @param idleTimeout           a downstream connection without streams is closed after this long
 * @param requestHeadersTimeout a request whose headers have not all arrived after this long gets 408
 * @param maxRequestHeadersKb   request headers larger than this get 431 (Envoy: 1-8192, default 60)
 * @param accessLogs            written in order, each for every request its filter admits
 * @param rateLimitService      where the chain's routes' global rate-limit descriptors are sent
 * @param healthCheckPath       requests whose {@code :path} is exactly this are answered by the proxy itself (200,
 *                              or 503 while it drains) and not forwarded
 * @param tracing               where and how the chain's requests are traced
 * @param extProc               the external processing service asked about every request of the chain
 * @param normalizePath         whether request paths are normalised as RFC 3986 says ({@code /a/../b} is
 *                              {@code /b}) before filters and routes see them (Envoy's {@code normalize_path});
 *                              unset leaves Envoy's default (false)
 * @param webSockets            whether WebSocket upgrade requests are proxied (Envoy's {@code upgrade_configs});
 *                              unset leaves Envoy's default (refused with 403)
 * @param grpcWeb               whether gRPC-Web requests are translated to gRPC for the upstream and the answers
 *                              back (Envoy's {@code grpc_web} filter); unset or false, no such filter
 */
public record HttpListenerOptions(Optional<Integer> xffNumTrustedHops, Optional<Duration> idleTimeout,
    Optional<Duration> requestHeadersTimeout, Optional<Integer> maxRequestHeadersKb, Optional<Http2> http2,
    Optional<ServerHeader> serverHeader, List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService,
    Optional<String> healthCheckPath, Optional<Tracing> tracing, Optional<ExtProc.Service> extProc,
    Optional<Boolean> normalizePath, Optional<Boolean> webSockets, Optional<Boolean> grpcWeb) {

  /** Envoy's bound on {@code max_request_headers_kb}. */
  public static final int MAX_REQUEST_HEADERS_KB = 8192;

  public static final HttpListenerOptions NONE = new HttpListenerOptions(Optional.empty(), Optional.empty(),
      Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.empty(),
      Optional.empty(), Optional.empty());

  public HttpListenerOptions {
    Objects.requireNonNull(xffNumTrustedHops, "xffNumTrustedHops");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    Objects.requireNonNull(requestHeadersTimeout, "requestHeadersTimeout");
    Objects.requireNonNull(maxRequestHeadersKb, "maxRequestHeadersKb");
    Objects.requireNonNull(http2, "http2");
    Objects.requireNonNull(serverHeader, "serverHeader");
    accessLogs = List.copyOf(accessLogs);
    Objects.requireNonNull(rateLimitService, "rateLimitService");
    Objects.requireNonNull(healthCheckPath, "healthCheckPath");
    Objects.requireNonNull(tracing, "tracing");
    Objects.requireNonNull(extProc, "extProc");
    Objects.requireNonNull(normalizePath, "normalizePath");
    Objects.requireNonNull(webSockets, "webSockets");
    Objects.requireNonNull(grpcWeb, "grpcWeb");
    healthCheckPath.filter(path -> !path.startsWith("/")).ifPresent(path -> {
      throw new IllegalArgumentException("health check path \"" + path + "\" does not start with /");
    });
    xffNumTrustedHops.filter(hops -> hops < 0).ifPresent(hops -> {
      throw new IllegalArgumentException("xffNumTrustedHops " + hops + " is negative");
    });
    idleTimeout.ifPresent(d -> requireNotNegative(d, "idleTimeout"));
    requestHeadersTimeout.ifPresent(d -> requireNotNegative(d, "requestHeadersTimeout"));
    maxRequestHeadersKb.filter(kb -> kb < 1 || kb > MAX_REQUEST_HEADERS_KB).ifPresent(kb -> {
      throw new IllegalArgumentException("maxRequestHeadersKb " + kb + " is out of range 1-" + MAX_REQUEST_HEADERS_KB);
    });
  }

  /** Without path normalisation, WebSocket upgrades or gRPC-Web set. */
  public HttpListenerOptions(Optional<Integer> xffNumTrustedHops, Optional<Duration> idleTimeout,
      Optional<Duration> requestHeadersTimeout, Optional<Integer> maxRequestHeadersKb, Optional<Http2> http2,
      Optional<ServerHeader> serverHeader, List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService,
      Optional<String> healthCheckPath, Optional<Tracing> tracing, Optional<ExtProc.Service> extProc) {
    this(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs,
        rateLimitService, healthCheckPath, tracing, extProc, Optional.empty(), Optional.empty(),
        Optional.empty());
  }

  /** Without tracing. */
  public HttpListenerOptions(Optional<Integer> xffNumTrustedHops, Optional<Duration> idleTimeout,
      Optional<Duration> requestHeadersTimeout, Optional<Integer> maxRequestHeadersKb, Optional<Http2> http2,
      Optional<ServerHeader> serverHeader, List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService,
      Optional<String> healthCheckPath) {
    this(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs,
        rateLimitService, healthCheckPath, Optional.empty());
  }

  /** Without an external processing service. */
  public HttpListenerOptions(Optional<Integer> xffNumTrustedHops, Optional<Duration> idleTimeout,
      Optional<Duration> requestHeadersTimeout, Optional<Integer> maxRequestHeadersKb, Optional<Http2> http2,
      Optional<ServerHeader> serverHeader, List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService,
      Optional<String> healthCheckPath, Optional<Tracing> tracing) {
    this(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs,
        rateLimitService, healthCheckPath, tracing, Optional.empty());
  }

  /** These options with {@code value} as the tracing settings, every other field as it is. */
  public HttpListenerOptions withTracing(Optional<Tracing> value) {
    return new HttpListenerOptions(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2,
        serverHeader, accessLogs, rateLimitService, healthCheckPath, value, extProc, normalizePath, webSockets,
        grpcWeb);
  }

  /** These options with {@code value} as the external processing service, every other field as it is. */
  public HttpListenerOptions withExtProc(Optional<ExtProc.Service> value) {
    return new HttpListenerOptions(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2,
        serverHeader, accessLogs, rateLimitService, healthCheckPath, tracing, value, normalizePath, webSockets,
        grpcWeb);
  }

  /** These options with {@code value} as whether request paths are normalised, every other field as it is. */
  public HttpListenerOptions withNormalizePath(Optional<Boolean> value) {
    return new HttpListenerOptions(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2,
        serverHeader, accessLogs, rateLimitService, healthCheckPath, tracing, extProc, value, webSockets, grpcWeb);
  }

  /** These options with {@code value} as whether WebSocket upgrades are proxied, every other field as it is. */
  public HttpListenerOptions withWebSockets(Optional<Boolean> value) {
    return new HttpListenerOptions(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2,
        serverHeader, accessLogs, rateLimitService, healthCheckPath, tracing, extProc, normalizePath, value, grpcWeb);
  }

  /** These options with {@code value} as whether gRPC-Web is translated to gRPC, every other field as it is. */
  public HttpListenerOptions withGrpcWeb(Optional<Boolean> value) {
    return new HttpListenerOptions(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2,
        serverHeader, accessLogs, rateLimitService, healthCheckPath, tracing, extProc, normalizePath, webSockets,
        value);
  }

  /** Without a health check. */
  public HttpListenerOptions(Optional<Integer> xffNumTrustedHops, Optional<Duration> idleTimeout,
      Optional<Duration> requestHeadersTimeout, Optional<Integer> maxRequestHeadersKb, Optional<Http2> http2,
      Optional<ServerHeader> serverHeader, List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService) {
    this(xffNumTrustedHops, idleTimeout, requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs,
        rateLimitService, Optional.empty());
  }

  /** The clusters the chain's access logs, rate-limit service, tracing collector and ext_proc service send to. */
  public List<ResourceKey> clusters() {
    java.util.ArrayList<ResourceKey> out = new java.util.ArrayList<>();
    for (AccessLog log : accessLogs) {
      if (log.sink() instanceof Sink.Grpc grpc) {
        out.add(grpc.cluster());
      } else if (log.sink() instanceof Sink.OpenTelemetry otel) {
        out.add(otel.cluster());
      }
    }
    rateLimitService.ifPresent(service -> out.add(service.cluster()));
    tracing.ifPresent(t -> out.add(t.cluster()));
    extProc.ifPresent(service -> out.add(service.cluster()));
    return List.copyOf(out);
  }

  private static void requireNotNegative(Duration duration, String field) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException(field + " " + duration + " is negative");
    }
  }

  /**
   * Tracing of the chain's requests, spans sent to an OpenTelemetry collector (OTLP over gRPC) on {@code cluster}.
   *
   * @param serviceName       the spans' {@code service.name}; empty for Envoy's default
   * @param authority         the {@code :authority} of the gRPC requests; empty for the cluster name
   * @param clientSampling    percent (0-100) of requests with {@code x-client-trace-id} traced
   * @param randomSampling    percent of the other requests traced
   * @param overallSampling   percent of all requests traced, applied after the other two
   * @param verbose           spans carry timing annotations
   * @param requestHeaderTags request headers each recorded as a span tag of its own name
   */
  public record Tracing(ResourceKey cluster, Optional<String> serviceName, Optional<String> authority,
      double clientSampling, double randomSampling, double overallSampling, boolean verbose,
      List<String> requestHeaderTags) {
    public static final double ALL = 100;

    public Tracing {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(serviceName, "serviceName");
      Objects.requireNonNull(authority, "authority");
      requestHeaderTags = List.copyOf(requestHeaderTags);
      for (double percent : new double[] {clientSampling, randomSampling, overallSampling}) {
        if (!(percent >= 0 && percent <= ALL)) {
          throw new IllegalArgumentException("sampling " + percent + " is not a percentage (0-100)");
        }
      }
    }
  }

  /**
   * HTTP/2 settings the proxy announces to downstream clients (Envoy's bounds: streams 1-2147483647, windows
   * 65535-2147483647).
   */
  public record Http2(Optional<Integer> maxConcurrentStreams, Optional<Integer> initialStreamWindowSize,
      Optional<Integer> initialConnectionWindowSize) {
    public static final int MIN_WINDOW = 65535;

    public Http2 {
      Objects.requireNonNull(maxConcurrentStreams, "maxConcurrentStreams");
      Objects.requireNonNull(initialStreamWindowSize, "initialStreamWindowSize");
      Objects.requireNonNull(initialConnectionWindowSize, "initialConnectionWindowSize");
      maxConcurrentStreams.filter(n -> n < 1).ifPresent(n -> {
        throw new IllegalArgumentException("maxConcurrentStreams " + n + " is below 1");
      });
      initialStreamWindowSize.filter(n -> n < MIN_WINDOW).ifPresent(n -> {
        throw new IllegalArgumentException("initialStreamWindowSize " + n + " is below " + MIN_WINDOW);
      });
      initialConnectionWindowSize.filter(n -> n < MIN_WINDOW).ifPresent(n -> {
        throw new IllegalArgumentException("initialConnectionWindowSize " + n + " is below " + MIN_WINDOW);
      });
    }
  }

  /** What the proxy does with the {@code Server} response header. */
  public sealed interface ServerHeader {
    /** Sets it to {@code value}, replacing the upstream's. */
    record Name(String value) implements ServerHeader {
      public Name {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
          throw new IllegalArgumentException("a server name must not be empty");
        }
      }
    }

    /** Leaves the upstream's as it is, and adds none when it has none. */
    record PassThrough() implements ServerHeader {
    }

    /** Removes the upstream's and adds none. */
    record Strip() implements ServerHeader {
    }
  }

  /**
   * One access log.
   *
   * @param filter which requests are logged: all of its conditions must hold
   */
  public record AccessLog(Sink sink, Format format, LogFilter filter) {
    public AccessLog {
      Objects.requireNonNull(sink, "sink");
      Objects.requireNonNull(format, "format");
      Objects.requireNonNull(filter, "filter");
    }
  }

  /** Where an access log goes. */
  public sealed interface Sink {
    record Stdout() implements Sink {
    }

    record Stderr() implements Sink {
    }

    /** A file on the proxy's file system, opened by Envoy. */
    record File(String path) implements Sink {
      public File {
        Objects.requireNonNull(path, "path");
        if (path.isEmpty()) {
          throw new IllegalArgumentException("an access log path must not be empty");
        }
      }
    }

    /** Envoy's gRPC access log service on {@code cluster}, under {@code logName}. */
    record Grpc(ResourceKey cluster, String logName) implements Sink {
      public Grpc {
        Objects.requireNonNull(cluster, "cluster");
        requireLogName(logName);
      }
    }

    /**
     * An OpenTelemetry logs collector (OTLP over gRPC) on {@code cluster}.
     *
     * @param authority the {@code :authority} of the gRPC requests; empty: Envoy's default, the cluster name
     */
    /** @param attributes sent with each record after the JSON format's fields, in order */
    record OpenTelemetry(ResourceKey cluster, String logName, Optional<String> authority,
        List<OtelAttribute> attributes) implements Sink {
      public OpenTelemetry {
        Objects.requireNonNull(cluster, "cluster");
        requireLogName(logName);
        Objects.requireNonNull(authority, "authority");
        attributes = List.copyOf(attributes);
      }

      public OpenTelemetry(ResourceKey cluster, String logName, Optional<String> authority) {
        this(cluster, logName, authority, List.of());
      }

      public OpenTelemetry(ResourceKey cluster, String logName) {
        this(cluster, logName, Optional.empty());
      }

      public OpenTelemetry withAttributes(List<OtelAttribute> value) {
        return new OpenTelemetry(cluster, logName, authority, value);
      }
    }

    private static void requireLogName(String logName) {
      Objects.requireNonNull(logName, "logName");
      if (logName.isEmpty()) {
        throw new IllegalArgumentException("a log name must not be empty");
      }
    }
  }

  /** One OpenTelemetry attribute: a key and an AnyValue. */
  public record OtelAttribute(String key, OtelValue value) {
    public OtelAttribute {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }
  }

  /** OpenTelemetry's AnyValue as Holdfast sends it: a command-operator string, a list or a key-value list. */
  public sealed interface OtelValue {
    record Text(String format) implements OtelValue {
      public Text {
        Objects.requireNonNull(format, "format");
      }
    }

    record Array(List<OtelValue> values) implements OtelValue {
      public Array {
        values = List.copyOf(values);
      }
    }

    record KvList(List<OtelAttribute> values) implements OtelValue {
      public KvList {
        values = List.copyOf(values);
      }
    }
  }

  /**
   * How a line is written, with Envoy's command operators ({@code %RESPONSE_CODE%}...). The gRPC access log service
   * ignores it (it sends structured entries); OpenTelemetry sends a text format as the body and JSON fields as
   * attributes.
   */
  public sealed interface Format {
    /** Envoy's default text format. */
    record Default() implements Format {
    }

    record Text(String format) implements Format {
      public Text {
        Objects.requireNonNull(format, "format");
      }
    }

    /** One JSON object per line, each field a command-operator string; sorted by field name. */
    record Json(SortedMap<String, String> fields) implements Format {
      public Json {
        fields = Collections.unmodifiableSortedMap(new TreeMap<>(fields));
        if (fields.isEmpty()) {
          throw new IllegalArgumentException("a JSON access log format needs at least one field");
        }
      }
    }
  }

  /**
   * Which requests are logged: response codes in {@code [minStatus, maxStatus]} and requests that lasted at least
   * {@code minDuration}; {@link #ALL} logs everything.
   */
  public record LogFilter(Optional<Integer> minStatus, Optional<Integer> maxStatus, Optional<Duration> minDuration) {
    public static final LogFilter ALL = new LogFilter(Optional.empty(), Optional.empty(), Optional.empty());

    public LogFilter {
      Objects.requireNonNull(minStatus, "minStatus");
      Objects.requireNonNull(maxStatus, "maxStatus");
      Objects.requireNonNull(minDuration, "minDuration");
      if (minStatus.isPresent() && maxStatus.isPresent() && minStatus.get() > maxStatus.get()) {
        throw new IllegalArgumentException("minStatus " + minStatus.get() + " is above maxStatus " + maxStatus.get());
      }
      minDuration.filter(Duration::isNegative).ifPresent(d -> {
        throw new IllegalArgumentException("minDuration " + d + " is negative");
      });
    }
  }

  /**
   * A rate-limit service speaking Envoy's RLS protocol (gRPC) on {@code cluster}.
   *
   * @param domain   the RLS domain the descriptors are counted in
   * @param timeout  how long to wait for an answer
   * @param failOpen true: a request is let through when the service does not answer; false: it gets 500
   */
  public record RateLimitService(ResourceKey cluster, String domain, Duration timeout, boolean failOpen) {
    public RateLimitService {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(domain, "domain");
      Objects.requireNonNull(timeout, "timeout");
      if (domain.isEmpty()) {
        throw new IllegalArgumentException("a rate-limit domain must not be empty");
      }
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("rate-limit service timeout " + timeout + " is not positive");
      }
    }
  }
}
