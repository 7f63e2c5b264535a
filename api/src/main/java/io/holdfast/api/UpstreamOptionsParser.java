package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The option blocks of an Upstream's {@code spec}: {@code dns}, {@code circuitBreakers}, {@code outlierDetection},
 * {@code healthChecks}, {@code tls}. Shapes only; value ranges are validation's.
 */
final class UpstreamOptionsParser {

  static final Set<String> FIELDS = Set.of("dns", "circuitBreakers", "outlierDetection", "healthChecks", "tls",
      "ringHash", "connection");

  private static final Set<String> DNS = Set.of("resolution", "lookupFamily", "refreshRate", "respectTtl");
  private static final Set<String> CIRCUIT_BREAKERS =
      Set.of("maxConnections", "maxPendingRequests", "maxRequests", "maxRetries");
  private static final Set<String> OUTLIER_DETECTION = Set.of("consecutive5xx", "consecutiveGatewayErrors",
      "successRate", "failurePercentage", "interval", "baseEjectionTime", "maxEjectionPercent");
  private static final Set<String> SUCCESS_RATE = Set.of("minimumHosts", "requestVolume", "stdevFactor");
  private static final Set<String> FAILURE_PERCENTAGE = Set.of("threshold", "minimumHosts", "requestVolume");
  private static final Set<String> HEALTH_CHECK =
      Set.of("timeout", "interval", "healthyThreshold", "unhealthyThreshold", "http", "tcp", "grpc");
  private static final List<String> PROBES = List.of("http", "tcp", "grpc");
  private static final Set<String> HTTP = Set.of("path", "host", "expectedStatuses");
  private static final Set<String> GRPC = Set.of("serviceName");
  private static final Set<String> STATUS_RANGE = Set.of("start", "end");
  private static final Set<String> TLS = Set.of("sni", "verify", "trustedCa", "clientCertificate",
      "subjectAltNames", "alpnProtocols", "sds");
  private static final Set<String> SDS = Set.of("address", "certificateSecretName", "validationContextName");
  private static final Set<String> RING_HASH = Set.of("minimumRingSize", "maximumRingSize");
  private static final Set<String> CONNECTION =
      Set.of("maxRequestsPerConnection", "perConnectionBufferLimitBytes", "tcpKeepalive", "idleTimeout",
          "maxHeadersCount", "maxStreamDuration", "http1", "http2");
  private static final Set<String> HTTP1 =
      Set.of("enableTrailers", "headerKeyFormat", "streamErrorOnInvalidHttpMessage");
  private static final Set<String> HTTP2 = Set.of("maxConcurrentStreams", "initialStreamWindowSize",
      "initialConnectionWindowSize", "streamErrorOnInvalidHttpMessage");
  private static final Set<String> TCP_KEEPALIVE = Set.of("probes", "time", "interval");

  private UpstreamOptionsParser() {
  }

