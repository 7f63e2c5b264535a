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
import io.holdfast.frontend.options.TrafficOptionsLowering;
import io.holdfast.ir.Finding;
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
 * <p>A TrafficPolicy may also be named by a route rule's {@code ExtensionRef} filter ({@link RulePolicies}): it
 * then applies to that rule before any attached policy, and needs no {@code targetRefs}.
 *
 * <p>Access log and rate-limit services are named by {@code backendRef} (a Service and port, as HTTPRoute backends;
 * {@link PolicyBackendRefs}), not by Upstream: an {@code upstream} there makes the policy Invalid, as does a
 * backendRef that does not resolve ({@code BackendNotFound}, {@code RefNotPermitted}, {@code InvalidKind}). A
 * TrafficPolicy's global rate-limit descriptors go to the rate-limit service of the chain's ClientTrafficPolicy.
 * A listener-targeted ClientTrafficPolicy on a port other listeners share is
 * {@code Conflicted}: one socket and connection manager serve the whole port.
 */
final class TrafficPolicies {

  static final String GATEWAY = GatewayApiKinds.GROUP + "/" + GatewayApiKinds.GATEWAY.kind();
  static final String HTTP_ROUTE = GatewayApiKinds.GROUP + "/" + GatewayApiKinds.HTTP_ROUTE.kind();
  /** A ClientTrafficPolicy targets a Gateway or one of its listeners. */
  static final PolicyTargets.Rules CLIENT_RULES = new PolicyTargets.Rules(Set.of(GATEWAY), Set.of(GATEWAY), true,
      false);
  /** A TrafficPolicy targets a Gateway, one of its listeners, or a whole HTTPRoute. */
  static final PolicyTargets.Rules TRAFFIC_RULES = new PolicyTargets.Rules(Set.of(GATEWAY, HTTP_ROUTE),
      Set.of(GATEWAY), true, true);
  /** A policy that applies nowhere. */
  static final TrafficPolicies NONE = new TrafficPolicies(new PolicyTargets.Resolution(Map.of(), Map.of()),
      new PolicyTargets.Resolution(Map.of(), Map.of()), Map.of(), Map.of());

  private final PolicyTargets.Resolution client;
  private final PolicyTargets.Resolution traffic;
  /** Each valid ClientTrafficPolicy's connection-manager and socket options, lowered. */
  private final Map<ResourceKey, Lowered> clientOptions;
  private final Map<ResourceKey, RouteTraffic> routeTraffic;

  /** A ClientTrafficPolicy lowered: its connection-manager options (naming its services' clusters) and socket's. */
  private record Lowered(HttpListenerOptions http, SocketOptions socket) {
  }

  private TrafficPolicies(PolicyTargets.Resolution client, PolicyTargets.Resolution traffic,
      Map<ResourceKey, Lowered> clientOptions, Map<ResourceKey, RouteTraffic> routeTraffic) {
    this.client = client;
    this.traffic = traffic;
    this.clientOptions = clientOptions;
    this.routeTraffic = routeTraffic;
  }

