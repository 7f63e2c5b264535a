package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.LoadBalancing;
import io.holdfast.api.Reasons;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TrafficChecks;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.UpstreamTarget;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** An Upstream's own rules (it references nothing; what gRPC clients make of it is in {@link GrpcRules}). */
final class UpstreamRules {

  static final int MAX_HOST_WEIGHT = 128;
  /** Envoy requires {@code dns_refresh_rate} to be greater than this. */
  static final Duration DNS_REFRESH_FLOOR = Duration.ofMillis(1);
  /** Envoy's stdev factor is an integer in thousandths; larger factors would overflow it. */
  static final double MAX_STDEV_FACTOR = 1_000_000;

  private UpstreamRules() {
  }

  static void check(Upstream upstream, Ledger.Sink sink) {
    MetadataRules.check(upstream.metadata(), sink);
    if (upstream.connectTimeout().isZero() || upstream.connectTimeout().isNegative()) {
      sink.error("spec.connectTimeout", Reasons.INVALID_DURATION, "connectTimeout must be greater than 0");
    }
    if (upstream.target() instanceof UpstreamTarget.Static hosts) {
      for (int i = 0; i < hosts.hosts().size(); i++) {
        checkHost(hosts.hosts().get(i), "spec.static.hosts[" + i + "]", sink);
      }
    } else if (upstream.target() instanceof UpstreamTarget.Kube kube) {
      if (!Syntax.isServiceName(kube.name())) {
        sink.error("spec.kube.name", Reasons.INVALID_NAME, "\"" + kube.name() + "\" is not a valid Service name");
      }
      kube.namespace().filter(ns -> !Syntax.isNamespace(ns)).ifPresent(ns ->
          sink.error("spec.kube.namespace", Reasons.INVALID_NAME, "\"" + ns + "\" is not a valid namespace"));
      MetadataRules.checkPort(kube.port(), "spec.kube.port", sink);
      if (kube.selector().size() > UpstreamTarget.Kube.MAX_SELECTOR_LABELS) {
        sink.error("spec.kube.selector", Reasons.INVALID_VALUE, "a selector of " + kube.selector().size()
            + " labels; at most " + UpstreamTarget.Kube.MAX_SELECTOR_LABELS);
      }
    }
    UpstreamOptions options = upstream.options();
    options.dns().ifPresent(dns -> checkDns(upstream, dns, sink));
    options.circuitBreakers().ifPresent(breakers -> checkCircuitBreakers(breakers, sink));
    options.outlierDetection().ifPresent(od -> checkOutlierDetection(od, sink));
    for (int i = 0; i < options.healthChecks().size(); i++) {
      checkHealthCheck(options.healthChecks().get(i), upstream.http2(), "spec.healthChecks[" + i + "]", sink);
    }
    options.tls().ifPresent(tls -> checkTls(upstream, tls, sink));
    options.ringHash().ifPresent(ring -> checkRingHash(upstream, ring, sink));
    options.connection().ifPresent(connection -> checkConnection(connection, sink));
    // Envoy's explicit_http_config holds the options of the one protocol spoken: HTTP/1.1 or HTTP/2.
    options.connection().flatMap(UpstreamOptions.Connection::http1).filter(http1 -> upstream.http2())
        .ifPresent(http1 -> sink.error("spec.connection.http1", Reasons.INVALID_UPSTREAM_CONNECTION, "HTTP/1.1"
            + " options on an upstream spoken to in HTTP/2 (spec.http2: true) would never apply"));
    options.connection().flatMap(UpstreamOptions.Connection::http2).filter(http2 -> !upstream.http2())
        .ifPresent(http2 -> sink.error("spec.connection.http2", Reasons.INVALID_UPSTREAM_CONNECTION, "HTTP/2"
            + " options on an upstream spoken to in HTTP/1.1 would never apply (set spec.http2: true)"));
  }

  /**
   * Linux's bounds of the keep-alive socket options (TCP_KEEPIDLE and TCP_KEEPINTVL in seconds, TCP_KEEPCNT):
   * Envoy passes the values to setsockopt unchecked, and a larger one fails every connection to the upstream.
   */
  static final int MAX_KEEPALIVE_SECONDS = 32_767;
  static final int MAX_KEEPALIVE_PROBES = 127;

