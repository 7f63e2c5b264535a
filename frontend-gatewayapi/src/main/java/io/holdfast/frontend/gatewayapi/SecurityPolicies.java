package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.InputLimits;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecretChecks;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.SecurityPolicySpec;
import io.holdfast.frontend.gatewayapi.RouteAttachment.OwnGateway;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Outcome;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Policy;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Target;
import io.holdfast.frontend.options.BasicAuthLowering;
import io.holdfast.frontend.options.OAuth2Lowering;
import io.holdfast.frontend.options.SecretLookup;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Holdfast's {@code SecurityPolicy} kind on the Gateway API: each policy is read and checked
 * ({@link SecurityChecks}, as a VirtualService's security options), its targets resolved ({@link PolicyTargets}
 * under {@link #RULES}), and its status written in the policy-status shape: one ancestor per target
 * with an Accepted condition (Accepted, Conflicted, TargetNotFound, Invalid). A route gets the policy of the most
 * specific target that holds it: its own, else its listener's, else its Gateway's; the policy replaces, never
 * merges with, a less specific one. A route rule may name a policy in an {@code ExtensionRef} filter
 * ({@link RulePolicies}): that policy then applies to the rule before any attached one, and needs no
 * {@code targetRefs}. Fails closed: the routes under a policy that does not pass its checks refuse
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

  static final String GATEWAY = GatewayApiFrontEnd.GROUP + "/Gateway";
  static final List<String> ROUTE_KINDS = List.of("HTTPRoute", "GRPCRoute");
  /**
   * A Gateway, one of its listeners, or a whole HTTPRoute or GRPCRoute. Lenient: a reference it cannot take is
   * Invalid on its own and the others still resolve, so an invalid policy keeps (and fails closed on) what it can.
   */
  static final PolicyTargets.Rules RULES = new PolicyTargets.Rules(Set.of(GATEWAY,
      GatewayApiFrontEnd.GROUP + "/HTTPRoute", GatewayApiFrontEnd.GROUP + "/GRPCRoute"), Set.of(GATEWAY), false,
      true);

  /** No policy: routes keep the security they have. */
  static final SecurityPolicies NONE = new SecurityPolicies(new PolicyTargets.Resolution(Map.of(), Map.of()),
      Map.of(), owner -> SecretLookup.NONE);

  /** The policies holding targets: valid ones with their options, invalid ones as empty. */
  private final PolicyTargets.Resolution resolution;
  private final Map<ResourceKey, Optional<SecurityOptions>> policies;
  /** The Secret entries each policy may read (its own namespace's, or another's a ReferenceGrant grants). */
  private final java.util.function.Function<ResourceKey, SecretLookup> secrets;

  private SecurityPolicies(PolicyTargets.Resolution resolution, Map<ResourceKey, Optional<SecurityOptions>> policies,
      java.util.function.Function<ResourceKey, SecretLookup> secrets) {
    this.resolution = resolution;
    this.policies = policies;
    this.secrets = secrets;
  }

  /**
   * Reads every SecurityPolicy of {@code input}, resolves its targets among {@code gateways} (Holdfast's own) and
   * {@code routes} (the routes there are), and records each policy's status in {@code builder}. Every policy is
   * read, none left out silently (a policy left out would leave its routes unprotected): the work is linear in the
   * policies, each with at most {@link SecurityPolicySpec#MAX_TARGET_REFS} targets, so the config source's bound
   * on objects bounds it.
   */
  static SecurityPolicies of(GatewayConfig input, ReferenceGrants grants, Map<ResourceKey, OwnGateway> gateways,
      Set<ResourceKey> routes, Map<ResourceKey, SortedSet<ResourceKey>> ruleUsers, IrBuilder builder) {
    List<ApiObject> objects = input.apiObjectsOf(HoldfastKinds.GROUP).stream()
        .filter(o -> o.key().kind().equals(KIND)).toList();
    if (objects.isEmpty()) {
      return NONE;
    }
    Set<ResourceKey> upstreams = input.upstreams().stream().map(u -> u.key())
        .collect(Collectors.toCollection(java.util.TreeSet::new));
    Map<ResourceKey, Optional<SecurityOptions>> policies = new TreeMap<>();
    Map<ResourceKey, List<Finding>> findings = new TreeMap<>();
    List<Policy> candidates = new ArrayList<>();
    for (ApiObject object : objects) {
      List<Finding> found = new ArrayList<>();
      Policy candidate = PolicyTargets.read(object, RULES);
      Optional<SecurityOptions> options = read(object, upstreams, input, grants, found);
      options.ifPresent(o -> OAuth2Policies.warnGrpc(o, candidate.targets(), found));
      policies.put(object.key(), options);
      findings.put(object.key(), found);
      candidates.add(candidate);
    }
    // Invalid policies resolve too: they hold their targets and fail closed there.
    PolicyTargets.Resolution resolution = PolicyTargets.resolve(candidates,
        target -> exists(target, gateways, routes), target -> Optional.empty());
    for (Policy policy : candidates) {
      builder.status(status(policy, policies.get(policy.object().key()).isPresent(),
          findings.get(policy.object().key()), resolution,
          ruleUsers.getOrDefault(policy.object().key(), Collections.emptySortedSet())), policy.created());
    }
    java.util.function.Function<ResourceKey, SecretLookup> secrets = owner -> (secret, entry) ->
        refusal(owner, secret, grants).isPresent() ? Optional.empty()
            : input.secretOf(secret).map(data -> data.entries().get(entry));
    // The generic secrets of the valid policies' OAuth2 logins, read as the policy may read them (a ReferenceGrant
    // for another namespace's); a proxy's scope holds those its routes use.
    policies.forEach((policy, options) -> options.ifPresent(
        o -> OAuth2Lowering.secrets(policy, "spec.oauth2", o, secrets.apply(policy)).forEach(builder::add)));
    return new SecurityPolicies(resolution, policies, secrets);
  }

  /** Why the SecurityPolicy {@code owner} may not read {@code secret}, or empty if it may. */
  private static Optional<String> refusal(ResourceKey owner, ResourceKey secret, ReferenceGrants grants) {
    boolean permitted = grants.permits(new ReferenceGrants.Reference(HoldfastKinds.GROUP, KIND, owner.namespace(),
        ResourceKey.CORE_GROUP, secret.kind(), secret.namespace(), secret.name()));
    return permitted ? Optional.empty() : Optional.of("no ReferenceGrant in namespace " + secret.namespace()
        + " lets SecurityPolicies of namespace " + owner.namespace() + " use Secret " + secret.name());
  }

  /**
   * {@code route} (on {@code listener} of {@code gateway}) with the security of the policy that applies, if any: the
   * one its rule names ({@code ruleChoice}, an ExtensionRef filter), else the most specific attached one.
   */
  Route apply(ResourceKey gateway, String listener, Route route, Optional<ResourceKey> ruleChoice) {
    if (policies.isEmpty()) {
      return route;
    }
    Optional<ResourceKey> policy = ruleChoice.filter(policies::containsKey).or(() -> resolution.effective(List.of(
        new Target(route.origin().object(), Optional.empty()), new Target(gateway, Optional.of(listener)),
        new Target(gateway, Optional.empty()))).map(p -> p.object().key()));
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
    if (policies.isEmpty()) {
      return ListenerSecurity.NONE;
    }
    Map<String, ListenerSecurity.JwtProvider> used = new LinkedHashMap<>();
    Map<String, ListenerSecurity.ExtAuthzService> services = new LinkedHashMap<>();
    Map<String, ListenerSecurity.BasicAuthUsers> users = new LinkedHashMap<>();
    Map<String, OAuth2Login> logins = new LinkedHashMap<>();
    // Every policy, attached or named by a rule: only the providers some route of these hosts names are kept.
    for (ResourceKey policy : policies.keySet()) {
      policies.get(policy).ifPresent(options -> {
        SecurityOptionsLowering.providers(policy, options, secrets.apply(policy))
            .forEach(p -> used.putIfAbsent(p.name(), p));
        SecurityOptionsLowering.extAuthz(policy, options).ifPresent(a -> services.putIfAbsent(a.name(), a));
        BasicAuthLowering.users(policy, options, secrets.apply(policy))
            .ifPresent(b -> users.putIfAbsent(b.name(), b));
        OAuth2Lowering.login(policy, options).ifPresent(l -> logins.putIfAbsent(l.name(), l));
      });
    }
    Set<String> named = new java.util.HashSet<>();
    Set<String> namedUsers = new java.util.HashSet<>();
    Set<String> namedLogins = new java.util.HashSet<>();
    hosts.forEach(h -> h.routes().forEach(r -> {
      named.addAll(r.security().providers());
      r.security().extAuthz().ifPresent(named::add);
      r.security().basicAuth().ifPresent(namedUsers::add);
      r.security().oauth2().ifPresent(namedLogins::add);
    }));
    return new ListenerSecurity(used.values().stream().filter(p -> named.contains(p.name())).toList(),
        services.values().stream().filter(a -> named.contains(a.name())).toList(),
        users.values().stream().filter(b -> namedUsers.contains(b.name())).toList(),
        logins.values().stream().filter(l -> namedLogins.contains(l.name())).toList());
  }

  private static Optional<SecurityOptions> read(ApiObject object, Set<ResourceKey> upstreams, GatewayConfig input,
      ReferenceGrants grants, List<Finding> found) {
    List<Problem> problems = new ArrayList<>();
    Optional<SecurityPolicySpec> spec = SecurityPolicySpec.parse(object.at("/spec"), problems);
    problems.forEach(p -> found.add(new Finding(Finding.Severity.ERROR, p.field(), p.reason(), p.message())));
    if (spec.isEmpty()) {
      return Optional.empty();
    }
    SecurityChecks.Report report = new SecurityChecks.Report() {
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
    };
    SecurityChecks.checkDefinitions(spec.get().security(), "spec", report);
    SecretChecks.check(spec.get().security(), "spec", object.key().namespace(),
        secret -> refusal(object.key(), secret, grants), input::secretOf, report);
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
    OAuth2Policies.checkTokenEndpoint(object.key(), spec.get().security(), upstreams, found);
    boolean errors = found.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR);
    return errors ? Optional.empty() : Optional.of(spec.get().security());
  }

  private static boolean exists(Target target, Map<ResourceKey, OwnGateway> gateways, Set<ResourceKey> routes) {
    if (target.object().kind().equals("Gateway")) {
      OwnGateway gateway = gateways.get(target.object());
      return gateway != null && target.section()
          .map(s -> gateway.listeners().stream().anyMatch(l -> l.name.equals(s))).orElse(true);
    }
    return routes.contains(target.object());
  }

  /** Accepted overall unless the spec is invalid; one ancestor per target, with its own Accepted condition. */
  private static ObjectStatus status(Policy policy, boolean valid, List<Finding> findings,
      PolicyTargets.Resolution resolution, SortedSet<ResourceKey> users) {
    ApiObject object = policy.object();
    long generation = object.generation();
    String invalid = ObjectStatus.of(object.key(), generation, findings).condition(Condition.ACCEPTED).message();
    Map<Target, Outcome> outcomes = resolution.outcomes().getOrDefault(object.key(), Map.of());
    List<ParentStatus> ancestors = new ArrayList<>();
    List<Finding> all = new ArrayList<>(findings);
    for (Target target : policy.targets()) {
      Outcome outcome = outcomes.getOrDefault(target, new Outcome(TARGET_NOT_FOUND, ""));
      Condition condition = switch (outcome.reason()) {
        case PolicyTargets.ACCEPTED -> valid
            ? new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED,
                "the policy applies to this target's routes", generation)
            : new Condition(Condition.ACCEPTED, Condition.Status.FALSE, INVALID, "the policy is invalid, so this"
                + " target's routes refuse every request until it is fixed: " + invalid, generation);
        case PolicyTargets.CONFLICTED -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE, CONFLICTED,
            "an older SecurityPolicy, " + Optional.ofNullable(resolution.winners().get(target))
                .map(p -> p.object().key().name()).orElse("?") + ", already targets it", generation);
        case PolicyTargets.TARGET_NOT_FOUND -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE,
            TARGET_NOT_FOUND, target.object().kind() + " " + target.object().name()
                + target.section().map(s -> " listener " + s).orElse("")
                + " does not exist in namespace " + object.key().namespace() + " (or is not Holdfast's)",
            generation);
        default -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE, INVALID,
            "a SecurityPolicy targets a Gateway (optionally a listener by sectionName), an HTTPRoute or a"
                + " GRPCRoute of " + GatewayApiFrontEnd.GROUP, generation);
      };
      if (!outcome.accepted()) {
        // Also a finding, so the one-line views (holdfast validate, /state) show what a target's status says.
        all.add(new Finding(Finding.Severity.WARNING, "spec.targetRefs", condition.reason(), condition.message()));
      }
      ancestors.add(new ParentStatus(target.object(), target.section(), List.of(condition)));
    }
    for (ResourceKey route : users) {
      ancestors.add(new ParentStatus(route, Optional.empty(), List.of(valid
          ? new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED, "the policy applies to the"
              + " rules of this route that name it in an ExtensionRef filter", generation)
          : new Condition(Condition.ACCEPTED, Condition.Status.FALSE, INVALID, "the policy is invalid, so the rules"
              + " of this route that name it refuse every request until it is fixed: " + invalid, generation))));
    }
    if (policy.targets().isEmpty() && users.isEmpty() && policy.invalid().isEmpty()) {
      all.add(new Finding(Finding.Severity.WARNING, "spec.targetRefs", PolicyTargets.NO_TARGETS, "the policy has no"
          + " targetRefs and no route names it in an ExtensionRef filter: it applies nowhere"));
    }
    ObjectStatus status = ObjectStatus.of(object.key(), generation, all);
    for (ParentStatus ancestor : ancestors) {
      status = status.withParent(ancestor);
    }
    return status;
  }
}