  /**
   * Reads, checks and resolves every traffic policy among {@code objects}, and gives each its status.
   *
   * @param routes    the HTTPRoutes that exist (a TrafficPolicy may target them)
   * @param ruleUsers the routes naming each policy in an ExtensionRef filter
   * @param backends  resolves the backendRefs of access log and rate-limit services to clusters; the endpoints it
   *                  leaves out for the access policy are warnings on the policy naming the Service
   */
  static TrafficPolicies of(List<ApiObject> objects, Map<ResourceKey, OwnGateway> gateways, Set<ResourceKey> routes,
      Map<ResourceKey, java.util.SortedSet<ResourceKey>> ruleUsers, ServiceBackends backends, IrBuilder builder) {
    List<ApiObject> clientObjects = ofKind(objects, PolicyKinds.CLIENT_TRAFFIC_POLICY);
    List<ApiObject> trafficObjects = ofKind(objects, PolicyKinds.TRAFFIC_POLICY);
    if (clientObjects.isEmpty() && trafficObjects.isEmpty()) {
      return NONE;
    }
    Map<ResourceKey, Lowered> clientOptions = new HashMap<>();
    Map<ResourceKey, List<Problem>> invalid = new HashMap<>();
    Map<ResourceKey, List<Finding>> warnings = new HashMap<>();
    List<Policy> clientPolicies = new ArrayList<>();
    for (ApiObject object : clientObjects) {
      Policy policy = PolicyTargets.read(object, CLIENT_RULES);
      clientPolicies.add(policy);
      List<Problem> problems = new ArrayList<>();
      Set<String> allowed = with(TrafficOptionsParser.listenerFields(), "targetRefs");
      PolicyBackendRefs.Extracted extracted = PolicyBackendRefs.extract(object.at("/spec"));
      extracted.both().forEach(field -> problems.add(new Problem(field, Reasons.INVALID_VALUE,
          "give a backendRef or an upstream, not both")));
      Optional<TrafficOptions.Listener> options = TrafficOptionsParser.listener(extracted.spec(), "spec", problems,
          allowed);
      options.ifPresent(o -> problems.addAll(errors(TrafficChecks.listener(o, "spec"))));
      Map<String, ResourceKey> clusters = new HashMap<>();
      int warned = backends.warnings().size();
      options.ifPresent(o -> problems.addAll(services(object.key(), o, extracted, backends, clusters)));
      warnings.put(object.key(), List.copyOf(backends.warnings().subList(warned, backends.warnings().size())));
      options.filter(o -> problems.isEmpty()).ifPresent(o -> clientOptions.put(object.key(), new Lowered(
          http(o, clusters), new SocketOptions(o.proxyProtocol(),
              o.perConnectionBufferLimitBytes().map(Long::intValue)))));
      if (!problems.isEmpty()) {
        invalid.put(object.key(), List.copyOf(problems));
      }
    }
    Map<ResourceKey, RouteTraffic> routeTraffic = new HashMap<>();
    List<Policy> trafficPolicies = new ArrayList<>();
    for (ApiObject object : trafficObjects) {
      Policy policy = PolicyTargets.read(object, TRAFFIC_RULES);
      trafficPolicies.add(policy);
      List<Problem> problems = new ArrayList<>();
      Optional<TrafficOptions.Route> options = TrafficOptionsParser.route(object.at("/spec"), "spec", problems,
          with(TrafficOptionsParser.routeFields(), "targetRefs"));
      options.ifPresent(o -> problems.addAll(errors(TrafficChecks.route(o, "spec"))));
      options.filter(o -> problems.isEmpty()).ifPresent(o -> routeTraffic.put(object.key(), lower(o)));
      if (!problems.isEmpty()) {
        invalid.put(object.key(), List.copyOf(problems));
      }
    }
    // Invalid policies win nothing: resolve only the valid ones, then give every policy its status.
    PolicyTargets.Resolution clientResolution = PolicyTargets.resolve(
        clientPolicies.stream().filter(p -> !invalid.containsKey(p.object().key())).toList(),
        target -> exists(target, gateways, routes), target -> sharedPort(target, gateways));
    PolicyTargets.Resolution trafficResolution = PolicyTargets.resolve(
        trafficPolicies.stream().filter(p -> !invalid.containsKey(p.object().key())).toList(),
        target -> exists(target, gateways, routes), target -> Optional.empty());
    for (Policy policy : clientPolicies) {
      builder.status(clientResolution.status(policy, invalid.getOrDefault(policy.object().key(), List.of()),
          Set.of(), warnings.getOrDefault(policy.object().key(), List.of())), policy.created());
    }
    for (Policy policy : trafficPolicies) {
      builder.status(trafficResolution.status(policy, invalid.getOrDefault(policy.object().key(), List.of()),
          ruleUsers.getOrDefault(policy.object().key(), java.util.Collections.emptySortedSet()), List.of()),
          policy.created());
    }
    return new TrafficPolicies(clientResolution, trafficResolution, clientOptions, routeTraffic);
  }

  /** The connection-manager options of a chain serving {@code listeners} (all on one port) of {@code gateway}. */
  HttpListenerOptions chain(ResourceKey gateway, List<ListenerState> listeners) {
    return clientPolicy(gateway, listeners).map(Lowered::http).orElse(HttpListenerOptions.NONE);
  }

  /** The socket options of the port {@code listeners} share. */
  SocketOptions socket(ResourceKey gateway, List<ListenerState> listeners) {
    return clientPolicy(gateway, listeners).map(Lowered::socket).orElse(SocketOptions.NONE);
  }

  /**
   * {@code route} (of an HTTPRoute or GRPCRoute) with the traffic policy that applies to it on {@code listener}: the
   * one its rule names ({@code ruleChoice}, an ExtensionRef filter), else the most specific attached one. A rule
   * naming an invalid policy answers 500: the spec forbids skipping a filter that cannot be applied.
   */
  Route route(Route route, ResourceKey gateway, ListenerState listener, Optional<ResourceKey> ruleChoice) {
    if (ruleChoice.isPresent()) {
      RouteTraffic chosen = routeTraffic.get(ruleChoice.get());
      return chosen != null ? route.withTraffic(chosen) : new Route(route.origin(), route.name(), route.match(),
          RouteRules.internalError(), route.headers(), route.cors(), route.security(), route.traffic());
    }
    if (routeTraffic.isEmpty()) {
      return route;
    }
    Optional<Policy> policy = traffic.effective(List.of(new Target(route.origin().object(), Optional.empty()),
        new Target(gateway, Optional.of(listener.name)), new Target(gateway, Optional.empty())));
    return policy.map(p -> route.withTraffic(routeTraffic.get(p.object().key()))).orElse(route);
  }

