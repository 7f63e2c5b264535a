package io.holdfast.api;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Traffic options as written: a Gateway's {@code spec.options} ({@link Listener}: connection settings and access
 * logs, for every VirtualService it serves) and the {@code rateLimit}, {@code compression}, {@code csrf} and
 * {@code maxRequestBodyBytes} of a VirtualService's {@code spec.options} and a route's {@code options}
 * ({@link Route}: a route's value replaces the VirtualService's, field by field). Values are kept as written
 * (numbers as {@code long}, algorithm names as strings) so validation can name what is wrong with each; the
 * Gateway API's ClientTrafficPolicy and TrafficPolicy carry the same shapes.
 */
public final class TrafficOptions {

  private TrafficOptions() {
  }

  /** A Gateway's {@code spec.options}. Everything is optional; {@link #NONE} keeps Envoy's defaults. */
  public record Listener(boolean proxyProtocol, Optional<Long> perConnectionBufferLimitBytes,
      Optional<Long> xffNumTrustedHops, Optional<Duration> idleTimeout, Optional<Duration> requestHeadersTimeout,
      Optional<Long> maxRequestHeadersKb, Optional<Http2> http2, Optional<ServerHeader> serverHeader,
      List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService, Optional<HealthCheck> healthCheck,
      Optional<Tracing> tracing, Optional<ExtProc> extProc, Optional<Boolean> normalizePath,
      Optional<Boolean> webSockets, Optional<Boolean> grpcWeb) {

    public static final Listener NONE = new Listener(false, Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty());

    /** Without path normalisation, WebSocket upgrades or gRPC-Web set (Envoy's defaults: off). */
    public Listener(boolean proxyProtocol, Optional<Long> perConnectionBufferLimitBytes,
        Optional<Long> xffNumTrustedHops, Optional<Duration> idleTimeout, Optional<Duration> requestHeadersTimeout,
        Optional<Long> maxRequestHeadersKb, Optional<Http2> http2, Optional<ServerHeader> serverHeader,
        List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService, Optional<HealthCheck> healthCheck,
        Optional<Tracing> tracing, Optional<ExtProc> extProc) {
      this(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout, requestHeadersTimeout,
          maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck, tracing, extProc,
          Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Without an external processing service. */
    public Listener(boolean proxyProtocol, Optional<Long> perConnectionBufferLimitBytes,
        Optional<Long> xffNumTrustedHops, Optional<Duration> idleTimeout, Optional<Duration> requestHeadersTimeout,
        Optional<Long> maxRequestHeadersKb, Optional<Http2> http2, Optional<ServerHeader> serverHeader,
        List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService, Optional<HealthCheck> healthCheck,
        Optional<Tracing> tracing) {
      this(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout, requestHeadersTimeout,
          maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck, tracing,
          Optional.empty());
    }

    /** These options with {@code value} as the external processing service, every other field as it is. */
    public Listener withExtProc(Optional<ExtProc> value) {
      return new Listener(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout,
          requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck,
          tracing, value, normalizePath, webSockets, grpcWeb);
    }

    /** These options with {@code value} as the rate-limit service, every other field as it is. */
    public Listener withRateLimitService(Optional<RateLimitService> value) {
      return new Listener(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout,
          requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs, value, healthCheck, tracing,
          extProc, normalizePath, webSockets, grpcWeb);
    }

    /** These options with {@code value} as the tracing settings, every other field as it is. */
    public Listener withTracing(Optional<Tracing> value) {
      return new Listener(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout,
          requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck,
          value, extProc, normalizePath, webSockets, grpcWeb);
    }

    /**
     * These options with {@code value} as whether request paths are normalised as RFC 3986 says (Envoy's
     * {@code normalize_path}: {@code /a/../b} becomes {@code /b}) before routes and policies see them, every other
     * field as it is.
     */
    public Listener withNormalizePath(Optional<Boolean> value) {
      return new Listener(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout,
          requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck,
          tracing, extProc, value, webSockets, grpcWeb);
    }

    /**
     * These options with {@code value} as whether WebSocket upgrades are proxied (Envoy's {@code upgrade_configs}
     * entry {@code websocket}; unset or false, Envoy answers an upgrade request 403), every other field as it is.
     */
    public Listener withWebSockets(Optional<Boolean> value) {
      return new Listener(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout,
          requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck,
          tracing, extProc, normalizePath, value, grpcWeb);
    }

    /**
     * These options with {@code value} as whether gRPC-Web requests are translated to gRPC for the upstream and
     * the answers back (Envoy's {@code grpc_web} filter; unset or false, they reach the upstream as sent), every
     * other field as it is.
     */
    public Listener withGrpcWeb(Optional<Boolean> value) {
      return new Listener(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout,
          requestHeadersTimeout, maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck,
          tracing, extProc, normalizePath, webSockets, value);
    }

    public Listener {
      Objects.requireNonNull(perConnectionBufferLimitBytes, "perConnectionBufferLimitBytes");
      Objects.requireNonNull(xffNumTrustedHops, "xffNumTrustedHops");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      Objects.requireNonNull(requestHeadersTimeout, "requestHeadersTimeout");
      Objects.requireNonNull(maxRequestHeadersKb, "maxRequestHeadersKb");
      Objects.requireNonNull(http2, "http2");
      Objects.requireNonNull(serverHeader, "serverHeader");
      accessLogs = List.copyOf(accessLogs);
      Objects.requireNonNull(rateLimitService, "rateLimitService");
      Objects.requireNonNull(healthCheck, "healthCheck");
      Objects.requireNonNull(tracing, "tracing");
      Objects.requireNonNull(extProc, "extProc");
      Objects.requireNonNull(normalizePath, "normalizePath");
      Objects.requireNonNull(webSockets, "webSockets");
      Objects.requireNonNull(grpcWeb, "grpcWeb");
    }

    /** Without tracing. */
    public Listener(boolean proxyProtocol, Optional<Long> perConnectionBufferLimitBytes,
        Optional<Long> xffNumTrustedHops, Optional<Duration> idleTimeout, Optional<Duration> requestHeadersTimeout,
        Optional<Long> maxRequestHeadersKb, Optional<Http2> http2, Optional<ServerHeader> serverHeader,
        List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService, Optional<HealthCheck> healthCheck) {
      this(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout, requestHeadersTimeout,
          maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, healthCheck, Optional.empty());
    }

    /** Without a health check. */
    public Listener(boolean proxyProtocol, Optional<Long> perConnectionBufferLimitBytes,
        Optional<Long> xffNumTrustedHops, Optional<Duration> idleTimeout, Optional<Duration> requestHeadersTimeout,
        Optional<Long> maxRequestHeadersKb, Optional<Http2> http2, Optional<ServerHeader> serverHeader,
        List<AccessLog> accessLogs, Optional<RateLimitService> rateLimitService) {
      this(proxyProtocol, perConnectionBufferLimitBytes, xffNumTrustedHops, idleTimeout, requestHeadersTimeout,
          maxRequestHeadersKb, http2, serverHeader, accessLogs, rateLimitService, Optional.empty());
    }
  }

  /**
   * {@code tracing}: Envoy's tracing on the connection manager, spans sent to an OpenTelemetry collector (OTLP over
   * gRPC) served by an Upstream.
   *
   * @param serviceName       the {@code service.name} of the spans; default Envoy's
   * @param authority         the {@code :authority} of the gRPC requests; default the Upstream's cluster name
   * @param clientSampling    percent of requests with {@code x-client-trace-id} traced; default 100
   * @param randomSampling    percent of other requests traced; default 100
   * @param overallSampling   percent of all requests traced, after the other two; default 100
   * @param verbose           spans carry timing annotations
   * @param requestHeaderTags request headers each recorded as a tag of its own name (absent: not tagged)
   */
  public record Tracing(ObjectRef upstream, Optional<String> serviceName, Optional<String> authority,
      Optional<Double> clientSampling, Optional<Double> randomSampling, Optional<Double> overallSampling,
      boolean verbose, List<String> requestHeaderTags) {
    public Tracing {
      Objects.requireNonNull(upstream, "upstream");
      Objects.requireNonNull(serviceName, "serviceName");
      Objects.requireNonNull(authority, "authority");
      Objects.requireNonNull(clientSampling, "clientSampling");
      Objects.requireNonNull(randomSampling, "randomSampling");
      Objects.requireNonNull(overallSampling, "overallSampling");
      requestHeaderTags = List.copyOf(requestHeaderTags);
    }
  }

  /**
   * {@code healthCheck}: the proxy answers requests whose path is exactly {@code path} itself (200, or 503 while
   * it drains), without forwarding them (Envoy's health check filter, not in pass-through mode).
   */
  public record HealthCheck(String path) {
    public HealthCheck {
      Objects.requireNonNull(path, "path");
    }
  }

  public record Http2(Optional<Long> maxConcurrentStreams, Optional<Long> initialStreamWindowSize,
      Optional<Long> initialConnectionWindowSize) {
    public Http2 {
      Objects.requireNonNull(maxConcurrentStreams, "maxConcurrentStreams");
      Objects.requireNonNull(initialStreamWindowSize, "initialStreamWindowSize");
      Objects.requireNonNull(initialConnectionWindowSize, "initialConnectionWindowSize");
    }
  }

  /**
   * {@code serverHeader}: {@code mode} is {@code Overwrite} (the default when {@code name} is given),
   * {@code PassThrough} or {@code Strip}.
   */
  public record ServerHeader(Optional<String> mode, Optional<String> name) {
    public static final String OVERWRITE = "Overwrite";
    public static final String PASS_THROUGH = "PassThrough";
    public static final String STRIP = "Strip";

    public ServerHeader {
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * One access log: exactly one sink, a text or JSON format (neither: Envoy's default), and a filter.
   *
   * @param json field name to command-operator string
   */
  public record AccessLog(Sink sink, Optional<String> text, SortedMap<String, String> json, LogFilter filter) {
    public AccessLog {
      Objects.requireNonNull(sink, "sink");
      Objects.requireNonNull(text, "text");
      json = Collections.unmodifiableSortedMap(new TreeMap<>(json));
      Objects.requireNonNull(filter, "filter");
    }
  }

  /** Where an access log goes. */
  public sealed interface Sink {
    record Stdout() implements Sink {
    }

    record Stderr() implements Sink {
    }

    record File(String path) implements Sink {
      public File {
        Objects.requireNonNull(path, "path");
      }
    }

    /** Envoy's gRPC access log service, served by an Upstream. */
    record Grpc(ObjectRef upstream, String logName) implements Sink {
      public Grpc {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(logName, "logName");
      }
    }

    /**
     * An OpenTelemetry collector (OTLP/gRPC), served by an Upstream.
     *
     * @param authority  the {@code :authority} of the gRPC requests; default the Upstream's cluster name
     * @param attributes attributes of each log record, after the JSON format's fields; values may nest lists and
     *                   key-value lists (OpenTelemetry's AnyValue), each string a command-operator format
     */
    record OpenTelemetry(ObjectRef upstream, String logName, Optional<String> authority,
        List<OtelAttribute> attributes) implements Sink {
      public OpenTelemetry {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(logName, "logName");
        Objects.requireNonNull(authority, "authority");
        attributes = List.copyOf(attributes);
      }

      public OpenTelemetry(ObjectRef upstream, String logName, Optional<String> authority) {
        this(upstream, logName, authority, List.of());
      }

      public OpenTelemetry(ObjectRef upstream, String logName) {
        this(upstream, logName, Optional.empty());
      }

      public OpenTelemetry withAttributes(List<OtelAttribute> value) {
        return new OpenTelemetry(upstream, logName, authority, value);
      }
    }
  }

  /** One OpenTelemetry attribute ({@code {key, value}}). */
  public record OtelAttribute(String key, OtelValue value) {
    public OtelAttribute {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * An OpenTelemetry AnyValue as written: {@code stringValue}, {@code arrayValue.values} or {@code
   * kvlistValue.values}. Nesting is bounded by the parsers ({@link #MAX_OTEL_DEPTH}).
   */
  public sealed interface OtelValue {
    record Text(String value) implements OtelValue {
      public Text {
        Objects.requireNonNull(value, "value");
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
   * How deeply OpenTelemetry attribute values nest (an attribute's value is level 1, the values of a list in it
   * level 2...). Reason: the parsers, the checks and the translation recurse over it; real attributes nest one or
   * two levels, and a deeper one rejects its object ({@code OtelAttributesTooDeep}) rather than recurse without end.
   */
  public static final int MAX_OTEL_DEPTH = 3;

  /** Which requests are logged: status in {@code [minStatus, maxStatus]}, lasting at least {@code minDuration}. */
  public record LogFilter(Optional<Long> minStatus, Optional<Long> maxStatus, Optional<Duration> minDuration) {
    public static final LogFilter ALL = new LogFilter(Optional.empty(), Optional.empty(), Optional.empty());

    public LogFilter {
      Objects.requireNonNull(minStatus, "minStatus");
      Objects.requireNonNull(maxStatus, "maxStatus");
      Objects.requireNonNull(minDuration, "minDuration");
    }
  }

  /**
   * A rate-limit service (Envoy's RLS protocol) served by an Upstream.
   *
   * @param timeout  default {@link #DEFAULT_TIMEOUT}
   * @param failOpen default true: requests pass when the service does not answer
   */
  public record RateLimitService(ObjectRef upstream, String domain, Optional<Duration> timeout, boolean failOpen) {
    /** Envoy's default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(20);

    public RateLimitService {
      Objects.requireNonNull(upstream, "upstream");
      Objects.requireNonNull(domain, "domain");
      Objects.requireNonNull(timeout, "timeout");
    }
  }

  /**
   * The traffic options of a route or a VirtualService's defaults; each absent field is inherited (a route from its
   * VirtualService). {@link #NONE} sets nothing.
   */
  public record Route(Optional<LocalRateLimit> localRateLimit, Optional<List<Descriptor>> rateLimits,
      Optional<List<String>> compression, Optional<Csrf> csrf, Optional<Long> maxRequestBodyBytes,
      Optional<ExtProcRoute> extProc) {

    /** These options with {@code value} as the global rate-limit descriptors, every other field as it is. */
    public Route withRateLimits(Optional<List<Descriptor>> value) {
      return new Route(localRateLimit, value, compression, csrf, maxRequestBodyBytes, extProc);
    }

    /** These options with {@code value} as the external processing setting, every other field as it is. */
    public Route withExtProc(Optional<ExtProcRoute> value) {
      return new Route(localRateLimit, rateLimits, compression, csrf, maxRequestBodyBytes, value);
    }

    /** Without an external processing setting. */
    public Route(Optional<LocalRateLimit> localRateLimit, Optional<List<Descriptor>> rateLimits,
        Optional<List<String>> compression, Optional<Csrf> csrf, Optional<Long> maxRequestBodyBytes) {
      this(localRateLimit, rateLimits, compression, csrf, maxRequestBodyBytes, Optional.empty());
    }

    public static final Route NONE = new Route(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty());

    public Route {
      Objects.requireNonNull(localRateLimit, "localRateLimit");
      rateLimits = rateLimits.map(List::copyOf);
      compression = compression.map(List::copyOf);
      Objects.requireNonNull(csrf, "csrf");
      Objects.requireNonNull(maxRequestBodyBytes, "maxRequestBodyBytes");
      Objects.requireNonNull(extProc, "extProc");
    }

    /** This route's values, and {@code defaults}' where this one has none. */
    public Route over(Route defaults) {
      return new Route(localRateLimit.or(defaults::localRateLimit), rateLimits.or(defaults::rateLimits),
          compression.or(defaults::compression), csrf.or(defaults::csrf),
          maxRequestBodyBytes.or(defaults::maxRequestBodyBytes), extProc.or(defaults::extProc));
    }
  }

  /**
   * {@code extProc} of a Gateway: Envoy's external processing filter, which sends each request of the Gateway's
   * routes (headers, and as {@code processingMode} says bodies and trailers) to a gRPC service served by an Upstream,
   * which may change or answer it; the same for the response.
   *
   * @param processingMode what is sent; each absent part keeps Envoy's default (headers sent, bodies and trailers not)
   * @param failOpen       default false: a request whose processing fails (service down, message timeout) gets 500
   * @param messageTimeout how long one message waits for the service's answer; default {@link #DEFAULT_MESSAGE_TIMEOUT}
   * @param position       where the filter runs among the Gateway's HTTP filters, one of {@link #POSITIONS};
   *                       default {@link #DEFAULT_POSITION}
   */
  public record ExtProc(ObjectRef upstream, ProcessingMode processingMode, boolean failOpen,
      Optional<Duration> messageTimeout, Optional<String> position) {
    /** Envoy's default. */
    public static final Duration DEFAULT_MESSAGE_TIMEOUT = Duration.ofMillis(200);
    /** Envoy's bound on {@code message_timeout}. */
    public static final Duration MAX_MESSAGE_TIMEOUT = Duration.ofHours(1);
    /**
     * The places in the chain, first to last: before CORS; after CORS; before the RBAC rules (after authentication
     * and external authorisation); after authorisation and the health check; after the rate limits; last before
     * the Router (docs/TRAFFIC-POLICIES.md).
     */
    public static final List<String> POSITIONS = List.of("First", "AfterCors", "BeforeRbac", "AfterAuthorization",
        "AfterRateLimits", "Last");
    /** Only requests that were allowed in are processed, and before any limit is spent on them. */
    public static final String DEFAULT_POSITION = "AfterAuthorization";

    public ExtProc {
      Objects.requireNonNull(upstream, "upstream");
      Objects.requireNonNull(processingMode, "processingMode");
      Objects.requireNonNull(messageTimeout, "messageTimeout");
      Objects.requireNonNull(position, "position");
    }

    public ExtProc withPosition(Optional<String> value) {
      return new ExtProc(upstream, processingMode, failOpen, messageTimeout, value);
    }
  }

  /**
   * {@code processingMode}: for headers and trailers one of {@link #HEADER_MODES}, for bodies one of
   * {@link #BODY_MODES} (Envoy's ProcessingMode, in Holdfast's spelling); absent keeps the default.
   */
  public record ProcessingMode(Optional<String> requestHeaders, Optional<String> responseHeaders,
      Optional<String> requestBody, Optional<String> responseBody, Optional<String> requestTrailers,
      Optional<String> responseTrailers) {
    public static final ProcessingMode DEFAULT = new ProcessingMode(Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    /** The field names, headers and trailers first. */
    public static final List<String> HEADER_FIELDS = List.of("requestHeaders", "responseHeaders", "requestTrailers",
        "responseTrailers");
    public static final List<String> BODY_FIELDS = List.of("requestBody", "responseBody");
    /** Default: Envoy's default for that part (headers sent, trailers not). */
    public static final List<String> HEADER_MODES = List.of("Default", "Send", "Skip");
    public static final List<String> BODY_MODES = List.of("None", "Streamed", "Buffered", "BufferedPartial");

    public ProcessingMode {
      Objects.requireNonNull(requestHeaders, "requestHeaders");
      Objects.requireNonNull(responseHeaders, "responseHeaders");
      Objects.requireNonNull(requestBody, "requestBody");
      Objects.requireNonNull(responseBody, "responseBody");
      Objects.requireNonNull(requestTrailers, "requestTrailers");
      Objects.requireNonNull(responseTrailers, "responseTrailers");
    }

    /** The value of field {@code name} (one of {@link #HEADER_FIELDS} or {@link #BODY_FIELDS}). */
    public Optional<String> get(String name) {
      return switch (name) {
        case "requestHeaders" -> requestHeaders;
        case "responseHeaders" -> responseHeaders;
        case "requestBody" -> requestBody;
        case "responseBody" -> responseBody;
        case "requestTrailers" -> requestTrailers;
        default -> responseTrailers;
      };
    }
  }

  /**
   * {@code extProc} of a route or a VirtualService: turns the Gateway's external processing off ({@code disabled})
   * or changes what is sent ({@code processingMode}, replacing the Gateway's as a whole).
   */
  public record ExtProcRoute(boolean disabled, Optional<ProcessingMode> processingMode) {
    public ExtProcRoute {
      Objects.requireNonNull(processingMode, "processingMode");
    }
  }

  /**
   * {@code rateLimit.local}: a token bucket per proxy.
   *
   * @param tokensPerFill default {@code maxTokens}
   */
  public record LocalRateLimit(long maxTokens, Optional<Long> tokensPerFill, Duration fillInterval,
      boolean responseHeaders) {
    public LocalRateLimit {
      Objects.requireNonNull(tokensPerFill, "tokensPerFill");
      Objects.requireNonNull(fillInterval, "fillInterval");
    }
  }

  /** One descriptor of {@code rateLimit.descriptors}: its entries in order. */
  public record Descriptor(List<Entry> entries) {
    public Descriptor {
      entries = List.copyOf(entries);
    }
  }

  /** One entry of a descriptor. */
  public sealed interface Entry {
    record RemoteAddress() implements Entry {
    }

    record RequestHeader(String header, String key) implements Entry {
      public RequestHeader {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(key, "key");
      }
    }

    record GenericKey(String key, String value) implements Entry {
      public GenericKey {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
      }
    }

    /**
     * A claim of the JWT the request was authenticated with by {@code provider} (a dotted path for nested
     * claims), under {@code key}.
     */
    record JwtClaim(String provider, String claim, String key) implements Entry {
      public JwtClaim {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(claim, "claim");
        Objects.requireNonNull(key, "key");
      }
    }
  }

  /**
   * {@code csrf}: origins allowed besides the request's own host; {@code shadow} only counts violations. Envoy
   * compares each with the host and port of the request's {@code Origin} (its scheme dropped), so an origin is
   * written {@code pay.shop.test} or {@code pay.shop.test:8443}, never with {@code https://}.
   *
   * @param additionalOrigins        hosts compared exactly and case-sensitively
   * @param additionalOriginMatchers hosts matched by exact value, prefix, suffix or RE2 regex, optionally
   *                                 ignoring case
   */
  public record Csrf(List<String> additionalOrigins, List<OriginMatcher> additionalOriginMatchers,
      boolean shadow) {
    public Csrf {
      additionalOrigins = List.copyOf(additionalOrigins);
      additionalOriginMatchers = List.copyOf(additionalOriginMatchers);
    }

    /** Exact origins only. */
    public Csrf(List<String> additionalOrigins, boolean shadow) {
      this(additionalOrigins, List.of(), shadow);
    }
  }

  /** One CSRF origin matcher ({@code {exact | prefix | suffix | safeRegex, ignoreCase}}, Envoy's StringMatcher). */
  public record OriginMatcher(MatchType type, String value, boolean ignoreCase) {
    public OriginMatcher {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(value, "value");
    }
  }

  /** How an {@link OriginMatcher} compares; SAFE_REGEX is an RE2 regex matching the whole host[:port]. */
  public enum MatchType {
    EXACT, PREFIX, SUFFIX, SAFE_REGEX;

    /** The fields naming each type, as Envoy's StringMatcher (and Gloo's) writes them, in this order. */
    public static final List<String> FIELDS = List.of("exact", "prefix", "suffix", "safeRegex");

    /** The type one of {@link #FIELDS} names. */
    public static MatchType ofField(String field) {
      return values()[FIELDS.indexOf(field)];
    }
  }

  /** Unmodifiable sorted copy, for parsers. */
  static SortedMap<String, String> sorted(Map<String, String> map) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(map));
  }
}
