package io.holdfast.frontend.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ApiObject;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Outcome;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Policy;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Resolution;
import io.holdfast.frontend.gatewayapi.PolicyTargets.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * GEP-713 target resolution shared by every policy kind: oldest holds a target, same namespace only, unknown targets
 * and kinds reported; a lenient kind (SecurityPolicy) refuses a bad reference alone, a strict one (TrafficPolicy)
 * the whole policy.
 */
class PolicyTargetsTest {

  private static final String G = GatewayApiFrontEnd.GROUP;
  private static final ResourceKey GATEWAY = new ResourceKey(G, "Gateway", "web", "edge");
  private static final ResourceKey ROUTE = new ResourceKey(G, "HTTPRoute", "web", "store");
  private static final Set<Target> EXISTING = Set.of(new Target(GATEWAY, Optional.empty()),
      new Target(GATEWAY, Optional.of("http")), new Target(ROUTE, Optional.empty()));

  private static ApiObject object(String namespace, String name, String created, String refs) {
    return Fixtures.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: %s, namespace: %s%s}
        spec: {targetRefs: %s}
        """.formatted(name, namespace, created.isEmpty() ? "" : ", creationTimestamp: \"" + created + "\"", refs))
        .apiObjectsOf(PolicyKinds.GROUP).get(0);
  }

  private static String gateway(String section) {
    return "{group: " + G + ", kind: Gateway, name: edge" + (section == null ? "" : ", sectionName: " + section)
        + "}";
  }

  private static Resolution resolve(List<Policy> policies) {
    return PolicyTargets.resolve(policies, EXISTING::contains, target -> Optional.empty());
  }

  private static List<String> reasons(Resolution resolution, Policy policy) {
    return resolution.outcomes().get(policy.object().key()).values().stream().map(Outcome::reason).toList();
  }

  @Test
  void theOldestPolicyHoldsATargetWhateverTheOrderGiven() {
    Policy older = PolicyTargets.read(object("web", "older", "2026-01-01T00:00:00Z", "[" + gateway(null) + "]"),
        SecurityPolicies.RULES);
    Policy younger = PolicyTargets.read(object("web", "younger", "2026-02-01T00:00:00Z",
        "[" + gateway(null) + ", " + gateway("http") + "]"), SecurityPolicies.RULES);
    List<Policy> policies = new ArrayList<>(List.of(younger, older));
    for (int i = 0; i < 2; i++) {
      Resolution resolution = resolve(policies);
      assertThat(resolution.winners().get(new Target(GATEWAY, Optional.empty()))).isSameAs(older);
      assertThat(resolution.winners().get(new Target(GATEWAY, Optional.of("http")))).isSameAs(younger);
      assertThat(reasons(resolution, younger)).containsExactly(PolicyTargets.CONFLICTED, PolicyTargets.ACCEPTED);
      assertThat(resolution.outcomes().get(younger.object().key()).get(new Target(GATEWAY, Optional.empty()))
          .message()).contains("older");
      Collections.reverse(policies);
    }
  }

  @Test
  void aLenientKindRefusesEachBadReferenceAloneAndResolvesTheRest() {
    Policy policy = PolicyTargets.read(object("web", "p", "2026-01-01T00:00:00Z", "[" + gateway("https") + ","
        + " {group: " + G + ", kind: HTTPRoute, name: missing}, {group: " + G + ", kind: TCPRoute, name: t},"
        + " {group: example.test, kind: Gateway, name: edge},"
        + " {group: " + G + ", kind: HTTPRoute, name: store, sectionName: rule-1},"
        + " {group: " + G + ", kind: HTTPRoute, name: store}]"), SecurityPolicies.RULES);
    Resolution resolution = resolve(List.of(policy));
    assertThat(reasons(resolution, policy)).containsExactly(PolicyTargets.TARGET_NOT_FOUND,
        PolicyTargets.TARGET_NOT_FOUND, PolicyTargets.INVALID, PolicyTargets.INVALID, PolicyTargets.INVALID,
        PolicyTargets.ACCEPTED);
    assertThat(resolution.winners()).containsOnlyKeys(new Target(ROUTE, Optional.empty()));
  }

  @Test
  void aStrictKindRefusesTheWholePolicyForOneBadReference() {
    Policy policy = PolicyTargets.read(object("web", "p", "", "[" + gateway(null) + ", {group: " + G
        + ", kind: GRPCRoute, name: g}]"), TrafficPolicies.TRAFFIC_RULES);
    assertThat(policy.invalid()).hasValueSatisfying(m -> assertThat(m).contains("targetRefs[1]", "GRPCRoute"));
    Policy section = PolicyTargets.read(object("web", "s", "", "[{group: " + G
        + ", kind: HTTPRoute, name: store, sectionName: rule-1}, " + gateway(null) + "]"),
        TrafficPolicies.TRAFFIC_RULES);
    assertThat(section.invalid()).isEmpty();
    assertThat(reasons(resolve(List.of(section)), section))
        .containsExactly(PolicyTargets.INVALID, PolicyTargets.ACCEPTED);
  }

  @Test
  void aPolicyReachesOnlyItsOwnNamespace() {
    Policy elsewhere = PolicyTargets.read(object("other", "p", "", "[" + gateway(null) + "]"),
        SecurityPolicies.RULES);
    Resolution resolution = resolve(List.of(elsewhere));
    assertThat(reasons(resolution, elsewhere)).containsExactly(PolicyTargets.TARGET_NOT_FOUND);
    assertThat(elsewhere.targets().get(0).object().namespace()).isEqualTo("other");
  }
}