  /** The options in {@code spec}, or empty if any of them is malformed (each problem recorded). */
  static Optional<UpstreamOptions> parse(Fields spec) {
    int before = spec.problems().size();
    UpstreamOptions options = UpstreamOptions.NONE;
    Optional<UpstreamOptions.Dns> dns = spec.object("dns", DNS).map(UpstreamOptionsParser::dns);
    if (dns.isPresent()) {
      options = options.withDns(dns.get());
    }
    Optional<UpstreamOptions.CircuitBreakers> breakers =
        spec.object("circuitBreakers", CIRCUIT_BREAKERS).map(UpstreamOptionsParser::circuitBreakers);
    if (breakers.isPresent()) {
      options = options.withCircuitBreakers(breakers.get());
    }
    Optional<UpstreamOptions.OutlierDetection> outliers =
        spec.object("outlierDetection", OUTLIER_DETECTION).map(UpstreamOptionsParser::outlierDetection);
    if (outliers.isPresent()) {
      options = options.withOutlierDetection(outliers.get());
    }
    List<UpstreamOptions.HealthCheck> checks = new ArrayList<>();
    spec.list("healthChecks", false).ifPresent(elements -> elements.forEach(element ->
        Fields.of(element.node(), element.path(), spec.problems(), HEALTH_CHECK)
            .flatMap(UpstreamOptionsParser::healthCheck).ifPresent(checks::add)));
    options = options.withHealthChecks(checks);
    Optional<UpstreamOptions.Tls> tls = spec.object("tls", TLS).map(t -> new UpstreamOptions.Tls(t.string("sni"),
        t.string("verify").flatMap(text -> enumValue(t, "verify", text, UpstreamOptions.TlsVerify.class)),
        t.object("trustedCa", SslConfigParser.CLIENT_CA).flatMap(SslConfigParser::clientCa),
        t.object("clientCertificate", SslConfigParser.CERTIFICATE).flatMap(SslConfigParser::certificate),
        t.has("subjectAltNames") ? t.stringList("subjectAltNames", false).orElse(List.of()) : List.of(),
        t.has("alpnProtocols") ? t.stringList("alpnProtocols", false).orElse(List.of()) : List.of())
        .withSds(t.object("sds", SDS).flatMap(UpstreamOptionsParser::sds)));
    if (tls.isPresent()) {
      options = options.withTls(tls.get());
    }
    Optional<UpstreamOptions.RingHash> ring = spec.object("ringHash", RING_HASH).map(r ->
        new UpstreamOptions.RingHash(r.longInteger("minimumRingSize"), r.longInteger("maximumRingSize")));
    if (ring.isPresent()) {
      options = options.withRingHash(ring.get());
    }
    Optional<UpstreamOptions.Connection> connection = spec.object("connection", CONNECTION).map(c ->
        new UpstreamOptions.Connection(c.integer("maxRequestsPerConnection"),
            c.longInteger("perConnectionBufferLimitBytes"), c.object("tcpKeepalive", TCP_KEEPALIVE).map(k ->
                new UpstreamOptions.TcpKeepalive(k.integer("probes"), k.integer("time"), k.integer("interval"))),
            c.duration("idleTimeout")).withMaxHeadersCount(c.integer("maxHeadersCount"))
            .withMaxStreamDuration(c.duration("maxStreamDuration"))
            .withHttp1(c.object("http1", HTTP1).map(h -> new UpstreamOptions.Http1(
                h.bool("enableTrailers").orElse(false),
                h.string("headerKeyFormat").flatMap(text -> enumValue(h, "headerKeyFormat", text,
                    UpstreamOptions.HeaderKeyFormat.class)),
                h.bool("streamErrorOnInvalidHttpMessage"))))
            .withHttp2(c.object("http2", HTTP2).map(h -> new UpstreamOptions.Http2(
                h.longInteger("maxConcurrentStreams"), h.longInteger("initialStreamWindowSize"),
                h.longInteger("initialConnectionWindowSize"), h.bool("streamErrorOnInvalidHttpMessage")))));
    if (connection.isPresent()) {
      options = options.withConnection(connection.get());
    }
    return spec.problems().size() == before ? Optional.of(options) : Optional.empty();
  }

  private static Optional<UpstreamOptions.Sds> sds(Fields sds) {
    return sds.requiredString("address").map(address -> new UpstreamOptions.Sds(address,
        sds.string("certificateSecretName"), sds.string("validationContextName")));
  }

  private static UpstreamOptions.Dns dns(Fields dns) {
    return new UpstreamOptions.Dns(
        dns.string("resolution").flatMap(text -> enumValue(dns, "resolution", text,
            UpstreamOptions.DnsResolution.class)),
        dns.string("lookupFamily").flatMap(text -> enumValue(dns, "lookupFamily", text,
            UpstreamOptions.DnsLookupFamily.class)),
        dns.duration("refreshRate"),
        dns.bool("respectTtl"));
  }

  private static UpstreamOptions.CircuitBreakers circuitBreakers(Fields breakers) {
    return new UpstreamOptions.CircuitBreakers(breakers.integer("maxConnections"),
        breakers.integer("maxPendingRequests"), breakers.integer("maxRequests"), breakers.integer("maxRetries"));
  }

