package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceStatusTest {
  private static final ResourceKey ROUTE = new ResourceKey("gateway.networking.k8s.io", "HTTPRoute", "shop", "typo");

  /**
   * Regression: {@code holdfast validate} died with "state REJECTED with 0 problems" on an HTTPRoute whose
   * Accepted condition was False without a finding (an invalid path type), and the server dropped every build.
   */
  @Test
  void aStatusRejectedByItsConditionAloneGetsThatConditionAsItsProblem() {
    ObjectStatus rejected = new ObjectStatus(ROUTE, 3, List.of(new Condition(Condition.ACCEPTED,
        Condition.Status.FALSE, "UnsupportedValue", "spec.rules[0].matches[0].path.type: Prefix is not supported", 3)),
        List.of(), List.of());

    ResourceStatus status = ResourceStatus.of(rejected);

    assertThat(status.state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status.observedGeneration()).isEqualTo(3);
    assertThat(status.problems()).containsExactly(new Problem("", "UnsupportedValue",
        "spec.rules[0].matches[0].path.type: Prefix is not supported"));
  }

  @Test
  void anAcceptedStatusWithoutFindingsHasNoProblems() {
    assertThat(ResourceStatus.of(ObjectStatus.of(ROUTE, 1, List.of())).state())
        .isEqualTo(ResourceStatus.State.ACCEPTED);
  }
}
