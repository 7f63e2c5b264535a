package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficChecks;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.TrafficOptionsParser;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Outcome;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Policy;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Target;
import io.holdfast.frontend.gatewayapi.RouteAttachment.OwnGateway;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteTraffic;
import io.holdfast.ir.SocketOptions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Holdfast's traffic policies on the Gateway API ({@link PolicyKinds}): a {@code ClientTrafficPolicy} (listener and
 * connection settings, access logs) targets a Gateway or one of its listeners ({@code sectionName}); a
 * {@code TrafficPolicy} (rate limits, compression, CSRF, body limit) a Gateway, a listener or an HTTPRoute. The
 * spec holds the fields of a Holdfast Gateway's {@code spec.options} or of a route's traffic options beside
 * {@code targetRefs}, checked by the same rules ({@link TrafficChecks}). Targets resolve through
 * {@link PolicyTargets}: the most specific target with a policy wins (HTTPRoute, then listener, then Gateway),
 * the whole policy (no field merging). A policy with any problem is {@code Invalid} on every target and applies
 * nowhere.
 *
 * <p>Not here yet: access logs and rate-limit services through Upstreams (the Gateway API front end lowers Services,
 * not Holdfast Upstreams), hence no global rate-limit descriptors either; such fields make the policy Invalid with
 * a message saying so. A listener-targeted ClientTrafficPolicy on a port other listeners share is
 * {@code Conflicted}: one socket and connection manager serve the whole port.
 */
final class TrafficPolicies {

  static final String GATEWAY = GatewayApiKinds.GROUP + "/" + GatewayApiKinds.GATEWAY.kind();
  static final String HTTP_ROUTE = GatewayApiKinds.GROUP + "/" + GatewayApiKinds.HTTP_ROUTE.kind();
  /** A policy that applies nowhere. */
  static final TrafficPolicies NONE = new TrafficPolicies(new PolicyTargets.Resolution(Map.of(), Map.of()),
      new PolicyTargets.Resolution(Map.of(), Map.of()), Map.of(), Map.of());

  private final PolicyTargets.Resolution client;
  private final PolicyTargets.Resolution traffic;
  private final Map<ResourceKey, TrafficOptions.Listener> clientOptions;
  private final Map<ResourceKey, RouteTraffic> routeTraffic;

  private TrafficPolicies(PolicyTargets.Resolution client, PolicyTargets.Resolution traffic,
      Map<ResourceKey, TrafficOptions.Listener> clientOptions, Map<ResourceKey, RouteTraffic> routeTraffic) {
    this.client = client;
    this.traffic = traffic;
    this.clientOptions = clientOptions;
    this.routeTraffic = routeTraffic;
  }

  /**
   * Reads, checks and resolves every traffic policy among {@code objects}, and gives each its status.
   *
   * @param routes the HTTPRoutes that exist (a TrafficPolicy may target them)
   */
  static TrafficPolicies of(List<ApiObject> objects, Map<ResourceKey, OwnGateway> gateways, Set<ResourceKey> routes,
      IrBuilder builder) {
    List<ApiObject> clientObjects = ofKind(objects, PolicyKinds.CLIENT_TRAFFIC_POLICY);
    List<ApiObject> trafficObjects = ofKind(objects, PolicyKinds.TRAFFIC_POLICY);
    if (clientObjects.isEmpty() && trafficObjects.isEmpty()) {
      return NONE;
    }
    Map<ResourceKey, TrafficOptions.Listener> clientOptions = new HashMap<>();
    Map<ResourceKey, String> invalid = new HashMap<>();
    List<Policy> clientPolicies = new ArrayList<>();
    for (ApiObject object : clientObjects) {
      Policy policy = PolicyTargets.read(object, Set.of(GATEWAY));
      clientPolicies.add(policy);
      List<Problem> problems = new ArrayList<>();
      Set<String> allowed = with(TrafficOptionsParser.listenerFields(), "targetRefs");
      Optional<TrafficOptions.Listener> options = TrafficOptionsParser.listener(object.at("/spec"), "spec", problems,
          allowed);
      options.ifPresent(o -> problems.addAll(errors(TrafficChecks.listener(o, "spec"))));
      options.ifPresent(o -> problems.addAll(upstreamFields(o)));
      options.filter(o -> problems.isEmpty()).ifPresent(o -> clientOptions.put(object.key(), o));
      describe(problems).ifPresent(message -> invalid.put(object.key(), message));
    }
    Map<ResourceKey, RouteTraffic> routeTraffic = new HashMap<>();
    List<Policy> trafficPolicies = new ArrayList<>();
    for (ApiObject object : trafficObjects) {
      Policy policy = PolicyTargets.read(object, Set.of(GATEWAY, HTTP_ROUTE));
      trafficPolicies.add(policy);
      List<Problem> problems = new ArrayList<>();
      Optional<TrafficOptions.Route> options = TrafficOptionsParser.route(object.at("/spec"), "spec", problems,
          with(TrafficOptionsParser.routeFields(), "targetRefs"));
      options.ifPresent(o -> problems.addAll(errors(TrafficChecks.route(o, "spec"))));
      options.filter(o -> o.rateLimits().isPresent()).ifPresent(o -> problems.add(new Problem(
          "spec.rateLimit.descriptors", Reasons.INVALID_VALUE, "global rate limits need a rate-limit service, which"
          + " Gateway API policies cannot name yet; use rateLimit.local")));
      options.filter(o -> problems.isEmpty()).ifPresent(o -> routeTraffic.put(object.key(), lower(o)));
      describe(problems).ifPresent(message -> invalid.put(object.key(), message));
    }
    // Invalid policies win nothing: resolve only the valid ones, then give every policy its status.
    PolicyTargets.Resolution clientResolution = PolicyTargets.resolve(
        clientPolicies.stream().filter(p -> !invalid.containsKey(p.object().key())).toList(),
        target -> exists(target, gateways, routes), target -> sharedPort(target, gateways));
    PolicyTargets.Resolution trafficResolution = PolicyTargets.resolve(
        trafficPolicies.stream().filter(p -> !invalid.containsKey(p.object().key())).toList(),
        target -> exists(target, gateways, routes), TrafficPolicies::routeSection);
    for (Policy policy : clientPolicies) {
      builder.status(clientResolution.status(policy, Optional.ofNullable(invalid.get(policy.object().key()))),
          policy.created());
    }
    for (Policy policy : trafficPolicies) {
      builder.status(trafficResolution.status(policy, Optional.ofNullable(invalid.get(policy.object().key()))),
          policy.created());
    }
    return new TrafficPolicies(clientResolution, trafficResolution, clientOptions, routeTraffic);
  }