  private static UpstreamOptions.OutlierDetection outlierDetection(Fields od) {
    Optional<UpstreamOptions.SuccessRate> successRate = od.object("successRate", SUCCESS_RATE)
        .map(sr -> new UpstreamOptions.SuccessRate(sr.integer("minimumHosts"), sr.integer("requestVolume"),
            sr.number("stdevFactor")));
    Optional<UpstreamOptions.FailurePercentage> failurePercentage = od.object("failurePercentage",
            FAILURE_PERCENTAGE)
        .map(fp -> new UpstreamOptions.FailurePercentage(fp.integer("threshold"), fp.integer("minimumHosts"),
            fp.integer("requestVolume")));
    return new UpstreamOptions.OutlierDetection(od.integer("consecutive5xx"), od.integer("consecutiveGatewayErrors"),
        successRate, failurePercentage, od.duration("interval"), od.duration("baseEjectionTime"),
        od.integer("maxEjectionPercent"));
  }

  private static Optional<UpstreamOptions.HealthCheck> healthCheck(Fields hc) {
    Optional<Duration> timeout = requiredDuration(hc, "timeout");
    Optional<Duration> interval = requiredDuration(hc, "interval");
    Optional<Integer> healthy = hc.integer("healthyThreshold");
    Optional<Integer> unhealthy = hc.integer("unhealthyThreshold");
    Optional<UpstreamOptions.Probe> probe = probe(hc);
    if (timeout.isEmpty() || interval.isEmpty() || probe.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new UpstreamOptions.HealthCheck(timeout.get(), interval.get(), healthy, unhealthy,
        probe.get()));
  }

  private static Optional<UpstreamOptions.Probe> probe(Fields hc) {
    List<String> given = PROBES.stream().filter(hc::has).toList();
    if (given.isEmpty()) {
      hc.problem(hc.path(), Reasons.MISSING_FIELD, "one of http, tcp or grpc is required");
      return Optional.empty();
    }
    if (given.size() > 1) {
      hc.problem(hc.path(), Reasons.CONFLICTING_FIELDS, "give one of http, tcp or grpc, not " + given);
      return Optional.empty();
    }
    return switch (given.get(0)) {
      case "http" -> hc.object("http", HTTP).flatMap(UpstreamOptionsParser::http);
      case "tcp" -> hc.object("tcp", Set.of()).map(tcp -> new UpstreamOptions.Probe.Tcp());
      default -> hc.object("grpc", GRPC).map(grpc -> new UpstreamOptions.Probe.Grpc(grpc.string("serviceName")));
    };
  }

  private static Optional<UpstreamOptions.Probe> http(Fields http) {
    Optional<String> path = http.requiredString("path");
    Optional<String> host = http.string("host");
    List<UpstreamOptions.StatusRange> ranges = new ArrayList<>();
    boolean ok = true;
    for (Fields.Element element : http.list("expectedStatuses", false).orElse(List.of())) {
      Optional<UpstreamOptions.StatusRange> range =
          Fields.of(element.node(), element.path(), http.problems(), STATUS_RANGE).flatMap(r -> {
            Optional<Integer> start = r.requiredInteger("start");
            Optional<Integer> end = r.requiredInteger("end");
            return start.flatMap(s -> end.map(e -> new UpstreamOptions.StatusRange(s, e)));
          });
      range.ifPresent(ranges::add);
      ok &= range.isPresent();
    }
    return ok ? path.map(p -> new UpstreamOptions.Probe.Http(p, host, ranges)) : Optional.empty();
  }

  private static Optional<Duration> requiredDuration(Fields fields, String field) {
    if (!fields.has(field)) {
      fields.problem(fields.path(field), Reasons.MISSING_FIELD, "required field is missing");
      return Optional.empty();
    }
    return fields.duration(field);
  }

  static <E extends Enum<E>> Optional<E> enumValue(Fields fields, String field, String text, Class<E> type) {
    try {
      return Optional.of(Enum.valueOf(type, text));
    } catch (IllegalArgumentException e) {
      fields.problem(fields.path(field), Reasons.INVALID_VALUE, "unknown value \"" + text + "\" (expected one of "
          + Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.joining(", ")) + ")");
      return Optional.empty();
    }
  }
}
