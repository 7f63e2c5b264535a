package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ManifestError;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What a build logs of its verdicts: what changed since the last build, not every standing rejection again. */
class VerdictLogTest {

  private static final ResourceKey A = ResourceKey.virtualService("default", "a");
  private static final ResourceKey B = ResourceKey.virtualService("default", "b");
  private static final Problem BOMB = new Problem("spec.routes[0].match.regex", "RegexTooComplex", "too complex");

  private static ResourceStatus status(ResourceKey key, ResourceStatus.State state, Problem... problems) {
    return new ResourceStatus(key, 1, state, List.of(problems));
  }

  private static Map<ResourceKey, ResourceStatus> build(ResourceStatus... statuses) {
    Map<ResourceKey, ResourceStatus> out = new TreeMap<>();
    for (ResourceStatus s : statuses) {
      out.put(s.key(), s);
    }
    return out;
  }

  @Test
  void aStandingRejectionIsLoggedOnceAndItsEndOnce() {
    var first = build(status(A, ResourceStatus.State.REJECTED, BOMB), status(B, ResourceStatus.State.ACCEPTED));
    assertThat(ConfigPipeline.changedVerdicts(Map.of(), first, Set.of(), List.of()))
        .containsExactly("resource " + A + " REJECTED: " + List.of(BOMB));
    // An unrelated edit: nothing to say about A again.
    assertThat(ConfigPipeline.changedVerdicts(first, first, Set.of(), List.of())).isEmpty();
    var fixed = build(status(A, ResourceStatus.State.ACCEPTED), status(B, ResourceStatus.State.ACCEPTED));
    assertThat(ConfigPipeline.changedVerdicts(first, fixed, Set.of(), List.of()))
        .containsExactly("resource " + A + " ACCEPTED (was REJECTED)");
  }

  @Test
  void otherProblemsOnTheSameObjectAreNews() {
    var first = build(status(A, ResourceStatus.State.REJECTED, BOMB));
    Problem other = new Problem("spec.domains[0]", "InvalidDomain", "bad");
    var second = build(status(A, ResourceStatus.State.REJECTED, other));
    assertThat(ConfigPipeline.changedVerdicts(first, second, Set.of(), List.of())).singleElement()
        .asString().contains("InvalidDomain");
  }

  @Test
  void aManifestErrorIsLoggedWhenItAppears() {
    ManifestError error = new ManifestError("a.yaml", 3, 1, "invalid YAML");
    var none = build();
    assertThat(ConfigPipeline.changedVerdicts(none, none, Set.of(), List.of(error))).hasSize(1);
    assertThat(ConfigPipeline.changedVerdicts(none, none, Set.of(error), List.of(error))).isEmpty();
  }
}
