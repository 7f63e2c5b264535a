package io.holdfast.frontend.gloo;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.LoadBalancing;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.SslConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.UpstreamTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A Gloo {@code Upstream} ({@code gloo.solo.io/v1}) as a Holdfast {@link Upstream}, with Gloo's TLS semantics: a
 * static Upstream without {@code useTls} speaks TLS when a host's port is 443; the backends' certificates are
 * checked only when a root CA is given ({@code ca.crt} of the {@code sslConfig} Secret, or {@code sslFiles.rootCa});
 * the Secret's {@code tls.crt} and {@code tls.key} are the client certificate.
 */
final class UpstreamReader {

  private static final Set<String> SPEC = Set.of("kube", "static", "sslConfig", "useHttp2", "circuitBreakers",
      "healthChecks", "outlierDetection", "loadBalancerConfig", "connectionConfig", "discoveryMetadata",
      "disableIstioAutoMtls", "maxConcurrentStreams", "initialStreamWindowSize", "initialConnectionWindowSize",
      "overrideStreamErrorOnInvalidHttpMessage", "protocolSelection");
  /** The Upstream's HTTP/2 settings, which Gloo's protocol_options plugin reads only with useHttp2. */
  private static final List<String> HTTP2 = List.of("maxConcurrentStreams", "initialStreamWindowSize",
      "initialConnectionWindowSize", "overrideStreamErrorOnInvalidHttpMessage");
  private static final String USE_CONFIGURED_PROTOCOL = "USE_CONFIGURED_PROTOCOL";
  private static final Set<String> KUBE = Set.of("serviceName", "serviceNamespace", "servicePort", "selector");
  private static final Set<String> STATIC = Set.of("hosts", "useTls", "autoSniRewrite");
  private static final Set<String> HOST = Set.of("addr", "port", "sniAddr");
  private static final Set<String> SSL = Set.of("secretRef", "sslFiles", "sni", "oneWayTls",
      "verifySubjectAltName", "alpnProtocols", "sds");
  /** Gloo's SDSConfig; clusterName names a cluster of Gloo's bootstrap, replaced by one to targetUri. */
  private static final Set<String> SDS = Set.of("targetUri", "clusterName", "certificatesSecretName",
      "validationContextName");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> FILES = Set.of("tlsCert", "tlsKey", "rootCa");
  private static final Set<String> BREAKERS = Set.of("maxConnections", "maxPendingRequests", "maxRequests",
      "maxRetries");
  private static final Set<String> HEALTH = Set.of("timeout", "interval", "healthyThreshold", "unhealthyThreshold",
      "httpHealthCheck", "tcpHealthCheck", "grpcHealthCheck");
  private static final Set<String> HTTP_HEALTH = Set.of("path", "host");
  private static final Set<String> GRPC_HEALTH = Set.of("serviceName");
  private static final Set<String> OUTLIER = Set.of("consecutive5xx", "consecutiveGatewayFailure", "interval",
      "baseEjectionTime", "maxEjectionPercent");
  private static final Set<String> LB = Set.of("roundRobin", "leastRequest", "random", "ringHash");
  private static final Set<String> RING_HASH = Set.of("ringHashConfig");
  private static final Set<String> RING_HASH_CONFIG = Set.of("minimumRingSize", "maximumRingSize");
  private static final Set<String> CONNECTION = Set.of("connectTimeout", "maxRequestsPerConnection", "tcpKeepalive",
      "perConnectionBufferLimitBytes", "commonHttpProtocolOptions", "http1ProtocolOptions");
  private static final Set<String> HTTP1 = Set.of("enableTrailers", "properCaseHeaderKeyFormat",
      "preserveCaseHeaderKeyFormat", "overrideStreamErrorOnInvalidHttpMessage");
  /** Gloo's HeadersWithUnderscoresAction values; ALLOW is its default (proto3's zero). */
  private static final Set<String> UNDERSCORE_ACTIONS = Set.of("ALLOW", "REJECT_REQUEST", "DROP_HEADER");
  /** A field Gloo passes to Envoy where Envoy gives it no effect: read, warned about, not served. */
  static final String NO_EFFECT_ON_UPSTREAM = "NoEffectOnUpstream";
  private static final Set<String> TCP_KEEPALIVE = Set.of("keepaliveProbes", "keepaliveTime", "keepaliveInterval");
  private static final Set<String> COMMON_HTTP = Set.of("idleTimeout", "maxHeadersCount", "maxStreamDuration",
      "headersWithUnderscoresAction");
  private static final Set<String> EMPTY = Set.of();

