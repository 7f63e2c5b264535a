package io.holdfast.frontend.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Candidate;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Outcome;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Ref;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Resolution;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Result;
import io.holdfast.frontend.gatewayapi.SecurityPolicyTargets.Target;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** GEP-713 target resolution: oldest holds a target, same namespace only, unknown targets and kinds reported. */
class SecurityPolicyTargetsTest {

  private static final String G = GatewayApiFrontEnd.GROUP;
  private static final ResourceKey GATEWAY = new ResourceKey(G, "Gateway", "web", "edge");
  private static final ResourceKey ROUTE = new ResourceKey(G, "HTTPRoute", "web", "store");
  private static final Set<Target> EXISTING = Set.of(new Target(GATEWAY, Optional.empty()),
      new Target(GATEWAY, Optional.of("http")), new Target(ROUTE, Optional.empty()));

  private static Candidate policy(String name, String created, Ref... refs) {
    return new Candidate(new ResourceKey("gateway.holdfast.io", "SecurityPolicy", "web", name),
        Optional.of(Instant.parse(created)), List.of(refs));
  }

  private static Ref gateway(String section) {
    return new Ref(G, "Gateway", "edge", Optional.ofNullable(section));
  }

  @Test
  void theOldestPolicyHoldsATargetWhateverTheOrderGiven() {
    Candidate older = policy("older", "2026-01-01T00:00:00Z", gateway(null));
    Candidate younger = policy("younger", "2026-02-01T00:00:00Z", gateway(null), gateway("http"));
    List<Candidate> candidates = new ArrayList<>(List.of(younger, older));
    for (int i = 0; i < 2; i++) {
      Resolution resolution = SecurityPolicyTargets.resolve(candidates, EXISTING::contains);
      assertThat(resolution.holders()).containsEntry(new Target(GATEWAY, Optional.empty()), older.policy())
          .containsEntry(new Target(GATEWAY, Optional.of("http")), younger.policy());
      assertThat(resolution.results().get(younger.policy())).extracting(Result::outcome)
          .containsExactly(Outcome.CONFLICTED, Outcome.ATTACHED);
      assertThat(resolution.results().get(younger.policy()).get(0).holder()).contains(older.policy());
      Collections.reverse(candidates);
    }
  }

  @Test
  void missingTargetsAndForeignKindsAreReported() {
    Candidate policy = policy("p", "2026-01-01T00:00:00Z", gateway("https"),
        new Ref(G, "HTTPRoute", "missing", Optional.empty()), new Ref(G, "TCPRoute", "t", Optional.empty()),
        new Ref("example.test", "Gateway", "edge", Optional.empty()),
        new Ref(G, "HTTPRoute", "store", Optional.of("rule-1")),
        new Ref(G, "HTTPRoute", "store", Optional.empty()));
    Resolution resolution = SecurityPolicyTargets.resolve(List.of(policy), EXISTING::contains);
    assertThat(resolution.results().get(policy.policy())).extracting(Result::outcome).containsExactly(
        Outcome.TARGET_NOT_FOUND, Outcome.TARGET_NOT_FOUND, Outcome.INVALID_KIND, Outcome.INVALID_KIND,
        Outcome.INVALID_KIND, Outcome.ATTACHED);
    assertThat(resolution.holders()).containsOnlyKeys(new Target(ROUTE, Optional.empty()));
  }

  @Test
  void aPolicyReachesOnlyItsOwnNamespace() {
    Candidate elsewhere = new Candidate(new ResourceKey("gateway.holdfast.io", "SecurityPolicy", "other", "p"),
        Optional.empty(), List.of(gateway(null)));
    Resolution resolution = SecurityPolicyTargets.resolve(List.of(elsewhere), EXISTING::contains);
    assertThat(resolution.results().get(elsewhere.policy())).extracting(Result::outcome)
        .containsExactly(Outcome.TARGET_NOT_FOUND);
    assertThat(resolution.results().get(elsewhere.policy()).get(0).target().object().namespace())
        .isEqualTo("other");
  }
}