  /** The connection-manager options of a chain serving {@code listeners} (all on one port) of {@code gateway}. */
  HttpListenerOptions chain(ResourceKey gateway, List<ListenerState> listeners) {
    return clientPolicy(gateway, listeners).map(o -> http(o)).orElse(HttpListenerOptions.NONE);
  }

  /** The socket options of the port {@code listeners} share. */
  SocketOptions socket(ResourceKey gateway, List<ListenerState> listeners) {
    return clientPolicy(gateway, listeners).map(o -> new SocketOptions(o.proxyProtocol(),
        o.perConnectionBufferLimitBytes().map(Long::intValue))).orElse(SocketOptions.NONE);
  }

  /** {@code route} (of an HTTPRoute or GRPCRoute) with the traffic policy that applies to it on {@code listener}. */
  Route route(Route route, ResourceKey gateway, ListenerState listener) {
    if (routeTraffic.isEmpty()) {
      return route;
    }
    Optional<Policy> policy = traffic.effective(List.of(new Target(route.origin().object(), Optional.empty()),
        new Target(gateway, Optional.of(listener.name)), new Target(gateway, Optional.empty())));
    return policy.map(p -> route.withTraffic(routeTraffic.get(p.object().key()))).orElse(route);
  }

  /** A listener-targeted policy only where the port has that one listener (else {@link #sharedPort} refused it). */
  private Optional<TrafficOptions.Listener> clientPolicy(ResourceKey gateway, List<ListenerState> listeners) {
    List<Target> targets = new ArrayList<>();
    if (listeners.size() == 1) {
      targets.add(new Target(gateway, Optional.of(listeners.get(0).name)));
    }
    targets.add(new Target(gateway, Optional.empty()));
    return client.effective(targets).map(p -> clientOptions.get(p.object().key()));
  }

  private static boolean exists(Target target, Map<ResourceKey, OwnGateway> gateways, Set<ResourceKey> routes) {
    if (target.object().kind().equals(GatewayApiKinds.HTTP_ROUTE.kind())) {
      return routes.contains(target.object());
    }
    OwnGateway gateway = gateways.get(target.object());
    return gateway != null && target.section().map(s -> gateway.listeners().stream().anyMatch(l -> l.name.equals(s)))
        .orElse(true);
  }

  private static Optional<Outcome> sharedPort(Target target, Map<ResourceKey, OwnGateway> gateways) {
    if (target.section().isEmpty()) {
      return Optional.empty();
    }
    OwnGateway gateway = gateways.get(target.object());
    int port = gateway.listeners().stream().filter(l -> l.name.equals(target.section().get())).findFirst()
        .map(l -> l.port).orElse(-1);
    List<String> sharing = gateway.listeners().stream().filter(l -> l.port == port).map(l -> l.name).toList();
    return sharing.size() > 1 ? Optional.of(new Outcome(PolicyTargets.CONFLICTED, "listeners "
        + String.join(", ", sharing) + " share port " + port + ", which one socket serves; target the Gateway"))
        : Optional.empty();
  }