  private UpstreamReader() {
  }

  static Upstream read(Metadata metadata, Node spec, GatewayConfig config) {
    spec.only("Upstream", SPEC);
    // disableIstioAutoMtls is read and has no effect: without Gloo's Istio integration there is no auto-mTLS to
    // disable, as in Gloo without it.
    spec.bool("disableIstioAutoMtls");
    UpstreamTarget target = target(metadata, spec);
    LoadBalancing lb = loadBalancing(spec);
    Duration connectTimeout = Upstream.DEFAULT_CONNECT_TIMEOUT;
    if (spec.has("connectionConfig")) {
      Node connection = spec.child("connectionConfig").only("connectionConfig", CONNECTION);
      connectTimeout = connection.duration("connectTimeout").orElse(connectTimeout);
    }
    UpstreamOptions options = UpstreamOptions.NONE;
    Optional<UpstreamOptions.Connection> connection = withHttp2(connection(spec), spec);
    if (connection.isPresent()) {
      options = options.withConnection(connection.get());
    }
    if (spec.has("circuitBreakers")) {
      Node breakers = spec.child("circuitBreakers").only("circuitBreakers", BREAKERS);
      options = options.withCircuitBreakers(new UpstreamOptions.CircuitBreakers(breakers.integer("maxConnections"),
          breakers.integer("maxPendingRequests"), breakers.integer("maxRequests"), breakers.integer("maxRetries")));
    }
    if (spec.has("outlierDetection")) {
      Node outlier = spec.child("outlierDetection").only("outlierDetection", OUTLIER);
      options = options.withOutlierDetection(new UpstreamOptions.OutlierDetection(outlier.integer("consecutive5xx"),
          outlier.integer("consecutiveGatewayFailure"), Optional.empty(), Optional.empty(),
          outlier.duration("interval"), outlier.duration("baseEjectionTime"), outlier.integer("maxEjectionPercent")));
    }
    List<UpstreamOptions.HealthCheck> checks = new ArrayList<>();
    for (Node check : spec.list("healthChecks")) {
      healthCheck(check).ifPresent(checks::add);
    }
    if (!checks.isEmpty()) {
      options = options.withHealthChecks(checks);
    }
    Optional<UpstreamOptions.Tls> tls = tls(metadata, spec, target, config);
    if (tls.isPresent()) {
      options = options.withTls(tls.get());
    }
    Optional<UpstreamOptions.RingHash> ring = ringHash(spec);
    if (ring.isPresent()) {
      options = options.withRingHash(ring.get());
    }
    return new Upstream(metadata, target, lb, connectTimeout, spec.bool("useHttp2").orElse(false), options);
  }

