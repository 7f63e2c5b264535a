package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.InputLimits;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.SecurityPolicySpec;
import io.holdfast.frontend.gatewayapi.RouteAttachment.OwnGateway;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Outcome;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Target;
import io.holdfast.frontend.options.OAuth2Lowering;
import io.holdfast.frontend.options.SecurityOptionsLowering;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.OAuth2Login;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteSecurity;
import io.holdfast.ir.VirtualHost;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Holdfast's {@code SecurityPolicy} kind on the Gateway API: each policy is read and checked
 * ({@link SecurityChecks}, as a VirtualService's security options), its targets resolved
 * ({@link SecurityPolicyTargets}), and its status written in the policy-status shape: one ancestor per target
 * with an Accepted condition (Accepted, Conflicted, TargetNotFound, Invalid). A route gets the policy of the most
 * specific target that holds it: its own, else its listener's, else its Gateway's; the policy replaces, never
 * merges with, a less specific one. Fails closed: the routes under a policy that does not pass its checks refuse
 * every request (403) rather than being served without the protection it asks for.
 */
final class SecurityPolicies {

  static final String KIND = SecurityPolicySpec.KIND;
  static final String INVALID = "Invalid";
  static final String CONFLICTED = "Conflicted";
  static final String TARGET_NOT_FOUND = "TargetNotFound";
  static final String JWKS_UPSTREAM_NOT_FOUND = "JwksUpstreamNotFound";
  static final String EXT_AUTHZ_UPSTREAM_NOT_FOUND = "ExtAuthzUpstreamNotFound";
  static final String OAUTH2_UPSTREAM_NOT_FOUND = "OAuth2UpstreamNotFound";

  /** No policy: routes keep the security they have. */
  static final SecurityPolicies NONE = new SecurityPolicies(Map.of(), Map.of());

  /** The policies holding targets: valid ones with their options, invalid ones as empty. */
  private final Map<Target, ResourceKey> holders;
  private final Map<ResourceKey, Optional<SecurityOptions>> policies;

  private SecurityPolicies(Map<Target, ResourceKey> holders, Map<ResourceKey, Optional<SecurityOptions>> policies) {
    this.holders = holders;
    this.policies = policies;
  }

  /**
   * Reads every SecurityPolicy of {@code input}, resolves its targets among {@code gateways} (Holdfast's own) and
   * {@code routes} (the routes there are), and records each policy's status in {@code builder}. Every policy is
   * read, none left out silently (a policy left out would leave its routes unprotected): the work is linear in the
   * policies, each with at most {@link SecurityPolicySpec#MAX_TARGET_REFS} targets, so the config source's bound
   * on objects bounds it.
   */
  static SecurityPolicies of(GatewayConfig input, Map<ResourceKey, OwnGateway> gateways, Set<ResourceKey> routes,
      IrBuilder builder) {
    List<ApiObject> objects = input.apiObjectsOf(HoldfastKinds.GROUP).stream()
        .filter(o -> o.key().kind().equals(KIND)).toList();
    if (objects.isEmpty()) {
      return NONE;
    }
    Set<ResourceKey> upstreams = input.upstreams().stream().map(u -> u.key())
        .collect(Collectors.toCollection(java.util.TreeSet::new));
    Map<ResourceKey, Optional<SecurityOptions>> policies = new TreeMap<>();
    Map<ResourceKey, List<Finding>> findings = new TreeMap<>();
    List<SecurityPolicyTargets.Candidate> candidates = new ArrayList<>();
    Map<ResourceKey, ApiObject> byKey = new LinkedHashMap<>();
    for (ApiObject object : objects) {
      byKey.put(object.key(), object);
      List<Finding> found = new ArrayList<>();
      Optional<SecurityOptions> options = read(object, upstreams, found).filter(o ->
          OAuth2Policies.resolved(object.key(), o, upstreams, input, found));
      options.ifPresent(o -> OAuth2Policies.warnGrpc(o, refs(object), found));
      policies.put(object.key(), options);
      findings.put(object.key(), found);
      candidates.add(new SecurityPolicyTargets.Candidate(object.key(), created(object), refs(object)));
    }
    SecurityPolicyTargets.Resolution resolution = SecurityPolicyTargets.resolve(candidates,
        target -> exists(target, gateways, routes));
    for (ApiObject object : objects) {
      builder.status(status(object, policies.get(object.key()).isPresent(), findings.get(object.key()),
          resolution.results().getOrDefault(object.key(), List.of())), created(object));
    }
    // The generic secrets of the OAuth2 logins of the policies that apply somewhere (their routes name them).
    new java.util.TreeSet<>(resolution.holders().values()).forEach(policy -> policies.get(policy).ifPresent(
        options -> OAuth2Lowering.secrets(policy, "spec.oauth2", options, input).forEach(builder::add)));
    return new SecurityPolicies(resolution.holders(), policies);
  }

  /** {@code route} (on {@code listener} of {@code gateway}) with the security of the policy that applies, if any. */
  Route apply(ResourceKey gateway, String listener, Route route) {
    if (holders.isEmpty()) {
      return route;
    }
    Optional<ResourceKey> policy = Optional.ofNullable(holders.get(new Target(route.origin().object(),
            Optional.empty())))
        .or(() -> Optional.ofNullable(holders.get(new Target(gateway, Optional.of(listener)))))
        .or(() -> Optional.ofNullable(holders.get(new Target(gateway, Optional.empty()))));
    if (policy.isEmpty()) {
      return route;
    }
    RouteSecurity security = policies.get(policy.get())
        .map(options -> SecurityOptionsLowering.route(policy.get(), options, SecurityOptions.NONE))
        .orElseGet(SecurityOptionsLowering::denyAll);
    return route.withSecurity(security);
  }

  /** The providers the routes of {@code hosts} name, for their chain. */
  ListenerSecurity listenerSecurity(List<VirtualHost> hosts) {
    if (holders.isEmpty()) {
      return ListenerSecurity.NONE;
    }
    Map<String, ListenerSecurity.JwtProvider> used = new LinkedHashMap<>();
    Map<String, ListenerSecurity.ExtAuthzService> services = new LinkedHashMap<>();
    Map<String, OAuth2Login> logins = new LinkedHashMap<>();
    for (ResourceKey policy : new java.util.TreeSet<>(holders.values())) {
      policies.get(policy).ifPresent(options -> {
        SecurityOptionsLowering.providers(policy, options).forEach(p -> used.putIfAbsent(p.name(), p));
        SecurityOptionsLowering.extAuthz(policy, options).ifPresent(a -> services.putIfAbsent(a.name(), a));
        OAuth2Lowering.login(policy, options).ifPresent(l -> logins.putIfAbsent(l.name(), l));
      });
    }
    Set<String> named = new java.util.HashSet<>();
    Set<String> namedLogins = new java.util.HashSet<>();
    hosts.forEach(h -> h.routes().forEach(r -> {
      named.addAll(r.security().providers());
      r.security().extAuthz().ifPresent(named::add);
      r.security().oauth2().ifPresent(namedLogins::add);
    }));
    return new ListenerSecurity(used.values().stream().filter(p -> named.contains(p.name())).toList(),
        services.values().stream().filter(a -> named.contains(a.name())).toList(),
        logins.values().stream().filter(l -> namedLogins.contains(l.name())).toList());
  }

  private static Optional<SecurityOptions> read(ApiObject object, Set<ResourceKey> upstreams, List<Finding> found) {
    List<Problem> problems = new ArrayList<>();
    Optional<SecurityPolicySpec> spec = SecurityPolicySpec.parse(object.at("/spec"), problems);
    problems.forEach(p -> found.add(new Finding(Finding.Severity.ERROR, p.field(), p.reason(), p.message())));
    if (spec.isEmpty()) {
      return Optional.empty();
    }
    SecurityChecks.checkDefinitions(spec.get().security(), "spec", new SecurityChecks.Report() {
      @Override
      public void error(String field, String reason, String message) {
        found.add(new Finding(Finding.Severity.ERROR, field, reason, message));
      }

      @Override
      public void warn(String field, String reason, String message) {
        found.add(new Finding(Finding.Severity.WARNING, field, reason, message));
      }

      @Override
      public InputLimits limits() {
        return InputLimits.DEFAULTS;
      }
    });
    List<SecurityOptions.JwtProvider> providers = spec.get().security().jwtProviders();
    for (int i = 0; i < providers.size() && i < SecurityChecks.MAX_JWT_PROVIDERS; i++) {
      providers.get(i).remoteJwks().ifPresent(remote -> {
        ResourceKey upstream = remote.upstream().resolve(ResourceKey.UPSTREAM, object.key().namespace());
        if (!upstreams.contains(upstream)) {
          found.add(new Finding(Finding.Severity.ERROR, "spec.jwtProviders.remoteJwks.upstream",
              JWKS_UPSTREAM_NOT_FOUND, "Upstream " + upstream.namespace() + "/" + upstream.name()
              + " does not exist"));
        }
      });
    }
    spec.get().security().extAuthz().flatMap(a -> a.grpc().or(() -> a.http().map(SecurityOptions.HttpAuthz::upstream)))
        .map(ref -> ref.resolve(ResourceKey.UPSTREAM, object.key().namespace()))
        .filter(upstream -> !upstreams.contains(upstream))
        .ifPresent(upstream -> found.add(new Finding(Finding.Severity.ERROR, "spec.extAuthz", EXT_AUTHZ_UPSTREAM_NOT_FOUND,
            "Upstream " + upstream.namespace() + "/" + upstream.name() + " does not exist")));
    boolean errors = found.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR);
    return errors ? Optional.empty() : Optional.of(spec.get().security());
  }

  /** The references as written, read leniently so an invalid policy still fails closed on its targets. */
  private static List<SecurityPolicyTargets.Ref> refs(ApiObject object) {
    List<SecurityPolicyTargets.Ref> refs = new ArrayList<>();
    JsonNode list = object.at("/spec/targetRefs");
    for (int i = 0; list.isArray() && i < list.size() && i < SecurityPolicySpec.MAX_TARGET_REFS; i++) {
      JsonNode ref = list.get(i);
      String name = ref.path("name").asString("");
      String kind = ref.path("kind").asString("");
      if (name.isEmpty() || kind.isEmpty()) {
        continue;
      }
      String section = ref.path("sectionName").asString("");
      refs.add(new SecurityPolicyTargets.Ref(ref.path("group").asString(GatewayApiFrontEnd.GROUP), kind, name,
          section.isEmpty() ? Optional.empty() : Optional.of(section)));
    }
    return refs;
  }

  private static boolean exists(Target target, Map<ResourceKey, OwnGateway> gateways, Set<ResourceKey> routes) {
    if (target.object().kind().equals(SecurityPolicyTargets.GATEWAY)) {
      OwnGateway gateway = gateways.get(target.object());
      return gateway != null && target.section()
          .map(s -> gateway.listeners().stream().anyMatch(l -> l.name.equals(s))).orElse(true);
    }
    return routes.contains(target.object());
  }

  /** Accepted overall unless the spec is invalid; one ancestor per reference, with its own Accepted condition. */
  private static ObjectStatus status(ApiObject object, boolean valid, List<Finding> findings,
      List<SecurityPolicyTargets.Result> results) {
    long generation = object.generation();
    String invalid = ObjectStatus.of(object.key(), generation, findings).condition(Condition.ACCEPTED).message();
    List<Condition> conditions = new ArrayList<>();
    List<Finding> all = new ArrayList<>(findings);
    for (SecurityPolicyTargets.Result result : results) {
      Condition condition = switch (result.outcome()) {
        case ATTACHED -> valid
            ? new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED,
                "the policy applies to this target's routes", generation)
            : new Condition(Condition.ACCEPTED, Condition.Status.FALSE, INVALID, "the policy is invalid, so this"
                + " target's routes refuse every request until it is fixed: " + invalid, generation);
        case CONFLICTED -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE, CONFLICTED,
            "an older SecurityPolicy, " + result.holder().map(ResourceKey::name).orElse("?")
                + ", already targets it", generation);
        case TARGET_NOT_FOUND -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE, TARGET_NOT_FOUND,
            result.target().object().kind() + " " + result.target().object().name()
                + result.target().section().map(s -> " listener " + s).orElse("")
                + " does not exist in namespace " + object.key().namespace() + " (or is not Holdfast's)",
            generation);
        case INVALID_KIND -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE, INVALID,
            "a SecurityPolicy targets a Gateway (optionally a listener by sectionName), an HTTPRoute or a"
                + " GRPCRoute of " + GatewayApiFrontEnd.GROUP, generation);
      };
      conditions.add(condition);
      if (condition.status() == Condition.Status.FALSE && result.outcome() != Outcome.ATTACHED) {
        // Also a finding, so the one-line views (holdfast validate, /state) show what a target's status says.
        all.add(new Finding(Finding.Severity.WARNING, "spec.targetRefs", condition.reason(), condition.message()));
      }
    }
    ObjectStatus status = ObjectStatus.of(object.key(), generation, all);
    for (int i = 0; i < results.size(); i++) {
      status = status.withParent(new ParentStatus(results.get(i).target().object(), results.get(i).target().section(),
          List.of(conditions.get(i))));
    }
    return status;
  }

  private static Optional<Instant> created(ApiObject object) {
    String stamp = object.at("/metadata/creationTimestamp").asString("");
    if (stamp.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(stamp));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
