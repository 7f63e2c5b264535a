package io.holdfast.ir;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A group of endpoints that routes forward to. Its identity is the object it was lowered from
 * ({@code origin.object()}): routes refer to it by that key, and the translator names it per kind.
 *
 * @param endpoints        in the order they are sent (front ends sort discovered endpoints; written ones keep their
 *                         order); IP literals, or host names when {@code dns} is present
 * @param dns              present when the proxy resolves the endpoints' names itself (no endpoint discovery)
 * @param circuitBreakers  limits on what is sent to the cluster at once; absent for the proxy's defaults
 * @param outlierDetection passive health (ejection of failing endpoints); absent for none
 * @param healthChecks     active health checks; empty for none
 * @param tls              TLS to the endpoints; absent for plaintext
 * @param ringHash         the hash ring's size bounds, only with {@link LbPolicy#RING_HASH}; absent for the proxy's
 *                         defaults
 * @param connection       how each connection to the endpoints is kept; absent for the proxy's defaults
 */
public record Cluster(Origin origin, Duration connectTimeout, LbPolicy lbPolicy, boolean http2,
    List<WeightedEndpoint> endpoints, Optional<Dns> dns, Optional<CircuitBreakers> circuitBreakers,
    Optional<OutlierDetection> outlierDetection, List<HealthCheck> healthChecks, Optional<UpstreamTls> tls,
    Optional<RingHash> ringHash, Optional<Connection> connection) {

  public Cluster {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(lbPolicy, "lbPolicy");
    endpoints = List.copyOf(endpoints);
    Objects.requireNonNull(dns, "dns");
    Objects.requireNonNull(circuitBreakers, "circuitBreakers");
    Objects.requireNonNull(outlierDetection, "outlierDetection");
    healthChecks = List.copyOf(healthChecks);
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(ringHash, "ringHash");
    Objects.requireNonNull(connection, "connection");
    if (ringHash.isPresent() && lbPolicy != LbPolicy.RING_HASH) {
      throw new IllegalArgumentException(origin + ": a ring size goes with RING_HASH only, got " + lbPolicy);
    }
    requirePositive(origin, "connectTimeout", connectTimeout);
    if (dns.isPresent() && dns.get().resolution() == DnsResolution.LOGICAL && endpoints.size() != 1) {
      throw new IllegalArgumentException(origin + ": LOGICAL DNS resolution needs exactly one endpoint, got "
          + endpoints.size());
    }
    if (http2 && connection.flatMap(Connection::http1).isPresent()) {
      throw new IllegalArgumentException(origin + ": HTTP/1.1 options go with an HTTP/1.1 cluster only");
    }
    if (!http2 && connection.flatMap(Connection::http2).isPresent()) {
      throw new IllegalArgumentException(origin + ": HTTP/2 options go with an HTTP/2 cluster only");
    }
    for (HealthCheck check : healthChecks) {
      if (check.probe() instanceof HealthCheck.Probe.Grpc && !http2) {
        throw new IllegalArgumentException(origin + ": a gRPC health check needs an HTTP/2 cluster");
      }
    }
  }

  /** Without connection settings. */
  public Cluster(Origin origin, Duration connectTimeout, LbPolicy lbPolicy, boolean http2,
      List<WeightedEndpoint> endpoints, Optional<Dns> dns, Optional<CircuitBreakers> circuitBreakers,
      Optional<OutlierDetection> outlierDetection, List<HealthCheck> healthChecks, Optional<UpstreamTls> tls,
      Optional<RingHash> ringHash) {
    this(origin, connectTimeout, lbPolicy, http2, endpoints, dns, circuitBreakers, outlierDetection, healthChecks,
        tls, ringHash, Optional.empty());
  }

  /** Without ring size bounds. */
  public Cluster(Origin origin, Duration connectTimeout, LbPolicy lbPolicy, boolean http2,
      List<WeightedEndpoint> endpoints, Optional<Dns> dns, Optional<CircuitBreakers> circuitBreakers,
      Optional<OutlierDetection> outlierDetection, List<HealthCheck> healthChecks, Optional<UpstreamTls> tls) {
    this(origin, connectTimeout, lbPolicy, http2, endpoints, dns, circuitBreakers, outlierDetection, healthChecks,
        tls, Optional.empty());
  }

  public Cluster withRingHash(RingHash value) {
    return new Cluster(origin, connectTimeout, lbPolicy, http2, endpoints, dns, circuitBreakers, outlierDetection,
        healthChecks, tls, Optional.of(value), connection);
  }

  public Cluster withConnection(Connection value) {
    return new Cluster(origin, connectTimeout, lbPolicy, http2, endpoints, dns, circuitBreakers, outlierDetection,
        healthChecks, tls, ringHash, Optional.of(value));
  }

  /**
   * How each connection to the endpoints is kept (Envoy's {@code max_requests_per_connection},
   * {@code per_connection_buffer_limit_bytes}, {@code upstream_connection_options.tcp_keepalive} and
   * {@code common_http_protocol_options} idle_timeout, max_headers_count, max_stream_duration; {@code http1} and
   * {@code http2} are the explicit {@code http_protocol_options} and {@code http2_protocol_options}); absent settings are the proxy's defaults. Front ends
   * validate the ranges; these checks only guard the IR's invariants.
   */
  public record Connection(Optional<Integer> maxRequestsPerConnection, Optional<Long> perConnectionBufferLimitBytes,
      Optional<Integer> keepaliveProbes, Optional<Integer> keepaliveTime, Optional<Integer> keepaliveInterval,
      Optional<Duration> idleTimeout, Optional<Integer> maxHeadersCount, Optional<Duration> maxStreamDuration,
      Optional<Http1> http1, Optional<Http2> http2) {
    /** Envoy's {@code UInt32Value} bound of the buffer limit. */
    public static final long MAX_BUFFER_LIMIT_BYTES = 4_294_967_295L;

    public Connection {
      Objects.requireNonNull(maxRequestsPerConnection, "maxRequestsPerConnection");
      Objects.requireNonNull(perConnectionBufferLimitBytes, "perConnectionBufferLimitBytes");
      Objects.requireNonNull(keepaliveProbes, "keepaliveProbes");
      Objects.requireNonNull(keepaliveTime, "keepaliveTime");
      Objects.requireNonNull(keepaliveInterval, "keepaliveInterval");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      maxRequestsPerConnection.ifPresent(v -> requireRange("connection", "maxRequestsPerConnection", v, 1,
          Integer.MAX_VALUE));
      perConnectionBufferLimitBytes.filter(v -> v < 0 || v > MAX_BUFFER_LIMIT_BYTES).ifPresent(v -> {
        throw new IllegalArgumentException("connection: perConnectionBufferLimitBytes " + v + " is out of range");
      });
      keepaliveProbes.ifPresent(v -> requireRange("connection", "keepaliveProbes", v, 1, Integer.MAX_VALUE));
      keepaliveTime.ifPresent(v -> requireRange("connection", "keepaliveTime", v, 1, Integer.MAX_VALUE));
      keepaliveInterval.ifPresent(v -> requireRange("connection", "keepaliveInterval", v, 1, Integer.MAX_VALUE));
      idleTimeout.filter(Duration::isNegative).ifPresent(v -> {
        throw new IllegalArgumentException("connection: idleTimeout is negative: " + v);
      });
      Objects.requireNonNull(maxHeadersCount, "maxHeadersCount");
      Objects.requireNonNull(maxStreamDuration, "maxStreamDuration");
      maxHeadersCount.ifPresent(v -> requireRange("connection", "maxHeadersCount", v, 1, Integer.MAX_VALUE));
      maxStreamDuration.filter(Duration::isNegative).ifPresent(v -> {
        throw new IllegalArgumentException("connection: maxStreamDuration is negative: " + v);
      });
      Objects.requireNonNull(http1, "http1");
      Objects.requireNonNull(http2, "http2");
    }

    /** Without HTTP/1.1 or HTTP/2 options. */
    public Connection(Optional<Integer> maxRequestsPerConnection, Optional<Long> perConnectionBufferLimitBytes,
        Optional<Integer> keepaliveProbes, Optional<Integer> keepaliveTime, Optional<Integer> keepaliveInterval,
        Optional<Duration> idleTimeout, Optional<Integer> maxHeadersCount, Optional<Duration> maxStreamDuration) {
      this(maxRequestsPerConnection, perConnectionBufferLimitBytes, keepaliveProbes, keepaliveTime,
          keepaliveInterval, idleTimeout, maxHeadersCount, maxStreamDuration, Optional.empty(), Optional.empty());
    }

    /** Without the header count and stream duration limits. */
    public Connection(Optional<Integer> maxRequestsPerConnection, Optional<Long> perConnectionBufferLimitBytes,
        Optional<Integer> keepaliveProbes, Optional<Integer> keepaliveTime, Optional<Integer> keepaliveInterval,
        Optional<Duration> idleTimeout) {
      this(maxRequestsPerConnection, perConnectionBufferLimitBytes, keepaliveProbes, keepaliveTime,
          keepaliveInterval, idleTimeout, Optional.empty(), Optional.empty());
    }

    public Connection withHttp1(Optional<Http1> value) {
      return new Connection(maxRequestsPerConnection, perConnectionBufferLimitBytes, keepaliveProbes, keepaliveTime,
          keepaliveInterval, idleTimeout, maxHeadersCount, maxStreamDuration, value, http2);
    }

    public Connection withHttp2(Optional<Http2> value) {
      return new Connection(maxRequestsPerConnection, perConnectionBufferLimitBytes, keepaliveProbes, keepaliveTime,
          keepaliveInterval, idleTimeout, maxHeadersCount, maxStreamDuration, http1, value);
    }

    /** Whether any TCP keep-alive setting is given. */
    public boolean tcpKeepalive() {
      return keepaliveProbes.isPresent() || keepaliveTime.isPresent() || keepaliveInterval.isPresent();
    }
  }

  /**
   * Envoy's {@code Http1ProtocolOptions} to the endpoints.
   *
   * @param headerKeyFormat                 absent: lower-case header names (the proxy's default)
   * @param streamErrorOnInvalidHttpMessage absent: the listener's {@code stream_error_on_invalid_http_message}
   */
  public record Http1(boolean enableTrailers, Optional<HeaderKeyFormat> headerKeyFormat,
      Optional<Boolean> streamErrorOnInvalidHttpMessage) {
    public Http1 {
      Objects.requireNonNull(headerKeyFormat, "headerKeyFormat");
      Objects.requireNonNull(streamErrorOnInvalidHttpMessage, "streamErrorOnInvalidHttpMessage");
    }
  }

  /**
   * Envoy's {@code Http2ProtocolOptions} to the endpoints, in Envoy's ranges: streams 1-2147483647, windows
   * {@link #MIN_WINDOW}-2147483647 (the upper bounds are int's).
   *
   * @param streamErrorOnInvalidHttpMessage absent: the listener's {@code stream_error_on_invalid_http_message}
   */
  public record Http2(Optional<Integer> maxConcurrentStreams, Optional<Integer> initialStreamWindowSize,
      Optional<Integer> initialConnectionWindowSize, Optional<Boolean> streamErrorOnInvalidHttpMessage) {
    public static final int MIN_WINDOW = 65535;

    public Http2 {
      Objects.requireNonNull(maxConcurrentStreams, "maxConcurrentStreams");
      Objects.requireNonNull(initialStreamWindowSize, "initialStreamWindowSize");
      Objects.requireNonNull(initialConnectionWindowSize, "initialConnectionWindowSize");
      Objects.requireNonNull(streamErrorOnInvalidHttpMessage, "streamErrorOnInvalidHttpMessage");
      maxConcurrentStreams.ifPresent(v -> requireRange("http2", "maxConcurrentStreams", v, 1, Integer.MAX_VALUE));
      initialStreamWindowSize.ifPresent(v ->
          requireRange("http2", "initialStreamWindowSize", v, MIN_WINDOW, Integer.MAX_VALUE));
      initialConnectionWindowSize.ifPresent(v ->
          requireRange("http2", "initialConnectionWindowSize", v, MIN_WINDOW, Integer.MAX_VALUE));
    }
  }

  /** Header name case: each word capitalised, or as received (Envoy's preserve_case stateful formatter). */
  public enum HeaderKeyFormat {
    PROPER_CASE, PRESERVE_CASE
  }

  /** A cluster with none of the optional policies. */
  public Cluster(Origin origin, Duration connectTimeout, LbPolicy lbPolicy, boolean http2,
      List<WeightedEndpoint> endpoints) {
    this(origin, connectTimeout, lbPolicy, http2, endpoints, Optional.empty(), Optional.empty(), Optional.empty(),
        List.of(), Optional.empty());
  }

  static void requirePositive(Object owner, String name, Duration value) {
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(owner + ": " + name + " must be greater than 0, got " + value);
    }
  }

  static void requireRange(Object owner, String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(owner + ": " + name + " " + value + " is out of range " + min + "-" + max);
    }
  }

  /** How requests are spread over the endpoints. */
  public enum LbPolicy {
    ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM
  }

  /**
   * Bounds of the consistent-hash ring (Envoy's {@code ring_hash_lb_config}); each 1 to {@link #MAX_RING_SIZE},
   * the minimum not above the maximum; absent ones are the proxy's defaults.
   */
  public record RingHash(Optional<Long> minimumRingSize, Optional<Long> maximumRingSize) {
    public static final long MAX_RING_SIZE = 8_388_608;

    public RingHash {
      Objects.requireNonNull(minimumRingSize, "minimumRingSize");
      Objects.requireNonNull(maximumRingSize, "maximumRingSize");
      minimumRingSize.ifPresent(v -> requireSize("minimumRingSize", v));
      maximumRingSize.ifPresent(v -> requireSize("maximumRingSize", v));
      if (minimumRingSize.isPresent() && maximumRingSize.isPresent()
          && minimumRingSize.get() > maximumRingSize.get()) {
        throw new IllegalArgumentException("ringHash: minimumRingSize " + minimumRingSize.get()
            + " is above maximumRingSize " + maximumRingSize.get());
      }
    }

    private static void requireSize(String name, long value) {
      if (value < 1 || value > MAX_RING_SIZE) {
        throw new IllegalArgumentException("ringHash: " + name + " " + value + " is out of range 1-" + MAX_RING_SIZE);
      }
    }
  }

  /** One endpoint; {@code weight} 1-128 is relative to the cluster's other endpoints. */
  public record WeightedEndpoint(String address, int port, int weight) {
    public WeightedEndpoint {
      Objects.requireNonNull(address, "address");
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("endpoint " + address + ": port " + port + " is out of range 1-65535");
      }
      if (weight < 1 || weight > 128) {
        throw new IllegalArgumentException("endpoint " + address + ": weight " + weight + " is out of range 1-128");
      }
    }
  }

  /** STRICT: every resolved address is an endpoint; LOGICAL: the first resolved address of the one name. */
  public enum DnsResolution {
    STRICT, LOGICAL
  }

  /** Address families a name resolves to. */
  public enum DnsLookupFamily {
    V4_ONLY, V6_ONLY, V4_PREFERRED, AUTO, ALL
  }

  /**
   * The proxy resolves the endpoint names.
   *
   * @param refreshRate how often names are resolved again; absent for the proxy's default (Envoy: 5 s)
   * @param respectTtl  re-resolve when the DNS record's TTL ends instead of at {@code refreshRate}
   */
  public record Dns(DnsResolution resolution, DnsLookupFamily lookupFamily, Optional<Duration> refreshRate,
      boolean respectTtl) {
    public Dns {
      Objects.requireNonNull(resolution, "resolution");
      Objects.requireNonNull(lookupFamily, "lookupFamily");
      Objects.requireNonNull(refreshRate, "refreshRate");
      refreshRate.filter(rate -> rate.compareTo(Duration.ofMillis(1)) <= 0).ifPresent(rate -> {
        throw new IllegalArgumentException("dns: refreshRate must be greater than 1ms (Envoy's floor), got " + rate);
      });
    }
  }

  /** Limits on the whole cluster at once; each absent one keeps the proxy's default. */
  public record CircuitBreakers(Optional<Integer> maxConnections, Optional<Integer> maxPendingRequests,
      Optional<Integer> maxRequests, Optional<Integer> maxRetries) {
    public CircuitBreakers {
      Objects.requireNonNull(maxConnections, "maxConnections");
      Objects.requireNonNull(maxPendingRequests, "maxPendingRequests");
      Objects.requireNonNull(maxRequests, "maxRequests");
      Objects.requireNonNull(maxRetries, "maxRetries");
      maxConnections.ifPresent(v -> requireRange("circuitBreakers", "maxConnections", v, 1, Integer.MAX_VALUE));
      maxPendingRequests.ifPresent(v ->
          requireRange("circuitBreakers", "maxPendingRequests", v, 1, Integer.MAX_VALUE));
      maxRequests.ifPresent(v -> requireRange("circuitBreakers", "maxRequests", v, 1, Integer.MAX_VALUE));
      maxRetries.ifPresent(v -> requireRange("circuitBreakers", "maxRetries", v, 0, Integer.MAX_VALUE));
    }
  }

  /**
   * Passive health with every value explicit (front ends fill in defaults): the detectors present are enforced,
   * the absent ones are off.
   *
   * @param maxEjectionPercent at most this share of the endpoints is ejected at once (0-100)
   */
  public record OutlierDetection(Optional<Integer> consecutive5xx, Optional<Integer> consecutiveGatewayErrors,
      Optional<SuccessRate> successRate, Optional<FailurePercentage> failurePercentage, Duration interval,
      Duration baseEjectionTime, int maxEjectionPercent) {
    public OutlierDetection {
      Objects.requireNonNull(consecutive5xx, "consecutive5xx");
      Objects.requireNonNull(consecutiveGatewayErrors, "consecutiveGatewayErrors");
      Objects.requireNonNull(successRate, "successRate");
      Objects.requireNonNull(failurePercentage, "failurePercentage");
      requirePositive("outlierDetection", "interval", interval);
      requirePositive("outlierDetection", "baseEjectionTime", baseEjectionTime);
      requireRange("outlierDetection", "maxEjectionPercent", maxEjectionPercent, 0, 100);
      consecutive5xx.ifPresent(v -> requireRange("outlierDetection", "consecutive5xx", v, 1, Integer.MAX_VALUE));
      consecutiveGatewayErrors.ifPresent(v ->
          requireRange("outlierDetection", "consecutiveGatewayErrors", v, 1, Integer.MAX_VALUE));
    }
  }

  /** Ejects endpoints whose success rate is below mean - stdevFactor × stdev ({@code stdevFactorMillis}/1000). */
  public record SuccessRate(int minimumHosts, int requestVolume, int stdevFactorMillis) {
    public SuccessRate {
      requireRange("successRate", "minimumHosts", minimumHosts, 1, Integer.MAX_VALUE);
      requireRange("successRate", "requestVolume", requestVolume, 1, Integer.MAX_VALUE);
      requireRange("successRate", "stdevFactorMillis", stdevFactorMillis, 1, Integer.MAX_VALUE);
    }
  }

  /** Ejects endpoints whose failed share of requests reaches {@code threshold} percent. */
  public record FailurePercentage(int threshold, int minimumHosts, int requestVolume) {
    public FailurePercentage {
      requireRange("failurePercentage", "threshold", threshold, 0, 100);
      requireRange("failurePercentage", "minimumHosts", minimumHosts, 1, Integer.MAX_VALUE);
      requireRange("failurePercentage", "requestVolume", requestVolume, 1, Integer.MAX_VALUE);
    }
  }
}