  /**
   * The rest of {@code connectionConfig}, as Gloo passes it to Envoy's Cluster: zero (proto3's unset) is absent for
   * maxRequestsPerConnection and the keep-alive settings; the keep-alive durations are rounded up to whole seconds,
   * as in Gloo. Of {@code commonHttpProtocolOptions}, idleTimeout, maxHeadersCount (0 unset) and maxStreamDuration
   * are mapped; headersWithUnderscoresAction is read and, other than ALLOW, warned about
   * ({@value #NO_EFFECT_ON_UPSTREAM}): Envoy applies it to client requests only and gives it no effect on a cluster,
   * where Gloo puts it, so leaving it out changes nothing. {@code http1ProtocolOptions} is {@link #http1}. Ranges
   * are Holdfast's validation ({@code InvalidUpstreamConnection}).
   */
  private static Optional<UpstreamOptions.Connection> connection(Node spec) {
    if (!spec.has("connectionConfig")) {
      return Optional.empty();
    }
    Node config = spec.child("connectionConfig");
    Optional<Integer> maxRequests = config.integer("maxRequestsPerConnection").filter(n -> n != 0);
    Optional<Long> bufferLimit = config.integer("perConnectionBufferLimitBytes").map(Integer::longValue);
    Optional<UpstreamOptions.TcpKeepalive> keepalive = Optional.empty();
    if (config.has("tcpKeepalive")) {
      Node tcp = config.child("tcpKeepalive").only("tcpKeepalive", TCP_KEEPALIVE);
      keepalive = Optional.of(new UpstreamOptions.TcpKeepalive(tcp.integer("keepaliveProbes").filter(n -> n != 0),
          tcp.duration("keepaliveTime").flatMap(UpstreamReader::wholeSeconds),
          tcp.duration("keepaliveInterval").flatMap(UpstreamReader::wholeSeconds)));
    }
    Optional<Duration> idleTimeout = Optional.empty();
    Optional<Integer> maxHeaders = Optional.empty();
    Optional<Duration> maxStreamDuration = Optional.empty();
    if (config.has("commonHttpProtocolOptions")) {
      Node http = config.child("commonHttpProtocolOptions").only("commonHttpProtocolOptions", COMMON_HTTP);
      idleTimeout = http.duration("idleTimeout");
      maxHeaders = http.integer("maxHeadersCount").filter(n -> n != 0);
      maxStreamDuration = http.duration("maxStreamDuration");
      underscores(http);
    }
    Optional<UpstreamOptions.Http1> http1 = config.has("http1ProtocolOptions")
        ? Optional.of(http1(spec, config.child("http1ProtocolOptions"))) : Optional.empty();
    if (maxRequests.isEmpty() && bufferLimit.isEmpty() && keepalive.isEmpty() && idleTimeout.isEmpty()
        && maxHeaders.isEmpty() && maxStreamDuration.isEmpty() && http1.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new UpstreamOptions.Connection(maxRequests, bufferLimit, keepalive, idleTimeout, maxHeaders,
        maxStreamDuration).withHttp1(http1));
  }

  /**
   * The Upstream's HTTP/2 settings as {@code connection.http2}, as Gloo's protocol_options plugin passes them on:
   * only with {@code useHttp2: true}; without it Gloo ignores them, and so does this, with a
   * {@value #NO_EFFECT_ON_UPSTREAM} warning on each. Envoy's ranges are Holdfast's validation
   * ({@code InvalidUpstreamConnection}, as Gloo's own checks refuse them). {@code protocolSelection}
   * USE_DOWNSTREAM_PROTOCOL (HTTP/1.1 or HTTP/2 as the client spoke) is not supported: Holdfast speaks one
   * protocol to an Upstream.
   */
  private static Optional<UpstreamOptions.Connection> withHttp2(Optional<UpstreamOptions.Connection> connection,
      Node spec) {
    boolean http2 = spec.bool("useHttp2").orElse(false);
    spec.string("protocolSelection").filter(selection -> !selection.equals(USE_CONFIGURED_PROTOCOL))
        .ifPresent(selection -> {
          if (!selection.equals("USE_DOWNSTREAM_PROTOCOL")) {
            spec.error(spec.at("protocolSelection"), Reasons.INVALID_VALUE, "unknown value \"" + selection
                + "\" (expected USE_CONFIGURED_PROTOCOL or USE_DOWNSTREAM_PROTOCOL)");
          } else if (http2) {
            spec.error(spec.at("protocolSelection"), GlooFeatures.UNSUPPORTED, "USE_DOWNSTREAM_PROTOCOL is not"
                + " supported by Holdfast, which speaks one protocol to an Upstream (useHttp2 chooses it)");
          } else {
            spec.warn(spec.at("protocolSelection"), NO_EFFECT_ON_UPSTREAM, "protocolSelection has no effect"
                + " without useHttp2: true, in Gloo as in Holdfast");
          }
        });
    List<String> given = HTTP2.stream().filter(spec::has).toList();
    if (given.isEmpty()) {
      return connection;
    }
    if (!http2) {
      given.forEach(field -> spec.warn(spec.at(field), NO_EFFECT_ON_UPSTREAM, field + " has no effect without"
          + " useHttp2: true, in Gloo as in Holdfast"));
      return connection;
    }
    UpstreamOptions.Http2 options = new UpstreamOptions.Http2(
        spec.integer("maxConcurrentStreams").map(Integer::longValue),
        spec.integer("initialStreamWindowSize").map(Integer::longValue),
        spec.integer("initialConnectionWindowSize").map(Integer::longValue),
        spec.bool("overrideStreamErrorOnInvalidHttpMessage"));
    UpstreamOptions.Connection base = connection.orElseGet(() -> new UpstreamOptions.Connection(Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty()));
    return Optional.of(base.withHttp2(Optional.of(options)));
  }

