package io.holdfast.frontend.holdfast;

import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import java.util.Objects;

/**
 * The one-line view of an {@link ObjectStatus} that the status writer and the admin endpoints show. The verdict
 * on one resource: {@code ACCEPTED} (no problems), {@code WARNING} (served, with problems worth
 * knowing), or {@code REJECTED} (not served; errors first, then warnings).
 *
 * @param observedGeneration the metadata.generation the verdict is about (0 if the source has none)
 */
public record ResourceStatus(ResourceKey key, long observedGeneration, State state, List<Problem> problems) {

  public enum State {
    ACCEPTED, WARNING, REJECTED
  }

  public ResourceStatus {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(state, "state");
    problems = List.copyOf(problems);
    if ((state == State.ACCEPTED) != problems.isEmpty()) {
      throw new IllegalArgumentException(key + ": state " + state + " with " + problems.size() + " problems");
    }
  }

  /**
   * The view of {@code status}: REJECTED if its Accepted condition is False, else WARNING if it has findings,
   * else ACCEPTED; the problems are its findings in order (errors, warnings, notes). Total: a status rejected by
   * its conditions alone (a front end that set Accepted=False without a finding, as the Gateway API's route and
   * listener conditions do) gets one problem made of that condition's reason and message, so no rejection is
   * ever shown without a reason and no status, however a front end built it, can stop a build here.
   */
  public static ResourceStatus of(ObjectStatus status) {
    List<Problem> problems = new java.util.ArrayList<>(status.findings().stream()
        .map(f -> new Problem(f.field(), f.reason(), f.message())).toList());
    State state = !status.isAccepted() ? State.REJECTED : problems.isEmpty() ? State.ACCEPTED : State.WARNING;
    if (state == State.REJECTED && problems.isEmpty()) {
      Condition accepted = status.condition(Condition.ACCEPTED);
      problems.add(new Problem("", accepted.reason(), accepted.message()));
    }
    return new ResourceStatus(status.key(), status.observedGeneration(), state, problems);
  }

  /** True if the resource is served (accepted or warned). */
  public boolean isServed() {
    return state != State.REJECTED;
  }
}
