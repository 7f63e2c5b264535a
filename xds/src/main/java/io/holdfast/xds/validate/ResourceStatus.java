package io.holdfast.xds.validate;

import io.holdfast.xds.model.Problem;
import io.holdfast.xds.model.ResourceKey;
import java.util.List;
import java.util.Objects;

/**
 * The verdict on one resource: {@code ACCEPTED} (no problems), {@code WARNING} (served, with problems worth
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

  /** True if the resource is served (accepted or warned). */
  public boolean isServed() {
    return state != State.REJECTED;
  }
}
