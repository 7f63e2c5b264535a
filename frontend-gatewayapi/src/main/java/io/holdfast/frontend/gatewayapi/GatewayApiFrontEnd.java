package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClass;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference;
import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.AccessPolicy;
import io.holdfast.api.InputLimits;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.Models.Parsed;
import io.holdfast.frontend.gatewayapi.RouteAttachment.OwnGateway;
import io.holdfast.frontend.gatewayapi.RouteAttachment.Outcome;
import io.holdfast.ir.Claims;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.Secret;
import io.holdfast.ir.SectionStatus.GroupKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The Gateway API's way into the IR (see the package documentation). One build: the GatewayClasses whose
 * {@code controllerName} is Holdfast's are accepted; their Gateways' listeners are checked ({@link ListenerRules});
 * each HTTPRoute and GRPCRoute naming one of those Gateways is attached to listeners ({@link RouteAttachment}) and
 * its rules lowered ({@link RouteRules}, backends resolved by {@link ServiceBackends}); then {@link GatewayIr}
 * builds one socket listener per Gateway port with one virtual host per hostname (TLSRoutes and TCPRoutes: TCP
 * proxy chains, see {@link #streamRoutes}), and every object Holdfast owns
 * gets its status with {@code observedGeneration}. Objects of other controllers get nothing.
 */
public final class GatewayApiFrontEnd implements FrontEnd<GatewayConfig> {

  /** The API group of the Gateway API's kinds. */
  public static final String GROUP = GatewayApiKinds.GROUP;
  /** The controller name Holdfast answers to unless configured otherwise. */
  public static final String DEFAULT_CONTROLLER_NAME = "holdfast.io/gateway-controller";

  static final String SUPPORTED_VERSION = "SupportedVersion";
  static final String RESOLVED_REFS = "ResolvedRefs";

  private final String controllerName;
  private final InputLimits limits;
  private final AccessPolicy policy;
  private final LastGood memory = new LastGood();

  public GatewayApiFrontEnd(String controllerName) {
    this(controllerName, InputLimits.DEFAULTS);
  }

  /** @param limits the bounds on route regexes; with the file-mode access policy */
  public GatewayApiFrontEnd(String controllerName, InputLimits limits) {
    this(controllerName, limits, AccessPolicy.FILE_DEFAULTS);
  }

  /**
   * @param limits the bounds on route regexes
   * @param policy the listener ports and backend addresses allowed (README, "Tenancy"), as for Holdfast's kinds
   */
  public GatewayApiFrontEnd(String controllerName, InputLimits limits, AccessPolicy policy) {
    this.controllerName = Objects.requireNonNull(controllerName, "controllerName");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  public String controllerName() {
    return controllerName;
  }

  @Override
  public void lower(GatewayConfig input, IrBuilder builder) {
    memory.forgetAbsent(input);
    List<ApiObject> objects = input.apiObjectsOf(GROUP);
    ReferenceGrants grants = ReferenceGrants.of(objects);
    Namespaces namespaces = Namespaces.of(input.apiObjects());
    Set<String> classes = gatewayClasses(objects, builder);
    Set<ResourceKey> existing = ofKind(objects, "Gateway").stream().map(ApiObject::key)
        .collect(Collectors.toCollection(java.util.TreeSet::new));

    Map<String, Secret> secrets = new TreeMap<>();
    Map<ResourceKey, OwnGateway> gateways = new TreeMap<>();
    Map<ResourceKey, Parsed<Gateway>> parsedGateways = new TreeMap<>();
    Map<ResourceKey, ApiObject> unreadable = new TreeMap<>();
    for (ApiObject object : ofKind(objects, "Gateway")) {
      String className = object.at("/spec/gatewayClassName").asString("");
      if (!classes.contains(className)) {
        continue;
      }
      Models.Result<Gateway> result = Models.parse(object, Gateway.class);
      if (result.parsed().isPresent()) {
        memory.acceptedGateway(object);
      } else {
        // Unreadable: the last version that could be read goes on being served (LastGood), if there was one.
        Optional<Parsed<Gateway>> previous = memory.gateway(object.key())
            .flatMap(p -> Models.parse(p, Gateway.class).parsed());
        if (previous.isEmpty()) {
          builder.status(rejected(object, "Invalid", result.problem().orElse("")), Optional.empty());
          continue;
        }
        result = new Models.Result<>(previous, result.problem());
        unreadable.put(object.key(), object);
      }
      Parsed<Gateway> gateway = result.parsed().get();
      List<ListenerState> listeners = ListenerRules.check(gateway.model(), object.key(), input, grants, memory,
          secrets, policy);
      portsHeldElsewhere(object.key(), gateway.created(), listeners, builder);
      gateways.put(object.key(), new OwnGateway(object.key(), gateway.created(), listeners));
      parsedGateways.put(object.key(), gateway);
    }

    portsHeldByOlderGateways(gateways.values());

    Set<ResourceKey> httpRoutes = ofKind(objects, GatewayApiKinds.HTTP_ROUTE.kind()).stream().map(ApiObject::key)
        .collect(Collectors.toSet());
    // Policies named by routes' ExtensionRef filters: their statuses list those routes, and rules may name them.
    Map<ResourceKey, SortedSet<ResourceKey>> ruleUsers = ExtensionRefs.users(objects);
    Set<ResourceKey> rulePolicies = input.apiObjectsOf(PolicyKinds.GROUP).stream().map(ApiObject::key)
        .filter(k -> ExtensionRefs.KINDS.contains(k.kind())).collect(Collectors.toSet());
    // The services policies send to (access logs, rate limits) resolve as route backends do, to the same clusters.
    ServiceBackends policyBackends = new ServiceBackends(input, grants, policy);
    GatewayIr ir = new GatewayIr(gateways, builder, TrafficPolicies.of(input.apiObjectsOf(PolicyKinds.GROUP),
        gateways, httpRoutes, ruleUsers, policyBackends, builder));
    ir.security(SecurityPolicies.of(input, grants, gateways, objects.stream().map(ApiObject::key)
        .filter(k -> SecurityPolicies.ROUTE_KINDS.contains(k.kind())).collect(Collectors.toSet()), ruleUsers,
        builder));
    Map<ResourceKey, Cluster> clusters = new TreeMap<>(policyBackends.clusters());
    World world = new World(input, grants, namespaces, gateways, existing, policy, rulePolicies);
    for (ApiObject object : objects) {
      String kind = object.key().kind();
      if (kind.equals(GatewayApiKinds.HTTP_ROUTE.kind()) || kind.equals(GatewayApiKinds.GRPC_ROUTE.kind())) {
        route(object, world, ir, clusters, builder);
      }
    }
    streamRoutes(objects, world, ir, clusters, builder);

    clusters.values().forEach(builder::add);
    secrets.values().stream().filter(s -> ir.servesSecret(s.name())).forEach(builder::add);
    ir.listeners().forEach(builder::add);
    parsedGateways.forEach((key, gateway) -> {
      ObjectStatus status = gatewayStatus(gateway.generation(), gateways.get(key));
      ApiObject rejected = unreadable.get(key);
      if (rejected != null) {
        status = servedFromMemory(rejected, gateway.generation(), status);
      }
      if (rejected != null) {
        status = Findings.with(status, List.of(new Finding(Finding.Severity.ERROR,
            "", "Invalid", status.condition(Condition.ACCEPTED).message())));
      }
      builder.status(Findings.gateway(status, gateways.get(key).listeners()), gateway.created());
    });
  }

  private Set<String> gatewayClasses(List<ApiObject> objects, IrBuilder builder) {
    Set<String> ours = new java.util.TreeSet<>();
    for (ApiObject object : ofKind(objects, "GatewayClass")) {
      if (!object.at("/spec/controllerName").asString("").equals(controllerName)) {
        continue;
      }
      Models.Result<GatewayClass> result = Models.parse(object, GatewayClass.class);
      long generation = object.generation();
      if (result.parsed().isEmpty()) {
        builder.status(rejected(object, "InvalidParameters", result.problem().orElse("")), Optional.empty());
        continue;
      }
      Parsed<GatewayClass> parsed = result.parsed().get();
      Condition supported = new Condition(SUPPORTED_VERSION, Condition.Status.TRUE, SUPPORTED_VERSION,
          "Holdfast supports the Gateway API's v1 kinds", generation);
      Condition accepted;
      if (parsed.model().getSpec().getParametersRef() != null) {
        accepted = new Condition(Condition.ACCEPTED, Condition.Status.FALSE, "InvalidParameters",
            "Holdfast takes no parameters; remove spec.parametersRef", generation);
      } else {
        accepted = new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED,
            "Holdfast (" + controllerName + ") programs Gateways of this class", generation);
        ours.add(object.key().name());
      }
      builder.status(Findings.whole(new ObjectStatus(object.key(), generation, List.of(accepted, supported),
          List.of(), List.of()), "spec.parametersRef", accepted.reason()), parsed.created());
    }
    return ours;
  }

  /** What routes are attached and lowered against in one build. */
  /** @param rulePolicies the Holdfast policies a rule's ExtensionRef filter may name */
  private record World(GatewayConfig input, ReferenceGrants grants, Namespaces namespaces,
      Map<ResourceKey, OwnGateway> gateways, Set<ResourceKey> existingGateways, AccessPolicy policy,
      Set<ResourceKey> rulePolicies) {

    RouteAttachment.Attachment attach(ResourceKey route, List<ParentReference> refs, List<String> hostnames) {
      return RouteAttachment.attach(new GroupKind(GROUP, route.kind()), route, refs, hostnames, gateways,
          existingGateways, namespaces);
    }
  }

  /**
   * One version of a route, attached to Holdfast's Gateways and lowered against this build's world.
   *
   * @param dangling its parentRefs that name no Gateway at all
   */
  private record Version(ApiObject object, Parsed<?> parsed, List<Outcome> outcomes,
      List<RouteAttachment.Dangling> dangling, LoweredRoute lowered, ServiceBackends backends) {

    /** Whether this version holds nothing Holdfast cannot honour (reference problems follow the spec instead). */
    boolean valid() {
      return lowered.notAccepted().isEmpty();
    }
  }

  /**
   * One route. A version that cannot be read or holds something Holdfast cannot honour is rejected; if the route
   * had an accepted version before, that version is attached and served instead (see {@link LastGood}), and the
   * current generation's conditions say what is wrong and which generation is still served.
   */
  private void route(ApiObject object, World world, GatewayIr ir, Map<ResourceKey, Cluster> clusters,
      IrBuilder builder) {
    Models.Result<?> result = parseRoute(object);
    Optional<Version> current = result.parsed().flatMap(parsed -> version(object, parsed, world));
    if (result.parsed().isPresent() && current.isEmpty()) {
      memory.forgetRoute(object.key()); // it names none of Holdfast's Gateways now: nothing of it is served
      return;
    }
    if (current.isPresent() && current.get().outcomes().isEmpty()) {
      // Its parentRefs name only Gateways that do not exist: reported, and nothing of it is served.
      memory.forgetRoute(object.key());
      builder.status(routeStatus(current.get(), Optional.empty()), current.get().parsed().created());
      return;
    }
    if (current.isPresent() && current.get().valid()) {
      memory.acceptedRoute(object);
      serve(current.get(), ir, clusters);
      builder.status(routeStatus(current.get(), Optional.empty()), current.get().parsed().created());
      return;
    }
    Optional<Version> lastGood = memory.route(object.key())
        .flatMap(previous -> parseRoute(previous).parsed()
            .flatMap(parsed -> version(previous, parsed, world)));
    lastGood.ifPresent(version -> serve(version, ir, clusters));
    if (current.isPresent()) {
      builder.status(routeStatus(current.get(), lastGood.map(v -> v.object().generation())),
          current.get().parsed().created());
    } else if (lastGood.isPresent()) {
      // Unreadable: its parentRefs are unknown, so the parents of the version still served carry the rejection.
      Version served = lastGood.get();
      AcceptedProblem unreadable = new AcceptedProblem(AcceptedProblem.UNSUPPORTED_VALUE,
          "cannot be read: " + result.problem().orElse(""), io.holdfast.ir.Origin.of(object.key()).at("spec"));
      Version rejected = new Version(object, served.parsed(), served.outcomes(), served.dangling(),
          new LoweredRoute(List.of(), served.lowered().problems(), List.of(unreadable)), served.backends());
      builder.status(routeStatus(rejected, Optional.of(served.object().generation())), served.parsed().created());
    } else if (result.parsed().isEmpty()) {
      unreadable(object, result.problem().orElse(""), world, builder);
    }
    // else: not attached to any of Holdfast's Gateways.
  }

  /**
   * A route that cannot be read and was never accepted: if its raw {@code spec.parentRefs} name one of Holdfast's
   * Gateways, it is reported there (Accepted=False {@code UnsupportedValue}, "cannot be read") rather than vanish;
   * a route naming none of them is another controller's business (the API server's schema keeps this rare).
   */
  private static void unreadable(ApiObject object, String problem, World world, IrBuilder builder) {
    List<ParentStatus> parents = new ArrayList<>();
    long generation = object.generation();
    Condition accepted = new Condition(Condition.ACCEPTED, Condition.Status.FALSE,
        AcceptedProblem.UNSUPPORTED_VALUE, "cannot be read: " + problem, generation);
    int index = 0;
    for (tools.jackson.databind.JsonNode ref : object.at("/spec/parentRefs")) {
      // Bounded by the API's limit on parentRefs (32); a hostile list only costs one look-up per entry.
      if (index++ >= RouteAttachment.MAX_PARENT_REFS) {
        break;
      }
      if (!ref.isObject() || !ref.path("group").asString(GROUP).equals(GROUP)
          || !ref.path("kind").asString("Gateway").equals("Gateway")) {
        continue;
      }
      ResourceKey gateway = new ResourceKey(GROUP, "Gateway",
          ref.path("namespace").asString(object.key().namespace()), ref.path("name").asString(""));
      if (world.gateways().containsKey(gateway)) {
        parents.add(new ParentStatus(gateway, Optional.ofNullable(ref.path("sectionName").asString(null)),
            ref.path("port").isInt() ? Optional.of(ref.path("port").asInt()) : Optional.empty(),
            List.of(accepted)));
      }
    }
    if (!parents.isEmpty()) {
      builder.status(Findings.whole(new ObjectStatus(object.key(), generation, List.of(accepted), List.of(),
          parents), "spec", AcceptedProblem.UNSUPPORTED_VALUE), Optional.empty());
    }
  }

  private static Models.Result<?> parseRoute(ApiObject object) {
    return object.key().kind().equals(GatewayApiKinds.HTTP_ROUTE.kind()) ? Models.parse(object, HTTPRoute.class)
        : Models.parse(object, GRPCRoute.class);
  }

  /** {@code parsed} attached and lowered; empty if it names none of Holdfast's Gateways. */
  private Optional<Version> version(ApiObject object, Parsed<?> parsed, World world) {
    Object model = parsed.model();
    boolean http = model instanceof HTTPRoute;
    List<ParentReference> refs = http
        ? Optional.ofNullable(((HTTPRoute) model).getSpec()).map(s -> s.getParentRefs()).orElse(null)
        : Optional.ofNullable(((GRPCRoute) model).getSpec()).map(s -> s.getParentRefs()).orElse(null);
    List<String> hostnames = http
        ? Optional.ofNullable(((HTTPRoute) model).getSpec()).map(s -> s.getHostnames()).orElse(null)
        : Optional.ofNullable(((GRPCRoute) model).getSpec()).map(s -> s.getHostnames()).orElse(null);
    RouteAttachment.Attachment attachment = world.attach(object.key(), refs == null ? List.of() : refs,
        hostnames == null ? List.of() : hostnames);
    if (attachment.none()) {
      return Optional.empty();
    }
    ServiceBackends backends = new ServiceBackends(world.input(), world.grants(), world.policy());
    LoweredRoute lowered = http ? RouteRules.http((HTTPRoute) model, object.key(), backends, limits,
        world.rulePolicies()) : RouteRules.grpc((GRPCRoute) model, object.key(), backends, limits,
        world.rulePolicies());
    return Optional.of(new Version(object, parsed, attachment.outcomes(), attachment.dangling(), lowered,
        backends));
  }

  /** Attaches a valid version's routes to the listeners it is accepted by, counting it once per listener. */
  private static void serve(Version version, GatewayIr ir, Map<ResourceKey, Cluster> clusters) {
    Set<ListenerState> counted = new java.util.HashSet<>();
    for (Outcome outcome : version.outcomes()) {
      if (outcome.notAccepted().isPresent()) {
        continue;
      }
      for (RouteAttachment.Attached attached : outcome.attached()) {
        if (counted.add(attached.listener())) {
          attached.listener().attachedRoutes++;
        }
        ir.attach(outcome.gateway(), attached, version.object().key(), version.lowered().routes());
      }
      clusters.putAll(version.backends().clusters());
    }
  }

  /**
   * The status of {@code version} (the current generation): per parent, Accepted and ResolvedRefs. A version
   * with something Holdfast cannot honour is Accepted=False with that reason; when {@code served} names the
   * generation still served in its place, the message says so.
   */
  private static ObjectStatus routeStatus(Version version, Optional<Long> served) {
    long generation = version.object().generation();
    LoweredRoute lowered = version.lowered();
    Condition resolved = lowered.problems().stream().findFirst()
        .map(p -> new Condition(RESOLVED_REFS, Condition.Status.FALSE, p.reason(), p.message(), generation))
        .orElseGet(() -> new Condition(RESOLVED_REFS, Condition.Status.TRUE, RESOLVED_REFS,
            "every reference resolved", generation));
    String stillServed = served.map(g -> "; Holdfast still serves the last accepted version (generation " + g
        + ") until this one is fixed").orElse("");
    List<ParentStatus> parents = new ArrayList<>();
    for (Outcome outcome : version.outcomes()) {
      Condition accepted;
      if (outcome.notAccepted().isPresent()) {
        accepted = new Condition(Condition.ACCEPTED, Condition.Status.FALSE, outcome.notAccepted().get().reason(),
            outcome.notAccepted().get().message(), generation);
      } else if (!lowered.notAccepted().isEmpty()) {
        AcceptedProblem problem = lowered.notAccepted().get(0);
        accepted = new Condition(Condition.ACCEPTED, Condition.Status.FALSE, problem.reason(),
            problem.origin().field() + ": " + problem.message() + stillServed, generation);
      } else {
        accepted = new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED,
            "attached to listener(s) " + outcome.attached().stream().map(a -> a.listener().name)
                .collect(Collectors.joining(", ")), generation);
      }
      parents.add(new ParentStatus(outcome.gateway(), Optional.ofNullable(outcome.ref().getSectionName()),
          Optional.ofNullable(outcome.ref().getPort()), List.of(accepted, resolved)));
    }
    Condition summary = parents.stream().map(p -> p.conditions().get(0))
        .filter(c -> c.status() == Condition.Status.TRUE).findFirst()
        .orElseGet(() -> parents.isEmpty() ? danglingSummary(version, generation)
            : parents.get(0).conditions().get(0));
    ObjectStatus status = new ObjectStatus(version.object().key(), generation, List.of(summary), List.of(),
        parents);
    return Findings.with(status, routeFindings(version, status, served));
  }

  /** The Accepted condition of a route whose every parentRef to a Gateway names none that exists. */
  private static Condition danglingSummary(Version version, long generation) {
    ListenerState.Problem problem = version.dangling().get(0).problem();
    return new Condition(Condition.ACCEPTED, Condition.Status.FALSE, problem.reason(),
        version.dangling().get(0).field() + ": " + problem.message(), generation);
  }

  /**
   * A route's findings: each parent that does not accept it, each parentRef naming no Gateway, each field Holdfast
   * cannot honour and each reference that did not resolve, at its field; a note when an older generation is served.
   */
  private static List<Finding> routeFindings(Version version, ObjectStatus status, Optional<Long> served) {
    Finding.Severity severity = Findings.severity(status);
    List<Finding> findings = new ArrayList<>();
    for (Outcome outcome : version.outcomes()) {
      outcome.notAccepted().ifPresent(p -> findings.add(new Finding(severity,
          Findings.join(outcome.field(), p.field()), p.finding(), p.message())));
    }
    for (RouteAttachment.Dangling dangling : version.dangling()) {
      findings.add(new Finding(severity, dangling.field(), dangling.problem().finding(),
          dangling.problem().message()));
    }
    for (AcceptedProblem problem : version.lowered().notAccepted()) {
      findings.add(new Finding(severity, problem.origin().field(), problem.finding(),
          problem.message()));
    }
    for (ResolvedRefsProblem problem : version.lowered().problems()) {
      findings.add(new Finding(severity, problem.origin().field(), problem.finding(), problem.message()));
    }
    findings.addAll(version.backends().warnings());
    served.ifPresent(g -> findings.add(new Finding(Finding.Severity.NOTE, "",
        Findings.LAST_GOOD_SERVED, "Holdfast still serves the last accepted version (generation " + g
        + ") until this one is fixed")));
    return findings;
  }

  /**
   * TLSRoutes and TCPRoutes, oldest first: on each listener a hostname (TCP: the whole listener) is forwarded to the
   * oldest route that claims it; a younger route's parentRef whose every hostname an older route holds is
   * Accepted=False {@code NotAllowedByListeners} with a message naming the holder (the specification leaves
   * several TCPRoutes on one listener to the implementation). Rule backendRefs, with their weights, become the
   * chain's clusters; an unresolvable backend is left out (ResolvedRefs=False), so its share goes to the others,
   * and a route without any usable backend forwards nothing (its connections are refused). No last-good memory:
   * an unreadable version is not served.
   */
  private static void streamRoutes(List<ApiObject> objects, World world, GatewayIr ir,
      Map<ResourceKey, Cluster> clusters, IrBuilder builder) {
    List<StreamRoute> routes = new ArrayList<>();
    for (ApiObject object : objects) {
      Optional<StreamRoute> route = StreamRoute.parse(object);
      route.ifPresent(routes::add);
      if (route.isEmpty()) {
        StreamRoute.unreadable(object).ifPresent(problem -> unreadable(object, problem, world, builder));
      }
    }
    routes.sort(java.util.Comparator.comparing(r -> new Claims.Claimant(r.object().key(), r.parsed().created()),
        Claims.Claimant.OLDEST_FIRST));
    Map<ListenerState, Map<String, ResourceKey>> claimed = new java.util.IdentityHashMap<>();
    for (StreamRoute route : routes) {
      ResourceKey key = route.object().key();
      RouteAttachment.Attachment attachment = world.attach(key, route.parentRefs(), route.hostnames());
      if (attachment.none()) {
        continue;
      }
      List<Outcome> outcomes = attachment.outcomes();
      ServiceBackends backends = new ServiceBackends(world.input(), world.grants(), world.policy());
      List<ResolvedRefsProblem> problems = new ArrayList<>();
      List<io.holdfast.ir.RouteAction.WeightedCluster> targets = new ArrayList<>();
      for (int i = 0; i < route.rules().size(); i++) {
        List<io.fabric8.kubernetes.api.model.gatewayapi.v1.BackendRef> refs = route.rules().get(i);
        for (int j = 0; j < refs.size(); j++) {
          var ref = refs.get(j);
          io.holdfast.ir.Origin origin = io.holdfast.ir.Origin.of(key)
              .at("spec.rules[" + i + "].backendRefs[" + j + "]");
          BackendResolution resolution = backends.resolve(key.namespace(), BackendReference.of(ref.getGroup(),
              ref.getKind(), ref.getName(), ref.getNamespace(), ref.getPort()), Backends.BackendProtocol.HTTP,
              origin);
          int weight = ref.getWeight() == null ? 1 : ref.getWeight();
          if (resolution instanceof BackendResolution.Resolved resolved) {
            if (weight > 0) {
              targets.add(new io.holdfast.ir.RouteAction.WeightedCluster(resolved.cluster(), weight));
            }
          } else if (resolution instanceof BackendResolution.Unresolved unresolved) {
            problems.add(unresolved.problem(origin));
          }
        }
      }
      List<Outcome> claimedOutcomes = new ArrayList<>();
      for (Outcome outcome : outcomes) {
        if (outcome.notAccepted().isPresent()) {
          claimedOutcomes.add(outcome);
          continue;
        }
        List<RouteAttachment.Attached> kept = new ArrayList<>();
        List<String> holders = new ArrayList<>();
        for (RouteAttachment.Attached attached : outcome.attached()) {
          List<String> mine = new ArrayList<>();
          Map<String, ResourceKey> onListener = claimed.computeIfAbsent(attached.listener(),
              l -> new TreeMap<>());
          for (String hostname : attached.hostnames()) {
            ResourceKey holder = onListener.get(hostname);
            if (holder == null || holder.equals(key)) {
              mine.add(hostname);
            } else {
              holders.add(holder.namespace() + "/" + holder.name() + " (" + hostname + " on listener "
                  + attached.listener().name + ")");
            }
          }
          if (!mine.isEmpty()) {
            kept.add(new RouteAttachment.Attached(attached.listener(), mine));
          }
        }
        if (kept.isEmpty()) {
          claimedOutcomes.add(new Outcome(outcome.ref(), outcome.index(), outcome.gateway(),
              Optional.of(new ListenerState.Problem(
              RouteAttachment.NOT_ALLOWED_BY_LISTENERS, "the selected listeners already forward to an older "
              + key.kind() + ": " + String.join(", ", holders))), List.of()));
          continue;
        }
        for (RouteAttachment.Attached attached : kept) {
          attached.hostnames().forEach(h -> claimed.get(attached.listener()).put(h, key));
        }
        claimedOutcomes.add(new Outcome(outcome.ref(), outcome.index(), outcome.gateway(), Optional.empty(), kept));
      }
      Version version = new Version(route.object(), route.parsed(), claimedOutcomes, attachment.dangling(),
          new LoweredRoute(List.of(), problems), backends);
      Set<ListenerState> counted = new java.util.HashSet<>();
      for (Outcome outcome : claimedOutcomes) {
        if (outcome.notAccepted().isPresent()) {
          continue;
        }
        for (RouteAttachment.Attached attached : outcome.attached()) {
          if (counted.add(attached.listener())) {
            attached.listener().attachedRoutes++;
          }
          attached.hostnames().forEach(h -> ir.attachStream(outcome.gateway(), attached.listener(), h, targets));
        }
        if (!targets.isEmpty()) {
          clusters.putAll(backends.clusters());
        }
      }
      builder.status(routeStatus(version, Optional.empty()), route.parsed().created());
    }
  }

  /**
   * Listeners on a port an older object of another front end already holds (a Holdfast Gateway lowered before):
   * not accepted, {@code PortUnavailable}, so the Gateway's status says which listeners lost and why. (A port
   * taken by a front end lowered later is settled by the builder, which rejects the younger object.)
   */
  private static void portsHeldElsewhere(ResourceKey gateway, Optional<java.time.Instant> created,
      List<ListenerState> listeners, IrBuilder builder) {
    for (ListenerState listener : listeners) {
      if (!listener.accepted()) {
        continue;
      }
      builder.olderSocketHolder(GatewayIr.ADDRESS, listener.port, gateway, created).ifPresent(holder ->
          listener.notAccepted = Optional.of(new ListenerState.Problem("PortUnavailable", "port " + listener.port
              + " is already used by " + holder + ", which is older", "port")));
    }
  }

  /**
   * Holdfast's proxies serve every Gateway, so two Gateways cannot both listen on one port: the older one keeps it
   * (the order the builder settles sockets in) and the younger one's listeners there are not accepted,
   * {@code PortUnavailable}. A port only counts as held by a listener that is served.
   */
  private static void portsHeldByOlderGateways(java.util.Collection<OwnGateway> gateways) {
    List<OwnGateway> oldestFirst = new ArrayList<>(gateways);
    oldestFirst.sort(java.util.Comparator.comparing(g -> new Claims.Claimant(g.key(), g.created()),
        Claims.Claimant.OLDEST_FIRST));
    Map<Integer, ResourceKey> held = new java.util.HashMap<>();
    for (OwnGateway gateway : oldestFirst) {
      List<Integer> mine = new ArrayList<>();
      for (ListenerState listener : gateway.listeners()) {
        ResourceKey holder = held.get(listener.port);
        if (listener.accepted() && holder != null) {
          listener.notAccepted = Optional.of(new ListenerState.Problem("PortUnavailable", "port " + listener.port
              + " is already used by " + holder + ", which is older", "port"));
        } else if (listener.programmed()) {
          mine.add(listener.port);
        }
      }
      mine.forEach(port -> held.put(port, gateway.key()));
    }
  }

  /**
   * The status of an unreadable Gateway whose last readable version ({@code served}) is served: Accepted=False
   * {@code Invalid} on the current generation, naming the generation still served; the other conditions and the
   * listener sections describe what is served.
   */
  private static ObjectStatus servedFromMemory(ApiObject object, long served, ObjectStatus status) {
    long generation = object.generation();
    String problem = Models.parse(object, Gateway.class).problem().orElse("");
    List<Condition> conditions = new ArrayList<>();
    conditions.add(new Condition(Condition.ACCEPTED, Condition.Status.FALSE, "Invalid", "cannot be read: "
        + problem + "; Holdfast still serves the last accepted version (generation " + served
        + ") until this one is fixed", generation));
    status.conditions().stream().filter(c -> !c.type().equals(Condition.ACCEPTED))
        .map(c -> new Condition(c.type(), c.status(), c.reason(), c.message(), generation))
        .forEach(conditions::add);
    ObjectStatus out = new ObjectStatus(object.key(), generation, conditions, List.of(), List.of());
    for (io.holdfast.ir.SectionStatus section : status.sections()) {
      out = out.withSection(new io.holdfast.ir.SectionStatus(section.name(), section.conditions().stream()
          .map(c -> new Condition(c.type(), c.status(), c.reason(), c.message(), generation)).toList(),
          section.supportedKinds(), section.attachedRoutes()));
    }
    return out;
  }

  private static ObjectStatus gatewayStatus(long generation, OwnGateway own) {
    List<ListenerState> listeners = own.listeners();
    long programmed = listeners.stream().filter(ListenerState::programmed).count();
    boolean allValid = programmed == listeners.size();
    Condition accepted = allValid
        ? new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED, "the Gateway is accepted",
            generation)
        : new Condition(Condition.ACCEPTED, programmed > 0 ? Condition.Status.TRUE : Condition.Status.FALSE,
            "ListenersNotValid", (listeners.size() - programmed) + " of " + listeners.size()
            + " listeners are not valid; see status.listeners", generation);
    Condition ready = programmed > 0
        ? new Condition(ListenerState.PROGRAMMED, Condition.Status.TRUE, ListenerState.PROGRAMMED,
            programmed + " listener(s) served", generation)
        : new Condition(ListenerState.PROGRAMMED, Condition.Status.FALSE, "Invalid", "no listener can be served",
            generation);
    ObjectStatus status = new ObjectStatus(own.key(), generation, List.of(accepted, ready), List.of(), List.of());
    for (ListenerState listener : listeners) {
      status = status.withSection(listener.status(generation));
    }
    return status;
  }

  private static ObjectStatus rejected(ApiObject object, String reason, String message) {
    return Findings.whole(new ObjectStatus(object.key(), object.generation(), List.of(new Condition(
        Condition.ACCEPTED, Condition.Status.FALSE, reason, "cannot be read: " + message, object.generation())),
        List.of(), List.of()), "", reason);
  }

  private static List<ApiObject> ofKind(List<ApiObject> objects, String kind) {
    return objects.stream().filter(o -> o.key().kind().equals(kind)).toList();
  }
}