  private static void checkConnection(UpstreamOptions.Connection connection, Ledger.Sink sink) {
    connection.maxRequestsPerConnection().filter(n -> n < 1).ifPresent(n -> sink.error(
        "spec.connection.maxRequestsPerConnection", Reasons.INVALID_UPSTREAM_CONNECTION, n + " is below 1 (leave"
            + " it out for no limit)"));
    connection.perConnectionBufferLimitBytes()
        .filter(n -> n < 1 || n > UpstreamOptions.Connection.MAX_BUFFER_LIMIT_BYTES)
        .ifPresent(n -> sink.error("spec.connection.perConnectionBufferLimitBytes",
            Reasons.INVALID_UPSTREAM_CONNECTION, n + " is out of range 1-"
                + UpstreamOptions.Connection.MAX_BUFFER_LIMIT_BYTES));
    connection.idleTimeout().filter(java.time.Duration::isNegative).ifPresent(d -> sink.error(
        "spec.connection.idleTimeout", Reasons.INVALID_UPSTREAM_CONNECTION, "must not be negative"));
    connection.maxStreamDuration().filter(java.time.Duration::isNegative).ifPresent(d -> sink.error(
        "spec.connection.maxStreamDuration", Reasons.INVALID_UPSTREAM_CONNECTION, "must not be negative"));
    // Envoy's validate.rules: max_headers_count gte 1.
    connection.maxHeadersCount().filter(n -> n < 1).ifPresent(n -> sink.error("spec.connection.maxHeadersCount",
        Reasons.INVALID_UPSTREAM_CONNECTION, n + " is below 1"));
    connection.http2().ifPresent(http2 -> {
      http2Range(http2.maxConcurrentStreams(), "maxConcurrentStreams", 1, sink);
      http2Range(http2.initialStreamWindowSize(), "initialStreamWindowSize", TrafficChecks.MIN_WINDOW, sink);
      http2Range(http2.initialConnectionWindowSize(), "initialConnectionWindowSize", TrafficChecks.MIN_WINDOW,
          sink);
    });
    connection.tcpKeepalive().ifPresent(keepalive -> {
      keepalive(keepalive.probes(), "probes", MAX_KEEPALIVE_PROBES, sink);
      keepalive(keepalive.time(), "time", MAX_KEEPALIVE_SECONDS, sink);
      keepalive(keepalive.interval(), "interval", MAX_KEEPALIVE_SECONDS, sink);
    });
  }

  /** Envoy's validate.rules of Http2ProtocolOptions: each at least {@code min}, at most 2147483647. */
  private static void http2Range(Optional<Long> value, String name, long min, Ledger.Sink sink) {
    value.filter(v -> v < min || v > Integer.MAX_VALUE).ifPresent(v -> sink.error("spec.connection.http2." + name,
        Reasons.INVALID_UPSTREAM_CONNECTION, v + " is out of Envoy's range " + min + "-" + Integer.MAX_VALUE));
  }

  private static void keepalive(Optional<Integer> value, String name, int max, Ledger.Sink sink) {
    value.filter(v -> v < 1 || v > max).ifPresent(v -> sink.error("spec.connection.tcpKeepalive." + name,
        Reasons.INVALID_UPSTREAM_CONNECTION, v + " is out of range 1-" + max + " (Linux's bound)"));
  }

  private static void checkRingHash(Upstream upstream, UpstreamOptions.RingHash ring, Ledger.Sink sink) {
    if (upstream.loadBalancing() != LoadBalancing.RING_HASH) {
      sink.error("spec.ringHash", Reasons.INVALID_RING_HASH, "sizes the hash ring of RING_HASH load balancing;"
          + " this upstream balances with " + upstream.loadBalancing());
    }
    ringSize(ring.minimumRingSize(), "spec.ringHash.minimumRingSize", sink);
    ringSize(ring.maximumRingSize(), "spec.ringHash.maximumRingSize", sink);
    long min = ring.minimumRingSize().orElse(ENVOY_MINIMUM_RING_SIZE);
    long max = ring.maximumRingSize().orElse(UpstreamOptions.RingHash.MAX_RING_SIZE);
    if (min > max) {
      sink.error("spec.ringHash", Reasons.INVALID_RING_HASH, "minimumRingSize " + min + " is above maximumRingSize "
          + max + (ring.minimumRingSize().isEmpty() ? " (the minimum defaults to " + ENVOY_MINIMUM_RING_SIZE + ")"
          : ""));
    }
  }