  /** The Gloo path of a Holdfast finding about the Upstream's {@code spec.connection} ({@link GlooPaths}). */
  static String glooPath(String field) {
    for (String moved : List.of("maxConcurrentStreams", "initialStreamWindowSize", "initialConnectionWindowSize")) {
      if (field.equals("spec.connection.http2." + moved)) {
        return "spec." + moved;
      }
    }
    String common = "spec.connectionConfig.commonHttpProtocolOptions.";
    return switch (field) {
      case "spec.connection.http2" -> "spec.useHttp2";
      case "spec.connection.http1" -> "spec.connectionConfig.http1ProtocolOptions";
      case "spec.connection.idleTimeout" -> common + "idleTimeout";
      case "spec.connection.maxHeadersCount" -> common + "maxHeadersCount";
      case "spec.connection.maxStreamDuration" -> common + "maxStreamDuration";
      case "spec.connection.tcpKeepalive.probes" -> "spec.connectionConfig.tcpKeepalive.keepaliveProbes";
      case "spec.connection.tcpKeepalive.time" -> "spec.connectionConfig.tcpKeepalive.keepaliveTime";
      case "spec.connection.tcpKeepalive.interval" -> "spec.connectionConfig.tcpKeepalive.keepaliveInterval";
      default -> field.startsWith("spec.connection.") ? "spec.connectionConfig." + field.substring(
          "spec.connection.".length()) : field;
    };
  }

  private static void underscores(Node http) {
    Optional<String> action = http.string("headersWithUnderscoresAction");
    if (action.isEmpty() || action.get().equals("ALLOW")) {
      return;
    }
    String field = http.at("headersWithUnderscoresAction");
    if (!UNDERSCORE_ACTIONS.contains(action.get())) {
      http.error(field, Reasons.INVALID_VALUE, "unknown value \"" + action.get() + "\" (expected one of"
          + " ALLOW, REJECT_REQUEST, DROP_HEADER)");
      return;
    }
    http.warn(field, NO_EFFECT_ON_UPSTREAM, action.get() + " has no effect here, in Gloo as in Holdfast: Envoy"
        + " applies headersWithUnderscoresAction to client requests only, never on an Upstream's cluster (set it on"
        + " the listener's connection manager instead)");
  }

