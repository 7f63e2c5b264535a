package io.holdfast.frontend.gloo;

import io.holdfast.api.ApiObject;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A Gloo Gateway's listener options as Holdfast's Gateway {@code options} ({@link TrafficOptions.Listener}):
 * {@code useProxyProto}, the Gateway's {@code options} (Gloo's ListenerOptions: {@code accessLoggingService},
 * {@code proxyProtocol}, {@code perConnectionBufferLimitBytes}) and {@code httpGateway.options} (Gloo's
 * HttpListenerOptions: {@code httpConnectionManagerSettings}, {@code healthCheck}), with the meaning Gloo gives them
 * (its als, proxy_protocol, hcm, tracing ({@link GlooTracing}) and healthcheck plugins). A field or value without a Holdfast equivalent rejects
 * the Gateway naming it. Where Gloo's defaults differ from Envoy's ({@link #GLOO_NORMALIZE_PATH},
 * {@link #GLOO_WEB_SOCKETS}, and gRPC-Web, whose default the Settings decide: {@link GlooSettings#GLOO_GRPC_WEB}),
 * the unset field is written out with Gloo's value, so a Gloo Gateway without options behaves as it did under Gloo.
 */
final class GlooListenerOptions {

  private static final Set<String> LISTENER = Set.of("accessLoggingService", "perConnectionBufferLimitBytes",
      "proxyProtocol");
  private static final Set<String> PROXY_PROTOCOL = Set.of("rules", "allowRequestsWithoutProxyProtocol");
  private static final Set<String> HTTP = Set.of("httpConnectionManagerSettings", "healthCheck",
      "dynamicForwardProxy", "grpcWeb");
  private static final Set<String> GRPC_WEB = Set.of("disable");
  private static final Set<String> HCM = Set.of("xffNumTrustedHops", "useRemoteAddress", "idleTimeout",
      "requestHeadersTimeout", "maxRequestHeadersKb", "serverName", "serverHeaderTransformation",
      "http2ProtocolOptions", "tracing", "normalizePath", "upgrades");
  private static final Set<String> UPGRADE = Set.of("websocket", "connect", "connectTerminate");
  private static final Set<String> WEBSOCKET = Set.of("enabled");
  private static final Set<String> HTTP2 = Set.of("maxConcurrentStreams", "initialStreamWindowSize",
      "initialConnectionWindowSize");
  private static final Set<String> HEALTH_CHECK = Set.of("path");

  private GlooListenerOptions() {
  }

  /**
   * The listener options of an HTTP Gateway.
   *
   * @param spec        the Gateway's {@code spec} ({@code useProxyProto}, {@code options})
   * @param httpOptions {@code httpGateway.options}, missing when not given
   * @param collectors  where the Upstreams of OpenTelemetry collectors are made
   */
  static TrafficOptions.Listener http(Node spec, Node httpOptions, OtelCollectors collectors) {
    Node options = spec.child("options").only("Gateway's options", LISTENER);
    // Gloo's proxy_protocol plugin: useProxyProto or options.proxyProtocol adds Envoy's PROXY protocol filter.
    boolean proxyProtocol = spec.bool("useProxyProto").orElse(false) | proxyProtocol(options);
    Optional<Long> buffer = options.integer("perConnectionBufferLimitBytes").map(Integer::longValue);
    List<TrafficOptions.AccessLog> logs = options.has("accessLoggingService")
        ? GlooAccessLogs.read(options.child("accessLoggingService"), collectors) : List.of();

    httpOptions.only("httpGateway's options", HTTP);
    if (httpOptions.has("dynamicForwardProxy")) {
      GlooForwardProxy.listener(httpOptions.child("dynamicForwardProxy"));
    }
    Node hcm = httpOptions.child("httpConnectionManagerSettings").only("httpConnectionManagerSettings", HCM);
    if (hcm.bool("useRemoteAddress").orElse(false)) {
      hcm.error(hcm.at("useRemoteAddress"), GlooFeatures.UNSUPPORTED, "useRemoteAddress: true (the client address"
          + " is the connection's peer, not taken from X-Forwarded-For) is not supported by Holdfast, whose"
          + " listeners keep Envoy's default (false; xffNumTrustedHops says which X-Forwarded-For entry is the"
          + " client); the Gateway is rejected rather than served with another client address");
    }
    Optional<Long> hops = hcm.integer("xffNumTrustedHops").map(Integer::longValue);
    Optional<Duration> idle = hcm.duration("idleTimeout");
    Optional<Duration> headersTimeout = hcm.duration("requestHeadersTimeout");
    Optional<Long> headersKb = hcm.integer("maxRequestHeadersKb").map(Integer::longValue);
    Optional<TrafficOptions.Http2> http2 = Optional.empty();
    if (hcm.has("http2ProtocolOptions")) {
      Node h2 = hcm.child("http2ProtocolOptions").only("http2ProtocolOptions", HTTP2);
      http2 = Optional.of(new TrafficOptions.Http2(h2.integer("maxConcurrentStreams").map(Integer::longValue),
          h2.integer("initialStreamWindowSize").map(Integer::longValue),
          h2.integer("initialConnectionWindowSize").map(Integer::longValue)));
    }
    Optional<TrafficOptions.ServerHeader> server = serverHeader(hcm);
    Optional<TrafficOptions.HealthCheck> healthCheck = Optional.empty();
    if (httpOptions.has("healthCheck")) {
      Node check = httpOptions.child("healthCheck").only("healthCheck", HEALTH_CHECK);
      String path = check.string("path").orElse("");
      if (path.isEmpty()) {
        check.error(check.at("path"), Reasons.MISSING_FIELD, "a health check needs a path (Gloo refuses \"\" too)");
      } else {
        healthCheck = Optional.of(new TrafficOptions.HealthCheck(path));
      }
    }
    return new TrafficOptions.Listener(proxyProtocol, buffer, hops, idle, headersTimeout, headersKb, http2, server,
        logs, Optional.empty(), healthCheck).withTracing(GlooTracing.read(hcm))
        .withNormalizePath(Optional.of(hcm.bool("normalizePath").orElse(GLOO_NORMALIZE_PATH)))
        .withWebSockets(Optional.of(webSockets(hcm))).withGrpcWeb(grpcWeb(httpOptions));
  }

  /**
   * Gloo's {@code grpcWeb}: given, its {@code disable} decides for this Gateway whatever the Settings say (Gloo's
   * grpcweb plugin); not given, empty, and the Settings' default is applied later
   * ({@link EdgeObjects#withGrpcWeb}).
   */
  private static Optional<Boolean> grpcWeb(Node httpOptions) {
    if (!httpOptions.has("grpcWeb")) {
      return Optional.empty();
    }
    return Optional.of(!httpOptions.child("grpcWeb").only("grpcWeb", GRPC_WEB).bool("disable").orElse(false));
  }

  /**
   * Gloo's {@code upgrades}: its hcm plugin appends a WebSocket upgrade to every connection manager whose
   * {@code upgrades} name none ("enable websockets by default"), so WebSockets are proxied unless an entry
   * {@code websocket: {enabled: false}} says otherwise. CONNECT has no Holdfast equivalent and rejects the Gateway;
   * Gloo itself refuses {@code connectTerminate} here and a second entry of one type.
   */
  private static boolean webSockets(Node hcm) {
    Optional<Boolean> webSockets = Optional.empty();
    // Bounded by Node.list's MAX_LIST.
    for (Node upgrade : hcm.list("upgrades")) {
      upgrade.only("upgrade", UPGRADE);
      if (upgrade.has("connect") || upgrade.has("connectTerminate")) {
        String field = upgrade.has("connect") ? "connect" : "connectTerminate";
        upgrade.error(upgrade.at(field), GlooFeatures.UNSUPPORTED, field + " upgrades (HTTP CONNECT) are not"
            + " supported by Holdfast; the Gateway is rejected rather than served refusing CONNECT");
      }
      if (!upgrade.has("websocket")) {
        continue;
      }
      if (webSockets.isPresent()) {
        upgrade.error(upgrade.at("websocket"), Reasons.CONFLICTING_FIELDS, "a second websocket upgrade (Gloo refuses"
            + " the Gateway too)");
      }
      webSockets = Optional.of(upgrade.child("websocket").only("websocket upgrade", WEBSOCKET).bool("enabled")
          .orElse(true));
    }
    return webSockets.orElse(GLOO_WEB_SOCKETS);
  }

  /** Gloo proxies WebSocket upgrades unless told not to, where Envoy refuses them (403) unless told to. */
  static final boolean GLOO_WEB_SOCKETS = true;

  /**
   * Gloo's hcm plugin sets {@code normalize_path: true} on every connection manager whose
   * {@code httpConnectionManagerSettings.normalizePath} is unset ("default to true as per RFC 3986"), where Envoy's
   * default is false: so a Gloo Gateway's routes and per-route policies see {@code /public/../admin} as
   * {@code /admin}, and Holdfast spells the default out rather than serving the path as written.
   */
  static final boolean GLOO_NORMALIZE_PATH = true;

  /**
   * Gloo's {@code options.proxyProtocol}: Envoy's PROXY protocol filter, as {@code useProxyProto}; its TLV
   * {@code rules} (metadata from TLVs) and {@code allowRequestsWithoutProxyProtocol} (Gloo Enterprise only) have no
   * Holdfast equivalent.
   */
  private static boolean proxyProtocol(Node options) {
    if (!options.has("proxyProtocol")) {
      return false;
    }
    Node proxyProtocol = options.child("proxyProtocol").only("proxyProtocol", PROXY_PROTOCOL);
    if (!proxyProtocol.list("rules").isEmpty()) {
      proxyProtocol.error(proxyProtocol.at("rules"), GlooFeatures.UNSUPPORTED, "PROXY protocol TLV rules are not"
          + " supported by Holdfast; the Gateway is rejected rather than served without the metadata they set");
    }
    if (proxyProtocol.bool("allowRequestsWithoutProxyProtocol").orElse(false)) {
      proxyProtocol.error(proxyProtocol.at("allowRequestsWithoutProxyProtocol"), GlooFeatures.UNSUPPORTED,
          "allowRequestsWithoutProxyProtocol (Gloo Enterprise only) is not supported by Holdfast");
    }
    return true;
  }

  /**
   * A TCP Gateway: Holdfast's TcpGateway has no options, so any of Gloo's (access logs on the TCP proxy, the PROXY
   * protocol, buffer limits) rejects it rather than being dropped.
   */
  static void tcp(Node spec) {
    if (spec.bool("useProxyProto").orElse(false)) {
      spec.error(spec.at("useProxyProto"), GlooFeatures.UNSUPPORTED, "the PROXY protocol on a tcpGateway is not"
          + " supported by Holdfast (its TCP gateways take no options); the Gateway is rejected rather than served"
          + " without it");
    }
    Node options = spec.child("options");
    if (options.json.isObject()) {
      for (String field : options.json.propertyNames()) {
        options.error(options.at(field), GlooFeatures.UNSUPPORTED, field + " on a tcpGateway is not supported by"
            + " Holdfast (its TCP gateways take no options; Gloo applies it to the TCP proxy); the Gateway is"
            + " rejected rather than served without it");
      }
    }
  }

  /**
   * Gloo's {@code serverName} (Envoy's {@code server_name}: overwrite) and {@code serverHeaderTransformation}
   * ({@code OVERWRITE}, Envoy's default; {@code PASS_THROUGH}); {@code APPEND_IF_ABSENT} has no Holdfast equivalent.
   */
  private static Optional<TrafficOptions.ServerHeader> serverHeader(Node hcm) {
    Optional<String> name = hcm.string("serverName");
    String transformation = hcm.string("serverHeaderTransformation").orElse("OVERWRITE");
    switch (transformation) {
      case "OVERWRITE" -> {
        return name.map(n -> new TrafficOptions.ServerHeader(Optional.empty(), Optional.of(n)));
      }
      case "PASS_THROUGH" -> {
        return Optional.of(new TrafficOptions.ServerHeader(
            Optional.of(TrafficOptions.ServerHeader.PASS_THROUGH), name));
      }
      default -> {
        hcm.error(hcm.at("serverHeaderTransformation"), GlooFeatures.UNSUPPORTED, "serverHeaderTransformation "
            + transformation + " is not supported by Holdfast (OVERWRITE, PASS_THROUGH)");
        return Optional.empty();
      }
    }
  }

  /** A Gloo Upstream's Envoy cluster name, {@code <name>_<namespace>}, as the Upstream it names; else empty. */
  static Optional<ObjectRef> upstreamOfCluster(String cluster) {
    int underscore = cluster.indexOf('_');
    // Kubernetes names and namespaces have no underscore, so a Gloo Upstream's cluster name splits exactly once.
    if (underscore <= 0 || underscore == cluster.length() - 1 || cluster.indexOf('_', underscore + 1) >= 0) {
      return Optional.empty();
    }
    return Optional.of(ObjectRef.of(cluster.substring(underscore + 1), cluster.substring(0, underscore)));
  }

  /** Gloo's listener option kinds: policies for Gateway API Gateways, not attachable to Gloo Edge's Gateways. */
  static final Set<String> OPTION_KINDS = Set.of("ListenerOption", "HttpListenerOption");

  static boolean isOptionKind(ResourceKey key) {
    return key.group().equals(GlooKinds.GATEWAY_GROUP) && OPTION_KINDS.contains(key.kind());
  }

  /** Why a ListenerOption or HttpListenerOption is rejected, at the field that says it. */
  record OptionKindRejection(String field, String message) {
  }

  /**
   * Gloo attaches a ListenerOption or HttpListenerOption only with {@code targetRefs} to a Gateway API Gateway
   * (Gloo 1.17's changelog: "can not currently be used as a standalone resource (i.e. delegated option) for the
   * Gloo Edge API"); a Gloo Edge Gateway has no field naming one. So one with {@code targetRefs} is rejected as
   * every Gateway API attachment is, and one without attaches to nothing in Gloo either.
   */
  static OptionKindRejection rejectOptionKind(ApiObject object) {
    String kind = object.key().kind();
    if (object.at("/spec/targetRefs").isArray() || object.at("/spec/targetRefs").isObject()) {
      return new OptionKindRejection("spec.targetRefs", GlooFeatures.why(kind, "targetRefs"));
    }
    return new OptionKindRejection("kind", "Gloo's " + kind + " attaches only to Kubernetes Gateway API Gateways"
        + " (with targetRefs); a Gloo Edge Gateway cannot reference one, so it configures nothing in Gloo Edge"
        + " either: write its options in the Gloo Gateway's " + (kind.equals("ListenerOption") ? "options"
        : "httpGateway.options") + ", or attach Holdfast's ClientTrafficPolicy to a Gateway API Gateway");
  }

  private static final String HCM_PATH = "spec.httpGateway.options.httpConnectionManagerSettings.";
  private static final java.util.regex.Pattern ACCESS_LOG = java.util.regex.Pattern.compile(
      "spec\\.options\\.accessLogs(\\[\\d+])(.*)");

  /**
   * A Holdfast Gateway option's field path ({@code spec.options.idleTimeout}) as the Gloo field it was read from
   * ({@code spec.httpGateway.options.httpConnectionManagerSettings.idleTimeout}), so Holdfast's findings name the
   * Gloo object's field. (Under a {@code hybridGateway} the HTTP options' path names {@code spec.httpGateway}.)
   */
  static String glooPath(String field) {
    String option = field.substring("spec.options.".length());
    String head = option.split("[.\\[]", 2)[0];
    String rest = option.substring(head.length());
    java.util.regex.Matcher log = ACCESS_LOG.matcher(field);
    if (log.matches()) {
      String within = log.group(2)
          .replaceFirst("^\\.file\\.", ".fileSink.")
          .replaceFirst("^\\.format\\.text", ".fileSink.stringFormat")
          .replaceFirst("^\\.format\\.json", ".fileSink.jsonFormat")
          .replaceFirst("^\\.grpc\\.upstream", ".grpcService.staticClusterName")
          .replaceFirst("^\\.grpc\\.", ".grpcService.")
          .replaceFirst("^\\.openTelemetry\\.upstream", ".openTelemetryService.collector.endpoint")
          .replaceFirst("^\\.openTelemetry\\.authority", ".openTelemetryService.collector.authority")
          .replaceFirst("^\\.openTelemetry\\.", ".openTelemetryService.");
      return "spec.options.accessLoggingService.accessLog" + log.group(1) + within;
    }
    return switch (head) {
      case "proxyProtocol" -> "spec.useProxyProto";
      case "xffNumTrustedHops", "idleTimeout", "requestHeadersTimeout", "maxRequestHeadersKb", "normalizePath" ->
          HCM_PATH + option;
      case "webSockets" -> HCM_PATH + "upgrades";
      case "grpcWeb" -> "spec.httpGateway.options.grpcWeb";
      case "http2" -> HCM_PATH + "http2ProtocolOptions" + rest;
      case "serverHeader" -> HCM_PATH + "serverName";
      case "healthCheck" -> "spec.httpGateway.options.healthCheck" + rest;
      case "tracing" -> HCM_PATH + "tracing" + rest
          .replaceFirst("^\\.openTelemetry\\.upstream", ".openTelemetryConfig.collectorUpstreamRef")
          .replaceFirst("^\\.openTelemetry\\.authority", ".openTelemetryConfig.grpcService.authority")
          .replaceFirst("^\\.openTelemetry\\.", ".openTelemetryConfig.")
          .replaceFirst("^\\.sampling\\.(client|random|overall)", ".tracePercentages.$1SamplePercentage")
          .replaceFirst("^\\.requestHeaderTags", ".requestHeadersForTags");
      default -> field; // perConnectionBufferLimitBytes is where Holdfast has it
    };
  }
}
