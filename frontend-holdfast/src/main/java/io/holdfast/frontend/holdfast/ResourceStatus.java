package io.holdfast.frontend.holdfast;

import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
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
   * else ACCEPTED; the problems are its findings in order (errors, warnings, notes).
   */
  public static ResourceStatus of(ObjectStatus status) {
    List<Problem> problems = status.findings().stream()
        .map(f -> new Problem(f.field(), f.reason(), f.message())).toList();
    State state = !status.isAccepted() ? State.REJECTED : problems.isEmpty() ? State.ACCEPTED : State.WARNING;
    return new ResourceStatus(status.key(), status.observedGeneration(), state, problems);
  }

  /** True if the resource is served (accepted or warned). */
  public boolean isServed() {
    return state != State.REJECTED;
  }
}