  /** Envoy's default minimum ring size, compared with a written maximum. */
  static final long ENVOY_MINIMUM_RING_SIZE = 1024;

  private static void ringSize(Optional<Long> size, String field, Ledger.Sink sink) {
    size.filter(s -> s < 1 || s > UpstreamOptions.RingHash.MAX_RING_SIZE).ifPresent(s -> sink.error(field,
        Reasons.INVALID_RING_HASH, s + " is out of range 1-" + UpstreamOptions.RingHash.MAX_RING_SIZE));
  }

  /**
   * A selector-bearing kube Upstream whose Service the source has but whose narrowed endpoints it could not resolve
   * (it cannot read the pods' labels) is served without endpoints, and says why. Sources resolve the whole Service
   * beside every narrowed reference, so the two cases (no Service, no pod labels) are told apart.
   */
  static void podSelection(Upstream upstream, GatewayConfig config, Ledger.Sink sink) {
    if (!(upstream.target() instanceof UpstreamTarget.Kube kube) || kube.selector().isEmpty()) {
      return;
    }
    ServiceRef ref = kube.service(upstream.metadata().namespace());
    if (!config.serviceEndpoints().containsKey(ref) && config.serviceEndpoints().containsKey(ref.wholeService())) {
      sink.warn("spec.kube.selector", Reasons.POD_LABELS_UNAVAILABLE, "the labels of Service " + ref.wholeService()
          + "'s pods cannot be read (in Kubernetes mode: grant list and watch on pods, deploy/rbac.yaml), so"
          + " the Upstream has no endpoints rather than the Service's unselected ones");
    }
  }

  /** The server name TLS sends: {@code spec.tls.sni}, else the host name of an upstream that is one named host. */
  static Optional<String> sni(Upstream upstream, UpstreamOptions.Tls tls) {
    if (tls.sni().isPresent()) {
      return tls.sni();
    }
    if (upstream.target() instanceof UpstreamTarget.Static hosts && hosts.hosts().size() == 1
        && !Syntax.isIpAddress(hosts.hosts().get(0).address())) {
      String name = hosts.hosts().get(0).address();
      return Optional.of(name.endsWith(".") ? name.substring(0, name.length() - 1) : name);
    }
    return Optional.empty();
  }

  private static void checkTls(Upstream upstream, UpstreamOptions.Tls tls, Ledger.Sink sink) {
    tls.sni().filter(sni -> !Syntax.isHostName(sni) || sni.endsWith(".") || sni.length() > 255).ifPresent(sni ->
        sink.error("spec.tls.sni", Reasons.INVALID_UPSTREAM_TLS, "\"" + sni + "\" is not a host name"));
    UpstreamOptions.TlsVerify verify = tls.effectiveVerify();
    boolean sdsCa = tls.sds().flatMap(UpstreamOptions.Sds::validationContextName).isPresent();
    if (verify == UpstreamOptions.TlsVerify.CA && tls.trustedCa().isEmpty() && tls.sds().isPresent()) {
      if (!sdsCa) {
        sink.error("spec.tls.verify", Reasons.INVALID_UPSTREAM_SDS, "verify: CA with sds needs"
            + " sds.validationContextName");
      }
    } else if (verify != UpstreamOptions.TlsVerify.CA && sdsCa) {
      sink.error("spec.tls.verify", Reasons.INVALID_UPSTREAM_SDS, "verify: " + verify + " does not use"
          + " sds.validationContextName; leave verify out (or write CA), or drop validationContextName");
    } else if (verify == UpstreamOptions.TlsVerify.CA && tls.trustedCa().isEmpty()) {
      sink.error("spec.tls.verify", Reasons.INVALID_UPSTREAM_TLS, "verify: CA checks the backends' certificates"
          + " against spec.tls.trustedCa, which is not given");
    } else if (verify != UpstreamOptions.TlsVerify.CA && tls.trustedCa().isPresent()) {
      sink.error("spec.tls.verify", Reasons.INVALID_UPSTREAM_TLS, "verify: " + verify + " does not use"
          + " spec.tls.trustedCa; leave verify out (or write CA) to check against the trusted CA, or drop trustedCa");
    }
    checkSubjectAltNames(tls, verify, sink);
    checkAlpnProtocols(tls.alpnProtocols(), sink);
    tls.sds().ifPresent(sds -> checkSds(tls, sds, sink));
    if (verify == UpstreamOptions.TlsVerify.SYSTEM && sni(upstream, tls).isEmpty()
        && tls.subjectAltNames().isEmpty()) {
      sink.error("spec.tls.sni", Reasons.INVALID_UPSTREAM_TLS, "verify: SYSTEM checks the backends' certificates"
          + " for the name in sni, and there is none to derive (the upstream is not one host given by name);"
          + " give sni, or verify: NONE to skip every check");
    }
  }