  /** A listener-targeted policy only where the port has that one listener (else {@link #sharedPort} refused it). */
  private Optional<Lowered> clientPolicy(ResourceKey gateway, List<ListenerState> listeners) {
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

  /**
   * The clusters of the services {@code options} sends to, by the field naming each, into {@code clusters}; the
   * problems of those that cannot be used. On the Gateway API a service is a backendRef: an Upstream name there is
   * refused, since Upstreams are Holdfast's kind.
   */
  private static List<Problem> services(ResourceKey policy, TrafficOptions.Listener options,
      PolicyBackendRefs.Extracted extracted, Backends backends, Map<String, ResourceKey> clusters) {
    List<Problem> out = new ArrayList<>();
    for (TrafficChecks.UpstreamUse use : TrafficChecks.upstreams(options, "spec")) {
      BackendReference ref = extracted.refs().get(use.field());
      if (ref == null) {
        out.add(new Problem(use.field(), Reasons.INVALID_VALUE, "Gateway API policies name a service by backendRef"
            + " (a Service and port), not by Upstream"));
        continue;
      }
      PolicyBackendRefs.Resolved resolved = PolicyBackendRefs.resolve(policy, use.field(), ref, backends);
      resolved.cluster().ifPresent(cluster -> clusters.put(use.field(), cluster));
      resolved.problem().ifPresent(out::add);
    }
    return out;
  }

  /** The connection-manager options; {@code clusters} holds the cluster of every service they name. */
  private static HttpListenerOptions http(TrafficOptions.Listener options, Map<String, ResourceKey> clusters) {
    List<HttpListenerOptions.AccessLog> logs = new ArrayList<>();
    for (int i = 0; i < options.accessLogs().size(); i++) {
      TrafficOptions.AccessLog log = options.accessLogs().get(i);
      HttpListenerOptions.Sink sink = sink(log.sink(), "spec.accessLogs[" + i + "].", clusters);
      HttpListenerOptions.Format format = log.text().<HttpListenerOptions.Format>map(HttpListenerOptions.Format.Text::new)
          .orElse(log.json().isEmpty() ? new HttpListenerOptions.Format.Default()
              : new HttpListenerOptions.Format.Json(log.json()));
      logs.add(new HttpListenerOptions.AccessLog(sink, format, new HttpListenerOptions.LogFilter(
          log.filter().minStatus().map(Long::intValue), log.filter().maxStatus().map(Long::intValue),
          log.filter().minDuration())));
    }
    Optional<HttpListenerOptions.RateLimitService> service = options.rateLimitService().map(s ->
        new HttpListenerOptions.RateLimitService(clusters.get("spec.rateLimitService.upstream"), s.domain(),
            s.timeout().orElse(TrafficOptions.RateLimitService.DEFAULT_TIMEOUT), s.failOpen()));
    return new HttpListenerOptions(options.xffNumTrustedHops().map(Long::intValue), options.idleTimeout(),
        options.requestHeadersTimeout(), options.maxRequestHeadersKb().map(Long::intValue),
        options.http2().map(h -> new HttpListenerOptions.Http2(h.maxConcurrentStreams().map(Long::intValue),
            h.initialStreamWindowSize().map(Long::intValue), h.initialConnectionWindowSize().map(Long::intValue))),
        options.serverHeader().map(TrafficPolicies::serverHeader), logs, service,
        options.healthCheck().map(TrafficOptions.HealthCheck::path)).withTracing(options.tracing().map(t ->
            TrafficOptionsLowering.tracing(t, clusters.get("spec.tracing.openTelemetry.upstream"))));
  }

  private static HttpListenerOptions.Sink sink(TrafficOptions.Sink sink, String at, Map<String, ResourceKey> clusters) {
    if (sink instanceof TrafficOptions.Sink.File file) {
      return new HttpListenerOptions.Sink.File(file.path());
    }
    if (sink instanceof TrafficOptions.Sink.Stderr) {
      return new HttpListenerOptions.Sink.Stderr();
    }
    if (sink instanceof TrafficOptions.Sink.Grpc grpc) {
      return new HttpListenerOptions.Sink.Grpc(clusters.get(at + "grpc.upstream"), grpc.logName());
    }
    if (sink instanceof TrafficOptions.Sink.OpenTelemetry otel) {
      return new HttpListenerOptions.Sink.OpenTelemetry(clusters.get(at + "openTelemetry.upstream"), otel.logName(),
          otel.authority()).withAttributes(TrafficOptionsLowering.otelAttributes(otel.attributes()));
    }
    return new HttpListenerOptions.Sink.Stdout();
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
        TrafficOptionsLowering.descriptors(options.rateLimits().orElse(List.of())), compression,
        options.csrf().map(TrafficOptionsLowering::csrf),
        options.maxRequestBodyBytes().map(Long::intValue));
  }

  private static List<Problem> errors(List<Problem> problems) {
    return problems.stream().filter(p -> !p.reason().equals(Reasons.FIELD_IGNORED)).toList();
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