  private static Optional<Outcome> routeSection(Target target) {
    return target.object().kind().equals(GatewayApiKinds.HTTP_ROUTE.kind()) && target.section().isPresent()
        ? Optional.of(new Outcome(PolicyTargets.INVALID, "sectionName on an HTTPRoute target is not supported;"
            + " target the whole HTTPRoute"))
        : Optional.empty();
  }

  /** Access logs and rate-limit services through Upstreams are for Holdfast Gateways only, for now. */
  private static List<Problem> upstreamFields(TrafficOptions.Listener options) {
    List<Problem> out = new ArrayList<>();
    for (TrafficChecks.UpstreamUse use : TrafficChecks.upstreams(options, "spec")) {
      out.add(new Problem(use.field(), Reasons.INVALID_VALUE, "Gateway API policies cannot name Upstreams yet;"
          + " use stdout, stderr or file access logs, or a Holdfast Gateway"));
    }
    return out;
  }

  private static HttpListenerOptions http(TrafficOptions.Listener options) {
    List<HttpListenerOptions.AccessLog> logs = new ArrayList<>();
    for (TrafficOptions.AccessLog log : options.accessLogs()) {
      HttpListenerOptions.Sink sink = log.sink() instanceof TrafficOptions.Sink.File file
          ? new HttpListenerOptions.Sink.File(file.path())
          : log.sink() instanceof TrafficOptions.Sink.Stderr ? new HttpListenerOptions.Sink.Stderr()
          : new HttpListenerOptions.Sink.Stdout();
      HttpListenerOptions.Format format = log.text().<HttpListenerOptions.Format>map(HttpListenerOptions.Format.Text::new)
          .orElse(log.json().isEmpty() ? new HttpListenerOptions.Format.Default()
              : new HttpListenerOptions.Format.Json(log.json()));
      logs.add(new HttpListenerOptions.AccessLog(sink, format, new HttpListenerOptions.LogFilter(
          log.filter().minStatus().map(Long::intValue), log.filter().maxStatus().map(Long::intValue),
          log.filter().minDuration())));
    }
    return new HttpListenerOptions(options.xffNumTrustedHops().map(Long::intValue), options.idleTimeout(),
        options.requestHeadersTimeout(), options.maxRequestHeadersKb().map(Long::intValue),
        options.http2().map(h -> new HttpListenerOptions.Http2(h.maxConcurrentStreams().map(Long::intValue),
            h.initialStreamWindowSize().map(Long::intValue), h.initialConnectionWindowSize().map(Long::intValue))),
        options.serverHeader().map(TrafficPolicies::serverHeader), logs, Optional.empty(),
        options.healthCheck().map(TrafficOptions.HealthCheck::path));
  }

  private static HttpListenerOptions.ServerHeader serverHeader(TrafficOptions.ServerHeader server) {
    return switch (server.mode().orElse(TrafficOptions.ServerHeader.OVERWRITE)) {
      case TrafficOptions.ServerHeader.PASS_THROUGH -> new HttpListenerOptions.ServerHeader.PassThrough();
      case TrafficOptions.ServerHeader.STRIP -> new HttpListenerOptions.ServerHeader.Strip();
      default -> new HttpListenerOptions.ServerHeader.Name(server.name().orElseThrow());
    };
  }

  private static RouteTraffic lower(TrafficOptions.Route options) {
    Set<RouteTraffic.Compression> compression = EnumSet.noneOf(RouteTraffic.Compression.class);
    options.compression().orElse(List.of()).forEach(name ->
        compression.add(RouteTraffic.Compression.valueOf(name.toUpperCase(Locale.ROOT))));
    return new RouteTraffic(options.localRateLimit().map(l -> new RouteTraffic.LocalRateLimit((int) l.maxTokens(),
            (int) (long) l.tokensPerFill().orElse(l.maxTokens()), l.fillInterval(), l.responseHeaders())),
        List.of(), compression, options.csrf().map(c -> new RouteTraffic.Csrf(c.additionalOrigins(), c.shadow())),
        options.maxRequestBodyBytes().map(Long::intValue));
  }

  private static List<Problem> errors(List<Problem> problems) {
    return problems.stream().filter(p -> !p.reason().equals(Reasons.FIELD_IGNORED)).toList();
  }

  private static Optional<String> describe(List<Problem> problems) {
    return problems.isEmpty() ? Optional.empty()
        : Optional.of(problems.stream().map(Problem::toString).collect(Collectors.joining("; ")));
  }

  private static Set<String> with(Set<String> fields, String extra) {
    Set<String> all = new HashSet<>(fields);
    all.add(extra);
    return Set.copyOf(all);
  }

  private static List<ApiObject> ofKind(List<ApiObject> objects, String kind) {
    return objects.stream().filter(o -> o.key().kind().equals(kind)).toList();
  }
}