  /**
   * {@code tls.sds}: the proxy fetches secrets from a local agent. Only a loopback IP literal is accepted (Holdfast
   * denies loopback for request traffic, but an SDS agent beside the proxy is only asked for certificates, and a
   * non-loopback address would let a tenant make the proxy connect elsewhere); it replaces the Upstream's own
   * certificate and CA rather than mixing with them.
   */
  private static void checkSds(UpstreamOptions.Tls tls, UpstreamOptions.Sds sds, Ledger.Sink sink) {
    if (sds.agent().isEmpty()) {
      sink.error("spec.tls.sds.address", Reasons.INVALID_UPSTREAM_SDS, "\"" + sds.address() + "\" is not a loopback"
          + " IP literal with a port 1-65535 (e.g. 127.0.0.1:8234 or [::1]:8234); the SDS agent must run beside"
          + " the proxy");
    }
    if (sds.certificateSecretName().isEmpty() && sds.validationContextName().isEmpty()) {
      sink.error("spec.tls.sds", Reasons.INVALID_UPSTREAM_SDS, "names neither a certificateSecretName nor a"
          + " validationContextName");
    }
    if (tls.clientCertificate().isPresent() || tls.trustedCa().isPresent()) {
      sink.error("spec.tls.sds", Reasons.INVALID_UPSTREAM_SDS, "the secrets come from the SDS agent; drop"
          + " clientCertificate and trustedCa, or drop sds");
    }
  }

  /**
   * Subject alternative names a backend certificate may carry. Bound: a certificate check compares each; real
   * upstreams list a few names.
   */
  static final int MAX_SUBJECT_ALT_NAMES = 16;

