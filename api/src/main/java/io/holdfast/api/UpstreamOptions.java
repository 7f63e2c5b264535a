package io.holdfast.api;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How the proxy treats an upstream's backends beyond spreading requests: name resolution, limits, passive and
 * active health, TLS. Everything is optional; absent means the proxy's default. Values are as written: ranges and
 * combinations are checked by validation, which names the field.
 *
 * @param healthChecks active health checks, in order; empty for none
 * @param tls          TLS to the backends; absent for plaintext
 * @param ringHash     the size of the hash ring of a RING_HASH upstream; absent for the proxy's defaults
 * @param connection   how each connection to the backends is kept ({@code spec.connection}); absent for the
 *                     proxy's defaults
 */
public record UpstreamOptions(Optional<Dns> dns, Optional<CircuitBreakers> circuitBreakers,
    Optional<OutlierDetection> outlierDetection, List<HealthCheck> healthChecks, Optional<Tls> tls,
    Optional<RingHash> ringHash, Optional<Connection> connection) {

  public static final UpstreamOptions NONE =
      new UpstreamOptions(Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.empty());

  public UpstreamOptions {
    Objects.requireNonNull(dns, "dns");
    Objects.requireNonNull(circuitBreakers, "circuitBreakers");
    Objects.requireNonNull(outlierDetection, "outlierDetection");
    healthChecks = List.copyOf(healthChecks);
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(ringHash, "ringHash");
    Objects.requireNonNull(connection, "connection");
  }

  /** Without connection settings. */
  public UpstreamOptions(Optional<Dns> dns, Optional<CircuitBreakers> circuitBreakers,
      Optional<OutlierDetection> outlierDetection, List<HealthCheck> healthChecks, Optional<Tls> tls,
      Optional<RingHash> ringHash) {
    this(dns, circuitBreakers, outlierDetection, healthChecks, tls, ringHash, Optional.empty());
  }

  /** Without a ring size. */
  public UpstreamOptions(Optional<Dns> dns, Optional<CircuitBreakers> circuitBreakers,
      Optional<OutlierDetection> outlierDetection, List<HealthCheck> healthChecks, Optional<Tls> tls) {
    this(dns, circuitBreakers, outlierDetection, healthChecks, tls, Optional.empty());
  }

  public UpstreamOptions withDns(Dns value) {
    return new UpstreamOptions(Optional.of(value), circuitBreakers, outlierDetection, healthChecks, tls, ringHash,
        connection);
  }

  public UpstreamOptions withCircuitBreakers(CircuitBreakers value) {
    return new UpstreamOptions(dns, Optional.of(value), outlierDetection, healthChecks, tls, ringHash, connection);
  }

  public UpstreamOptions withOutlierDetection(OutlierDetection value) {
    return new UpstreamOptions(dns, circuitBreakers, Optional.of(value), healthChecks, tls, ringHash, connection);
  }

  public UpstreamOptions withHealthChecks(List<HealthCheck> value) {
    return new UpstreamOptions(dns, circuitBreakers, outlierDetection, value, tls, ringHash, connection);
  }

  public UpstreamOptions withTls(Tls value) {
    return new UpstreamOptions(dns, circuitBreakers, outlierDetection, healthChecks, Optional.of(value), ringHash,
        connection);
  }

  public UpstreamOptions withRingHash(RingHash value) {
    return new UpstreamOptions(dns, circuitBreakers, outlierDetection, healthChecks, tls, Optional.of(value),
        connection);
  }

  public UpstreamOptions withConnection(Connection value) {
    return new UpstreamOptions(dns, circuitBreakers, outlierDetection, healthChecks, tls, ringHash,
        Optional.of(value));
  }

  /**
   * How each connection to the backends is kept ({@code spec.connection}); each setting absent is the proxy's
   * default. Validation checks the ranges ({@code InvalidUpstreamConnection}).
   *
   * @param maxRequestsPerConnection      requests on one connection before it is closed; 1 turns keep-alive off
   * @param perConnectionBufferLimitBytes soft limit on the bytes buffered per connection (Envoy's default 1 MiB)
   * @param tcpKeepalive                  TCP keep-alive probing of idle connections
   * @param idleTimeout                   how long a connection without requests stays open; zero: forever
   * @param maxHeadersCount               most headers in a response from the backends (Envoy's default 100)
   * @param maxStreamDuration             longest a request and its response may take before the stream is reset
   * @param http1                         how HTTP/1.1 is spoken to the backends; only without {@code http2}
   * @param http2                         how HTTP/2 is spoken to the backends; only with {@code http2}
   */
  public record Connection(Optional<Integer> maxRequestsPerConnection, Optional<Long> perConnectionBufferLimitBytes,
      Optional<TcpKeepalive> tcpKeepalive, Optional<Duration> idleTimeout, Optional<Integer> maxHeadersCount,
      Optional<Duration> maxStreamDuration, Optional<Http1> http1, Optional<Http2> http2) {
    /** Envoy's {@code UInt32Value} bound of the buffer limit. */
    public static final long MAX_BUFFER_LIMIT_BYTES = 4_294_967_295L;

    public Connection {
      Objects.requireNonNull(maxRequestsPerConnection, "maxRequestsPerConnection");
      Objects.requireNonNull(perConnectionBufferLimitBytes, "perConnectionBufferLimitBytes");
      Objects.requireNonNull(tcpKeepalive, "tcpKeepalive");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      Objects.requireNonNull(maxHeadersCount, "maxHeadersCount");
      Objects.requireNonNull(maxStreamDuration, "maxStreamDuration");
      Objects.requireNonNull(http1, "http1");
      Objects.requireNonNull(http2, "http2");
    }

    /** Without HTTP/1.1 or HTTP/2 options. */
    public Connection(Optional<Integer> maxRequestsPerConnection, Optional<Long> perConnectionBufferLimitBytes,
        Optional<TcpKeepalive> tcpKeepalive, Optional<Duration> idleTimeout, Optional<Integer> maxHeadersCount,
        Optional<Duration> maxStreamDuration) {
      this(maxRequestsPerConnection, perConnectionBufferLimitBytes, tcpKeepalive, idleTimeout, maxHeadersCount,
          maxStreamDuration, Optional.empty(), Optional.empty());
    }

    /** Without the header count and stream duration limits. */
    public Connection(Optional<Integer> maxRequestsPerConnection, Optional<Long> perConnectionBufferLimitBytes,
        Optional<TcpKeepalive> tcpKeepalive, Optional<Duration> idleTimeout) {
      this(maxRequestsPerConnection, perConnectionBufferLimitBytes, tcpKeepalive, idleTimeout, Optional.empty(),
          Optional.empty());
    }

    public Connection withMaxHeadersCount(Optional<Integer> value) {
      return new Connection(maxRequestsPerConnection, perConnectionBufferLimitBytes, tcpKeepalive, idleTimeout,
          value, maxStreamDuration, http1, http2);
    }

    public Connection withMaxStreamDuration(Optional<Duration> value) {
      return new Connection(maxRequestsPerConnection, perConnectionBufferLimitBytes, tcpKeepalive, idleTimeout,
          maxHeadersCount, value, http1, http2);
    }

    public Connection withHttp1(Optional<Http1> value) {
      return new Connection(maxRequestsPerConnection, perConnectionBufferLimitBytes, tcpKeepalive, idleTimeout,
          maxHeadersCount, maxStreamDuration, value, http2);
    }

    public Connection withHttp2(Optional<Http2> value) {
      return new Connection(maxRequestsPerConnection, perConnectionBufferLimitBytes, tcpKeepalive, idleTimeout,
          maxHeadersCount, maxStreamDuration, http1, value);
    }
  }

  /**
   * How HTTP/1.1 is spoken to the backends ({@code spec.connection.http1}, Envoy's {@code Http1ProtocolOptions}).
   *
   * @param enableTrailers                  forward trailers over HTTP/1.1 (chunked encoding) instead of dropping
   *                                        them; the listener must enable them too for a client's trailers
   * @param headerKeyFormat                 the case of header names written to the backends; absent: lower case
   * @param streamErrorOnInvalidHttpMessage on an invalid HTTP message, true ends only its stream and keeps the
   *                                        connection open where it can, false closes the connection; absent: the
   *                                        listener's setting
   */
  public record Http1(boolean enableTrailers, Optional<HeaderKeyFormat> headerKeyFormat,
      Optional<Boolean> streamErrorOnInvalidHttpMessage) {
    public Http1 {
      Objects.requireNonNull(headerKeyFormat, "headerKeyFormat");
      Objects.requireNonNull(streamErrorOnInvalidHttpMessage, "streamErrorOnInvalidHttpMessage");
    }
  }

  /**
   * How HTTP/2 is spoken to the backends ({@code spec.connection.http2}, Envoy's {@code Http2ProtocolOptions});
   * absent settings are Envoy's defaults. Validation checks Envoy's ranges ({@code InvalidUpstreamConnection}).
   *
   * @param maxConcurrentStreams            most streams the proxy opens on one connection (1-2147483647; Envoy's
   *                                        default 2147483647); past it requests queue or open connections
   * @param initialStreamWindowSize         per-stream flow-control window (65535-2147483647; Envoy's 256 MiB)
   * @param initialConnectionWindowSize     per-connection flow-control window (the same range and default)
   * @param streamErrorOnInvalidHttpMessage on an invalid frame, true resets only its stream, false the whole
   *                                        connection; absent: the listener's setting
   */
  public record Http2(Optional<Long> maxConcurrentStreams, Optional<Long> initialStreamWindowSize,
      Optional<Long> initialConnectionWindowSize, Optional<Boolean> streamErrorOnInvalidHttpMessage) {
    public Http2 {
      Objects.requireNonNull(maxConcurrentStreams, "maxConcurrentStreams");
      Objects.requireNonNull(initialStreamWindowSize, "initialStreamWindowSize");
      Objects.requireNonNull(initialConnectionWindowSize, "initialConnectionWindowSize");
      Objects.requireNonNull(streamErrorOnInvalidHttpMessage, "streamErrorOnInvalidHttpMessage");
    }
  }

  /**
   * PROPER_CASE: each word of a header name capitalised ({@code Content-Type}); PRESERVE_CASE: the case the header
   * was received in, where Envoy has it (Envoy's preserve_case stateful formatter), else lower case.
   */
  public enum HeaderKeyFormat {
    PROPER_CASE, PRESERVE_CASE
  }

  /**
   * TCP keep-alive: after {@code time} idle seconds the kernel sends up to {@code probes} probes {@code interval}
   * seconds apart before dropping the connection; absent ones are the operating system's defaults.
   */
  public record TcpKeepalive(Optional<Integer> probes, Optional<Integer> time, Optional<Integer> interval) {
    public TcpKeepalive {
      Objects.requireNonNull(probes, "probes");
      Objects.requireNonNull(time, "time");
      Objects.requireNonNull(interval, "interval");
    }
  }

  /**
   * TLS material fetched by the proxy from an SDS agent beside it ({@code spec.tls.sds}), such as Istio's agent in
   * the proxy pod. Only the secrets are fetched there; requests still go to the upstream's backends. Validation
   * allows only an IP literal on loopback as the address ({@code InvalidUpstreamSds}).
   *
   * @param address               the agent's {@code host:port} (an IPv4 or bracketed IPv6 loopback literal)
   * @param certificateSecretName the SDS name of the client certificate the proxy presents; absent for none
   * @param validationContextName the SDS name of the validation context (trusted CAs) the backends' certificates
   *                              are checked against; absent for none
   */
  public record Sds(String address, Optional<String> certificateSecretName, Optional<String> validationContextName) {
    public Sds {
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(certificateSecretName, "certificateSecretName");
      Objects.requireNonNull(validationContextName, "validationContextName");
    }

    /**
     * The agent's IP and port when {@code address} is an IP literal on loopback (IPv6 in brackets) with a port
     * 1-65535; empty otherwise. Loopback only: the agent must be in the proxy's own network namespace, so a tenant
     * cannot point the proxy's secret fetching at another host.
     */
    public Optional<Agent> agent() {
      int colon = address.lastIndexOf(':');
      if (colon <= 0 || colon == address.length() - 1 || address.length() > MAX_ADDRESS_LENGTH) {
        return Optional.empty();
      }
      String host = address.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
        if (!host.contains(":")) {
          return Optional.empty();
        }
      } else if (host.contains(":")) {
        return Optional.empty();
      }
      String portText = address.substring(colon + 1);
      if (!portText.chars().allMatch(c -> c >= '0' && c <= '9') || portText.length() > 5) {
        return Optional.empty();
      }
      int port = Integer.parseInt(portText);
      if (port < 1 || port > 65535 || !com.google.common.net.InetAddresses.isInetAddress(host)
          || !com.google.common.net.InetAddresses.forString(host).isLoopbackAddress()) {
        return Optional.empty();
      }
      return Optional.of(new Agent(com.google.common.net.InetAddresses.toAddrString(
          com.google.common.net.InetAddresses.forString(host)), port));
    }

    /** Longest address: a bracketed IPv6 literal and a port fit in far less. */
    public static final int MAX_ADDRESS_LENGTH = 64;

    /** A loopback IP (canonical text, IPv6 without brackets) and port. */
    public record Agent(String ip, int port) {
    }
  }

  /**
   * TLS to the backends ({@code spec.tls}).
   *
   * @param sni               server name sent, and checked against the certificate; default the host name when the
   *                          upstream is one host given by name
   * @param verify            how the backend's certificate is checked; default CA with a trustedCa, else SYSTEM
   * @param trustedCa         the CA the backends' certificates must chain to, instead of the system CAs
   * @param clientCertificate the certificate and key the proxy presents to the backends (mutual TLS)
   * @param subjectAltNames   names the certificate must carry one of (as a DNS name, URI, e-mail or IP address),
   *                          checked instead of the SNI; empty: the SNI is checked
   * @param alpnProtocols     the protocols offered in the TLS handshake (ALPN), in order of preference; empty: h2
   *                          for an HTTP/2 upstream, else none
   * @param sds               the client certificate and validation context fetched from a node-local SDS agent
   *                          instead of {@code clientCertificate} and {@code trustedCa}; absent for none
   */
  public record Tls(Optional<String> sni, Optional<TlsVerify> verify, Optional<SslConfig.CaSource> trustedCa,
      Optional<SslConfig.CertificateSource> clientCertificate, List<String> subjectAltNames,
      List<String> alpnProtocols, Optional<Sds> sds) {
    /**
     * Most ALPN protocols. Reason: each is sent in every handshake; real lists name two or three (h2, http/1.1),
     * and a longer one rejects its Upstream ({@code InvalidUpstreamTls}).
     */
    public static final int MAX_ALPN_PROTOCOLS = 8;
    /** Longest ALPN protocol name: the TLS wire format gives it one length byte. */
    public static final int MAX_ALPN_PROTOCOL_LENGTH = 255;

    public Tls {
      Objects.requireNonNull(sni, "sni");
      Objects.requireNonNull(verify, "verify");
      Objects.requireNonNull(trustedCa, "trustedCa");
      Objects.requireNonNull(clientCertificate, "clientCertificate");
      subjectAltNames = List.copyOf(subjectAltNames);
      alpnProtocols = List.copyOf(alpnProtocols);
      Objects.requireNonNull(sds, "sds");
    }

    /** Without an SDS agent. */
    public Tls(Optional<String> sni, Optional<TlsVerify> verify, Optional<SslConfig.CaSource> trustedCa,
        Optional<SslConfig.CertificateSource> clientCertificate, List<String> subjectAltNames,
        List<String> alpnProtocols) {
      this(sni, verify, trustedCa, clientCertificate, subjectAltNames, alpnProtocols, Optional.empty());
    }

    /** Without ALPN protocols of its own. */
    public Tls(Optional<String> sni, Optional<TlsVerify> verify, Optional<SslConfig.CaSource> trustedCa,
        Optional<SslConfig.CertificateSource> clientCertificate, List<String> subjectAltNames) {
      this(sni, verify, trustedCa, clientCertificate, subjectAltNames, List.of());
    }

    public Tls withAlpnProtocols(List<String> value) {
      return new Tls(sni, verify, trustedCa, clientCertificate, subjectAltNames, value, sds);
    }

    public Tls withSds(Optional<Sds> value) {
      return new Tls(sni, verify, trustedCa, clientCertificate, subjectAltNames, alpnProtocols, value);
    }

    /** Checking the SNI as the certificate's name. */
    public Tls(Optional<String> sni, Optional<TlsVerify> verify, Optional<SslConfig.CaSource> trustedCa,
        Optional<SslConfig.CertificateSource> clientCertificate) {
      this(sni, verify, trustedCa, clientCertificate, List.of());
    }

    public Tls(Optional<String> sni, Optional<TlsVerify> verify) {
      this(sni, verify, Optional.empty(), Optional.empty());
    }

    /**
     * How the certificate is checked: as written, else CA when a trustedCa (or an SDS validation context) is given,
     * else SYSTEM.
     */
    public TlsVerify effectiveVerify() {
      boolean ca = trustedCa.isPresent() || sds.flatMap(Sds::validationContextName).isPresent();
      return verify.orElse(ca ? TlsVerify.CA : TlsVerify.SYSTEM);
    }

    /** The secret-data keys of all the TLS material named, resolved against the upstream's namespace. */
    public List<ResourceKey> materialKeys(String namespace) {
      List<ResourceKey> keys = new java.util.ArrayList<>();
      trustedCa.ifPresent(ca -> keys.add(ca.key(namespace)));
      clientCertificate.ifPresent(certificate -> keys.addAll(certificate.keys(namespace)));
      return List.copyOf(keys);
    }
  }

  /**
   * The hash ring of a RING_HASH upstream ({@code spec.ringHash}): Envoy places each backend on the ring about
   * {@code minimumRingSize / backends} times, growing the ring up to {@code maximumRingSize}. A larger ring spreads
   * keys more evenly and costs memory on every proxy.
   */
  public record RingHash(Optional<Long> minimumRingSize, Optional<Long> maximumRingSize) {
    /** Envoy's bound on both sizes ({@code validate.rules} of {@code RingHashLbConfig}). */
    public static final long MAX_RING_SIZE = 8_388_608;

    public RingHash {
      Objects.requireNonNull(minimumRingSize, "minimumRingSize");
      Objects.requireNonNull(maximumRingSize, "maximumRingSize");
    }
  }

  /**
   * SYSTEM: chain to the proxy's system CAs and DNS name equal to the SNI; CA: chain to {@code trustedCa} (and DNS
   * name equal to the SNI when there is one); NONE: not checked at all.
   */
  public enum TlsVerify {
    SYSTEM, CA, NONE
  }

  /** How the proxy resolves static hosts given by name ({@code spec.dns}). */
  public record Dns(Optional<DnsResolution> resolution, Optional<DnsLookupFamily> lookupFamily,
      Optional<Duration> refreshRate, Optional<Boolean> respectTtl) {
    public Dns {
      Objects.requireNonNull(resolution, "resolution");
      Objects.requireNonNull(lookupFamily, "lookupFamily");
      Objects.requireNonNull(refreshRate, "refreshRate");
      Objects.requireNonNull(respectTtl, "respectTtl");
    }
  }

  /** STRICT: every address each name resolves to is a backend; LOGICAL: one connection target per name. */
  public enum DnsResolution {
    STRICT, LOGICAL
  }

  /** Which address families a name is resolved to (Envoy's {@code dns_lookup_family}). */
  public enum DnsLookupFamily {
    V4_ONLY, V6_ONLY, V4_PREFERRED, AUTO, ALL
  }

  /** Limits on what the proxy sends to the whole upstream at once ({@code spec.circuitBreakers}). */
  public record CircuitBreakers(Optional<Integer> maxConnections, Optional<Integer> maxPendingRequests,
      Optional<Integer> maxRequests, Optional<Integer> maxRetries) {
    public CircuitBreakers {
      Objects.requireNonNull(maxConnections, "maxConnections");
      Objects.requireNonNull(maxPendingRequests, "maxPendingRequests");
      Objects.requireNonNull(maxRequests, "maxRequests");
      Objects.requireNonNull(maxRetries, "maxRetries");
    }
  }

  /**
   * Passive health: which failures eject a backend and for how long ({@code spec.outlierDetection}). Each
   * detector is on only when written.
   */
  public record OutlierDetection(Optional<Integer> consecutive5xx, Optional<Integer> consecutiveGatewayErrors,
      Optional<SuccessRate> successRate, Optional<FailurePercentage> failurePercentage, Optional<Duration> interval,
      Optional<Duration> baseEjectionTime, Optional<Integer> maxEjectionPercent) {
    public OutlierDetection {
      Objects.requireNonNull(consecutive5xx, "consecutive5xx");
      Objects.requireNonNull(consecutiveGatewayErrors, "consecutiveGatewayErrors");
      Objects.requireNonNull(successRate, "successRate");
      Objects.requireNonNull(failurePercentage, "failurePercentage");
      Objects.requireNonNull(interval, "interval");
      Objects.requireNonNull(baseEjectionTime, "baseEjectionTime");
      Objects.requireNonNull(maxEjectionPercent, "maxEjectionPercent");
    }
  }

  /** Ejects backends whose success rate is {@code stdevFactor} standard deviations below the mean. */
  public record SuccessRate(Optional<Integer> minimumHosts, Optional<Integer> requestVolume,
      Optional<Double> stdevFactor) {
    public SuccessRate {
      Objects.requireNonNull(minimumHosts, "minimumHosts");
      Objects.requireNonNull(requestVolume, "requestVolume");
      Objects.requireNonNull(stdevFactor, "stdevFactor");
    }
  }

  /** Ejects backends whose share of failed requests reaches {@code threshold} percent. */
  public record FailurePercentage(Optional<Integer> threshold, Optional<Integer> minimumHosts,
      Optional<Integer> requestVolume) {
    public FailurePercentage {
      Objects.requireNonNull(threshold, "threshold");
      Objects.requireNonNull(minimumHosts, "minimumHosts");
      Objects.requireNonNull(requestVolume, "requestVolume");
    }
  }

  /** One active health check ({@code spec.healthChecks[i]}): exactly one probe. */
  public record HealthCheck(Duration timeout, Duration interval, Optional<Integer> healthyThreshold,
      Optional<Integer> unhealthyThreshold, Probe probe) {
    public HealthCheck {
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(interval, "interval");
      Objects.requireNonNull(healthyThreshold, "healthyThreshold");
      Objects.requireNonNull(unhealthyThreshold, "unhealthyThreshold");
      Objects.requireNonNull(probe, "probe");
    }
  }

  /** What a health check sends. */
  public sealed interface Probe {

    /** An HTTP GET of {@code path}; healthy if the status is in one of the ranges (none given: 200 only). */
    record Http(String path, Optional<String> host, List<StatusRange> expectedStatuses) implements Probe {
      public Http {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(host, "host");
        expectedStatuses = List.copyOf(expectedStatuses);
      }
    }

    /** A TCP connect. */
    record Tcp() implements Probe {
    }

    /** A call to the gRPC health service ({@code grpc.health.v1.Health/Check}) for {@code serviceName}. */
    record Grpc(Optional<String> serviceName) implements Probe {
      public Grpc {
        Objects.requireNonNull(serviceName, "serviceName");
      }
    }
  }

  /** HTTP statuses {@code start} (inclusive) to {@code end} (exclusive), as Envoy writes ranges. */
  public record StatusRange(int start, int end) {
  }
}