  /**
   * {@code connectionConfig.http1ProtocolOptions}, as Gloo's helper converts it: enableTrailers, one header key
   * format (properCase, or preserveCase through Envoy's preserve_case formatter; both is proto's oneof conflict),
   * and overrideStreamErrorOnInvalidHttpMessage kept unset, true or false. Gloo refuses these options on a
   * {@code useHttp2} Upstream (without USE_DOWNSTREAM_PROTOCOL, which Holdfast does not read), and so does this.
   */
  private static UpstreamOptions.Http1 http1(Node spec, Node http1) {
    http1.only("http1ProtocolOptions", HTTP1);
    if (spec.bool("useHttp2").orElse(false)) {
      http1.error(http1.path, Reasons.CONFLICTING_FIELDS, "http1ProtocolOptions with useHttp2: Gloo allows both only"
          + " with protocolSelection USE_DOWNSTREAM_PROTOCOL");
    }
    boolean properCase = http1.bool("properCaseHeaderKeyFormat").orElse(false);
    boolean preserveCase = http1.bool("preserveCaseHeaderKeyFormat").orElse(false);
    if (properCase && preserveCase) {
      http1.error(http1.at("preserveCaseHeaderKeyFormat"), Reasons.CONFLICTING_FIELDS, "one header key format at"
          + " most: properCaseHeaderKeyFormat or preserveCaseHeaderKeyFormat");
    }
    Optional<UpstreamOptions.HeaderKeyFormat> format = properCase
        ? Optional.of(UpstreamOptions.HeaderKeyFormat.PROPER_CASE)
        : preserveCase ? Optional.of(UpstreamOptions.HeaderKeyFormat.PRESERVE_CASE) : Optional.empty();
    return new UpstreamOptions.Http1(http1.bool("enableTrailers").orElse(false), format,
        http1.bool("overrideStreamErrorOnInvalidHttpMessage"));
  }

  /** A duration rounded up to whole seconds (Gloo's rounding of the keep-alive times); zero is absent. */
  private static Optional<Integer> wholeSeconds(Duration duration) {
    long seconds = duration.getSeconds() + (duration.getNano() > 0 ? 1 : 0);
    return seconds == 0 ? Optional.empty() : Optional.of((int) Math.min(seconds, Integer.MAX_VALUE));
  }

  /** {@code loadBalancerConfig.ringHash.ringHashConfig}: Envoy's ring size bounds, as Gloo passes them on. */
  private static Optional<UpstreamOptions.RingHash> ringHash(Node spec) {
    if (!spec.has("loadBalancerConfig") || !spec.child("loadBalancerConfig").has("ringHash")
        || !spec.child("loadBalancerConfig").child("ringHash").has("ringHashConfig")) {
      return Optional.empty();
    }
    Node config = spec.child("loadBalancerConfig").child("ringHash").child("ringHashConfig")
        .only("ringHashConfig", RING_HASH_CONFIG);
    return Optional.of(new UpstreamOptions.RingHash(config.integer("minimumRingSize").map(Integer::longValue),
        config.integer("maximumRingSize").map(Integer::longValue)));
  }

  private static UpstreamTarget target(Metadata metadata, Node spec) {
    if (spec.has("kube") == spec.has("static")) {
      spec.error(spec.path, spec.has("kube") ? Reasons.CONFLICTING_FIELDS : GlooFeatures.UNSUPPORTED,
          spec.has("kube") ? "give either kube or static, not both"
              : "an Upstream without kube or static (Gloo's other upstream types) is not supported by Holdfast");
      return new UpstreamTarget.Static(List.of());
    }
    if (spec.has("kube")) {
      Node kube = spec.child("kube");
      kube.only("Upstream kube", union(KUBE, Set.of("subsetSpec")));
      subsetSelectors(kube);
      // Gloo narrows the Service's endpoints to those whose Pod carries every selector label (an empty selector
      // narrows nothing): Holdfast's kube target reads pod labels the same way, so it maps one to one.
      java.util.TreeMap<String, String> selector = new java.util.TreeMap<>(kube.stringMap("selector"));
      String name = kube.requiredString("serviceName").orElse("");
      String namespace = kube.string("serviceNamespace").orElse(metadata.namespace());
      int port = kube.integer("servicePort").orElseGet(() -> {
        kube.error(kube.at("servicePort"), Reasons.MISSING_FIELD, "servicePort is required");
        return 0;
      });
      return new UpstreamTarget.Kube(Optional.of(namespace), name, port, selector);
    }
    Node fixed = spec.child("static").only("Upstream static", STATIC);
    List<UpstreamTarget.Host> hosts = new ArrayList<>();
    for (Node host : fixed.list("hosts")) {
      host.only("static host", HOST);
      hosts.add(new UpstreamTarget.Host(host.requiredString("addr").orElse(""), host.integer("port").orElse(80), 1));
    }
    return new UpstreamTarget.Static(hosts);
  }