  private static void checkSubjectAltNames(UpstreamOptions.Tls tls, UpstreamOptions.TlsVerify verify,
      Ledger.Sink sink) {
    List<String> names = tls.subjectAltNames();
    if (!names.isEmpty() && verify == UpstreamOptions.TlsVerify.NONE) {
      sink.error("spec.tls.subjectAltNames", Reasons.INVALID_UPSTREAM_TLS, "subjectAltNames are checked only when"
          + " the certificate is (verify: SYSTEM or CA)");
    }
    if (names.size() > MAX_SUBJECT_ALT_NAMES) {
      sink.error("spec.tls.subjectAltNames", Reasons.INVALID_UPSTREAM_TLS, names.size() + " names; at most "
          + MAX_SUBJECT_ALT_NAMES);
    }
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (name.isEmpty() || name.length() > 255 || name.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
        sink.error("spec.tls.subjectAltNames[" + i + "]", Reasons.INVALID_UPSTREAM_TLS, "a name is 1-255"
            + " printable characters without spaces");
      }
    }
  }

  private static void checkAlpnProtocols(List<String> protocols, Ledger.Sink sink) {
    if (protocols.size() > UpstreamOptions.Tls.MAX_ALPN_PROTOCOLS) {
      sink.error("spec.tls.alpnProtocols", Reasons.INVALID_UPSTREAM_TLS, protocols.size() + " protocols; at most "
          + UpstreamOptions.Tls.MAX_ALPN_PROTOCOLS);
      return;
    }
    for (int i = 0; i < protocols.size(); i++) {
      String protocol = protocols.get(i);
      if (protocol.isEmpty() || protocol.length() > UpstreamOptions.Tls.MAX_ALPN_PROTOCOL_LENGTH
          || protocol.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
        sink.error("spec.tls.alpnProtocols[" + i + "]", Reasons.INVALID_UPSTREAM_TLS, "a protocol is 1-"
            + UpstreamOptions.Tls.MAX_ALPN_PROTOCOL_LENGTH + " printable ASCII characters without spaces");
      }
    }
  }

  /** True if the proxy resolves this upstream's hosts itself: a static host is given by name. */
  static boolean resolvesNames(Upstream upstream) {
    return upstream.target() instanceof UpstreamTarget.Static hosts
        && hosts.hosts().stream().anyMatch(h -> !Syntax.isIpAddress(h.address()));
  }

  private static void checkHost(UpstreamTarget.Host host, String field, Ledger.Sink sink) {
    if (!Syntax.isIpAddress(host.address()) && !Syntax.isHostName(host.address())) {
      sink.error(field + ".address", Reasons.INVALID_ADDRESS,
          "\"" + host.address() + "\" is neither an IP address nor a host name");
    }
    MetadataRules.checkPort(host.port(), field + ".port", sink);
    if (host.weight() < 1 || host.weight() > MAX_HOST_WEIGHT) {
      sink.error(field + ".weight", Reasons.INVALID_WEIGHT,
          "weight " + host.weight() + " is out of range 1-" + MAX_HOST_WEIGHT);
    }
  }

  private static void checkDns(Upstream upstream, UpstreamOptions.Dns dns, Ledger.Sink sink) {
    if (!resolvesNames(upstream)) {
      sink.warn("spec.dns", Reasons.FIELD_IGNORED, "applies only to static hosts given by name; every address here"
          + " is " + (upstream.target() instanceof UpstreamTarget.Kube ? "discovered from the Service"
          : "an IP literal") + ", so nothing is resolved");
      return;
    }
    int hosts = ((UpstreamTarget.Static) upstream.target()).hosts().size();
    if (dns.resolution().orElse(null) == UpstreamOptions.DnsResolution.LOGICAL && hosts != 1) {
      sink.error("spec.dns.resolution", Reasons.INVALID_DNS, "LOGICAL resolution takes exactly one host, got "
          + hosts + " (Envoy and gRPC clients refuse more); use STRICT to resolve several names");
    }
    dns.refreshRate().filter(rate -> rate.compareTo(DNS_REFRESH_FLOOR) <= 0).ifPresent(rate ->
        sink.error("spec.dns.refreshRate", Reasons.INVALID_DURATION, "refreshRate must be greater than 1ms"));
  }

  private static void checkCircuitBreakers(UpstreamOptions.CircuitBreakers breakers, Ledger.Sink sink) {
    atLeast(breakers.maxConnections(), 1, "spec.circuitBreakers.maxConnections", Reasons.INVALID_CIRCUIT_BREAKERS,
        "; 0 would refuse every connection", sink);
    atLeast(breakers.maxPendingRequests(), 1, "spec.circuitBreakers.maxPendingRequests",
        Reasons.INVALID_CIRCUIT_BREAKERS, "; 0 would refuse every request that has to wait", sink);
    atLeast(breakers.maxRequests(), 1, "spec.circuitBreakers.maxRequests", Reasons.INVALID_CIRCUIT_BREAKERS,
        "; 0 would refuse every request", sink);
    atLeast(breakers.maxRetries(), 0, "spec.circuitBreakers.maxRetries", Reasons.INVALID_CIRCUIT_BREAKERS, "", sink);
  }

  private static void checkOutlierDetection(UpstreamOptions.OutlierDetection od, Ledger.Sink sink) {
    String at = "spec.outlierDetection";
    if (od.consecutive5xx().isEmpty() && od.consecutiveGatewayErrors().isEmpty() && od.successRate().isEmpty()
        && od.failurePercentage().isEmpty()) {
      sink.error(at, Reasons.INVALID_OUTLIER_DETECTION, "no detector is set, so nothing would ever be ejected;"
          + " give at least one of consecutive5xx, consecutiveGatewayErrors, successRate, failurePercentage");
    }
    atLeast(od.consecutive5xx(), 1, at + ".consecutive5xx", Reasons.INVALID_OUTLIER_DETECTION, "", sink);
    atLeast(od.consecutiveGatewayErrors(), 1, at + ".consecutiveGatewayErrors", Reasons.INVALID_OUTLIER_DETECTION,
        "", sink);
    percent(od.maxEjectionPercent(), at + ".maxEjectionPercent", sink);
    positive(od.interval(), at + ".interval", sink);
    positive(od.baseEjectionTime(), at + ".baseEjectionTime", sink);
    od.successRate().ifPresent(sr -> {
      atLeast(sr.minimumHosts(), 1, at + ".successRate.minimumHosts", Reasons.INVALID_OUTLIER_DETECTION, "", sink);
      atLeast(sr.requestVolume(), 1, at + ".successRate.requestVolume", Reasons.INVALID_OUTLIER_DETECTION, "",
          sink);
      sr.stdevFactor().filter(f -> !(f >= 0.001 && f <= MAX_STDEV_FACTOR)).ifPresent(f ->
          sink.error(at + ".successRate.stdevFactor", Reasons.INVALID_OUTLIER_DETECTION,
              "stdevFactor " + f + " is out of range 0.001-" + (long) MAX_STDEV_FACTOR));
    });
    od.failurePercentage().ifPresent(fp -> {
      percent(fp.threshold(), at + ".failurePercentage.threshold", sink);
      atLeast(fp.minimumHosts(), 1, at + ".failurePercentage.minimumHosts", Reasons.INVALID_OUTLIER_DETECTION, "",
          sink);
      atLeast(fp.requestVolume(), 1, at + ".failurePercentage.requestVolume", Reasons.INVALID_OUTLIER_DETECTION,
          "", sink);
    });
  }

  private static void checkHealthCheck(UpstreamOptions.HealthCheck hc, boolean http2, String at, Ledger.Sink sink) {
    positive(Optional.of(hc.timeout()), at + ".timeout", sink);
    positive(Optional.of(hc.interval()), at + ".interval", sink);
    atLeast(hc.healthyThreshold(), 1, at + ".healthyThreshold", Reasons.INVALID_HEALTH_CHECK, "", sink);
    atLeast(hc.unhealthyThreshold(), 1, at + ".unhealthyThreshold", Reasons.INVALID_HEALTH_CHECK, "", sink);
    if (hc.probe() instanceof UpstreamOptions.Probe.Http http) {
      if (!http.path().startsWith("/") || http.path().chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
        sink.error(at + ".http.path", Reasons.INVALID_PATH,
            "\"" + http.path() + "\" must start with / and contain no spaces or control characters");
      }
      http.host().filter(host -> host.contains("*") || Syntax.domainError(host) != null).ifPresent(host ->
          sink.error(at + ".http.host", Reasons.INVALID_HEALTH_CHECK, "\"" + host + "\" is not a host name"));
      List<UpstreamOptions.StatusRange> ranges = http.expectedStatuses();
      for (int j = 0; j < ranges.size(); j++) {
        UpstreamOptions.StatusRange range = ranges.get(j);
        if (range.start() < 100 || range.end() > 600 || range.start() >= range.end()) {
          sink.error(at + ".http.expectedStatuses[" + j + "]", Reasons.INVALID_STATUS, "range " + range.start()
              + "-" + range.end() + " must lie within 100-600 with start below end (end is exclusive)");
        }
      }
    } else if (hc.probe() instanceof UpstreamOptions.Probe.Grpc && !http2) {
      sink.error(at + ".grpc", Reasons.INVALID_HEALTH_CHECK,
          "a gRPC health check needs HTTP/2 to the backends; set spec.http2: true");
    }
  }

  private static void atLeast(Optional<Integer> value, int min, String field, String reason, String why,
      Ledger.Sink sink) {
    value.filter(v -> v < min).ifPresent(v ->
        sink.error(field, reason, field.substring(field.lastIndexOf('.') + 1) + " must be at least " + min
            + ", got " + v + why));
  }

  private static void percent(Optional<Integer> value, String field, Ledger.Sink sink) {
    value.filter(v -> v < 0 || v > 100).ifPresent(v ->
        sink.error(field, Reasons.INVALID_OUTLIER_DETECTION, "percentage " + v + " is out of range 0-100"));
  }

  private static void positive(Optional<Duration> value, String field, Ledger.Sink sink) {
    value.filter(d -> d.isZero() || d.isNegative()).ifPresent(d ->
        sink.error(field, Reasons.INVALID_DURATION,
            field.substring(field.lastIndexOf('.') + 1) + " must be greater than 0"));
  }
}