  private static final Set<String> SUBSET_SPEC = Set.of("selectors", "fallbackPolicy", "defaultSubset");
  private static final Set<String> SUBSET_SELECTOR = Set.of("keys", "singleHostPerSubset");
  /** Gloo's default fallback (and the one its translator wrote before the field existed). */
  static final String ANY_ENDPOINT = "ANY_ENDPOINT";

  /**
   * The label key sets of a kube Upstream's {@code subsetSpec.selectors}: the subsets a route may choose with
   * {@code subset.values} ({@link Destinations#subset}). Only Gloo's default fallback, {@code ANY_ENDPOINT}, is
   * read: with it a route that chooses no subset reaches every endpoint, exactly as without a subsetSpec, so the
   * Upstream itself maps unchanged. {@code NO_FALLBACK} and {@code DEFAULT_SUBSET} change what such routes reach (no
   * endpoint, or the default subset), and {@code singleHostPerSubset} changes the balancing; they are rejected
   * rather than served wider. {@code defaultSubset} only matters under {@code DEFAULT_SUBSET} and is otherwise
   * ignored, as by Envoy. Selectors are at most {@link Node#MAX_LIST}, each of at most
   * {@link UpstreamTarget.Kube#MAX_SELECTOR_LABELS} keys (a route's subset joins the Upstream's selector).
   */
  static List<java.util.SortedSet<String>> subsetSelectors(Node kube) {
    if (!kube.has("subsetSpec")) {
      return List.of();
    }
    Node spec = kube.child("subsetSpec").only("subsetSpec", SUBSET_SPEC);
    spec.string("fallbackPolicy").filter(policy -> !ANY_ENDPOINT.equals(policy)).ifPresent(policy ->
        spec.error(spec.at("fallbackPolicy"), GlooFeatures.UNSUPPORTED, "fallbackPolicy " + policy + " is not"
            + " supported by Holdfast (only ANY_ENDPOINT, the default): it changes what routes choosing no subset"
            + " reach"));
    List<java.util.SortedSet<String>> selectors = new ArrayList<>();
    for (Node selector : spec.list("selectors")) {
      selector.only("subset selector", SUBSET_SELECTOR);
      if (selector.bool("singleHostPerSubset").orElse(false)) {
        selector.error(selector.at("singleHostPerSubset"), GlooFeatures.UNSUPPORTED, "singleHostPerSubset is not"
            + " supported by Holdfast");
      }
      java.util.SortedSet<String> keys = new java.util.TreeSet<>(selector.strings("keys"));
      if (keys.isEmpty() || keys.size() > UpstreamTarget.Kube.MAX_SELECTOR_LABELS) {
        selector.error(selector.at("keys"), Reasons.INVALID_VALUE, "a subset selector names 1 to "
            + UpstreamTarget.Kube.MAX_SELECTOR_LABELS + " label keys");
        continue;
      }
      selectors.add(keys);
    }
    return selectors;
  }

  private static LoadBalancing loadBalancing(Node spec) {
    if (!spec.has("loadBalancerConfig")) {
      return LoadBalancing.ROUND_ROBIN;
    }
    Node lb = spec.child("loadBalancerConfig").only("loadBalancerConfig", LB);
    List<String> given = LB.stream().filter(lb::has).sorted().toList();
    if (given.size() > 1) {
      lb.error(lb.path, Reasons.CONFLICTING_FIELDS, "one load balancer at most, got " + given);
    }
    if (given.isEmpty()) {
      return LoadBalancing.ROUND_ROBIN;
    }
    lb.child(given.get(0)).only(given.get(0), given.get(0).equals("ringHash") ? RING_HASH : EMPTY);
    return switch (given.get(0)) {
      case "leastRequest" -> LoadBalancing.LEAST_REQUEST;
      case "random" -> LoadBalancing.RANDOM;
      case "ringHash" -> LoadBalancing.RING_HASH;
      default -> LoadBalancing.ROUND_ROBIN;
    };
  }

  private static Optional<UpstreamOptions.HealthCheck> healthCheck(Node check) {
    check.only("health check", HEALTH);
    Optional<Duration> timeout = check.duration("timeout");
    Optional<Duration> interval = check.duration("interval");
    if (timeout.isEmpty() || interval.isEmpty()) {
      check.error(check.path, Reasons.MISSING_FIELD, "a health check needs timeout and interval");
      return Optional.empty();
    }
    UpstreamOptions.Probe probe;
    if (check.has("httpHealthCheck")) {
      Node http = check.child("httpHealthCheck").only("httpHealthCheck", HTTP_HEALTH);
      probe = new UpstreamOptions.Probe.Http(http.requiredString("path").orElse("/"), http.string("host"), List.of());
    } else if (check.has("grpcHealthCheck")) {
      Node grpc = check.child("grpcHealthCheck").only("grpcHealthCheck", GRPC_HEALTH);
      probe = new UpstreamOptions.Probe.Grpc(grpc.string("serviceName"));
    } else if (check.has("tcpHealthCheck")) {
      check.child("tcpHealthCheck").only("tcpHealthCheck", EMPTY);
      probe = new UpstreamOptions.Probe.Tcp();
    } else {
      check.error(check.path, Reasons.MISSING_FIELD, "one of httpHealthCheck, tcpHealthCheck, grpcHealthCheck");
      return Optional.empty();
    }
    return Optional.of(new UpstreamOptions.HealthCheck(timeout.get(), interval.get(),
        check.integer("healthyThreshold"), check.integer("unhealthyThreshold"), probe));
  }

  /**
   * Gloo's upstream TLS. On when {@code sslConfig} is given, or for a static Upstream when {@code useTls} says so
   * or, unset, when a host's port is 443. The certificate is verified only against a root CA; without one Gloo
   * does not verify, and neither does this (verify NONE).
   */
  private static Optional<UpstreamOptions.Tls> tls(Metadata metadata, Node spec, UpstreamTarget target,
      GatewayConfig config) {
    Optional<String> sni = Optional.empty();
    boolean on = spec.has("sslConfig");
    if (target instanceof UpstreamTarget.Static fixed && spec.has("static")) {
      Node node = spec.child("static");
      boolean port443 = fixed.hosts().stream().anyMatch(h -> h.port() == 443);
      on |= node.bool("useTls").orElse(port443);
      List<Node> hosts = node.list("hosts");
      sni = hosts.stream().map(h -> h.string("sniAddr")).flatMap(Optional::stream).findFirst();
      boolean autoSni = node.bool("autoSniRewrite").orElse(true);
      long names = fixed.hosts().stream().map(UpstreamTarget.Host::address).distinct().count();
      if (on && autoSni && names > 1 && sni.isEmpty()) {
        node.error(node.at("autoSniRewrite"), GlooFeatures.UNSUPPORTED, "per-host SNI (autoSniRewrite with hosts of"
            + " different addresses) is not supported by Holdfast, which sends one SNI per Upstream; set"
            + " sslConfig.sni, or autoSniRewrite: false");
      }
      if (on && autoSni && sni.isEmpty() && names == 1 && !fixed.hosts().isEmpty()) {
        sni = Optional.of(fixed.hosts().get(0).address());
      }
    }
    if (!on) {
      return Optional.empty();
    }
    Optional<SslConfig.CaSource> rootCa = Optional.empty();
    Optional<SslConfig.CertificateSource> clientCertificate = Optional.empty();
    List<String> subjectAltNames = List.of();
    boolean secretMissing = false; // reported by Holdfast's validation (SecretNotFound)
    Optional<UpstreamOptions.Sds> sds = Optional.empty();
    if (spec.has("sslConfig")) {
      Node ssl = spec.child("sslConfig").only("Upstream sslConfig", SSL);
      Optional<String> explicit = ssl.string("sni");
      if (explicit.isPresent()) {
        sni = explicit;
      }
      boolean oneWay = ssl.bool("oneWayTls").orElse(false);
      if (ssl.has("secretRef")) {
        Node ref = ssl.child("secretRef").only("secretRef", REF);
        ObjectRef secret = new ObjectRef(ref.requiredString("name").orElse(""), ref.string("namespace"));
        Optional<TlsSecretData> data = config.secretOf(TlsSecretData.secretKey(secret, metadata.namespace()));
        boolean hasCa = data.map(d -> d.entries().containsKey(TlsSecretData.CA_CRT)).orElse(false);
        secretMissing = data.isEmpty();
        boolean hasCert = data.map(d -> d.entries().containsKey(TlsSecretData.TLS_CRT)).orElse(true);
        if (hasCa) {
          rootCa = Optional.of(new SslConfig.CaSource.SecretRef(secret));
        }
        if (hasCert && !oneWay) {
          clientCertificate = Optional.of(new SslConfig.CertificateSource.SecretRef(secret));
        }
      } else if (ssl.has("sds")) {
        sds = sds(ssl.child("sds").only("sslConfig.sds", SDS), oneWay);
      } else if (ssl.has("sslFiles")) {
        Node files = ssl.child("sslFiles").only("sslFiles", FILES);
        rootCa = files.string("rootCa").map(SslConfig.CaSource.File::new);
        Optional<String> cert = files.string("tlsCert");
        Optional<String> key = files.string("tlsKey");
        if (cert.isPresent() && key.isPresent() && !oneWay) {
          clientCertificate = Optional.of(new SslConfig.CertificateSource.Files(cert.get(), key.get()));
        }
      }
    }
    boolean sdsCa = sds.flatMap(UpstreamOptions.Sds::validationContextName).isPresent();
    if (spec.has("sslConfig")) {
      subjectAltNames = subjectAltNames(spec.child("sslConfig"), rootCa.isPresent() || secretMissing || sdsCa);
    }
    UpstreamOptions.TlsVerify verify = rootCa.isPresent() || sdsCa ? UpstreamOptions.TlsVerify.CA
        : UpstreamOptions.TlsVerify.NONE;
    List<String> alpn = spec.has("sslConfig") ? spec.child("sslConfig").strings("alpnProtocols") : List.of();
    return Optional.of(new UpstreamOptions.Tls(sni, Optional.of(verify), rootCa, clientCertificate,
        subjectAltNames, alpn, sds));
  }

  /**
   * Gloo's {@code sslConfig.sds}: the certificate and validation context from the SDS server at {@code targetUri}
   * (Istio's agent in the proxy pod). Gloo reaches it through {@code clusterName}, a cluster of its proxy's
   * bootstrap; Holdfast synthesizes a cluster to {@code targetUri} instead, so clusterName is not needed. Holdfast's
   * validation accepts only a loopback IP address ({@code InvalidUpstreamSds}). {@code oneWayTls} drops the
   * certificate, as with a secretRef.
   */
  private static Optional<UpstreamOptions.Sds> sds(Node sds, boolean oneWay) {
    Optional<String> target = sds.requiredString("targetUri");
    Optional<String> certificate = oneWay ? Optional.empty() : sds.string("certificatesSecretName");
    return target.map(uri -> new UpstreamOptions.Sds(uri, certificate, sds.string("validationContextName")));
  }

  /**
   * {@code verifySubjectAltName}: the certificate must carry one of the names (of any type), checked beside the
   * root CA; Gloo refuses the list without a root CA, and so does this.
   */
  private static List<String> subjectAltNames(Node ssl, boolean rootCa) {
    List<String> names = ssl.strings("verifySubjectAltName");
    if (!names.isEmpty() && !rootCa) {
      ssl.error(ssl.at("verifySubjectAltName"), Reasons.MISSING_FIELD, "verifySubjectAltName needs a root CA"
          + " (ca.crt in the secretRef's Secret, or sslFiles.rootCa), as in Gloo");
    }
    return names;
  }

  static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return all;
  }
}
