package io.holdfast.election;

import java.util.Objects;

/**
 * A fencing token: one term of leadership. Every acquisition by this elector increments the lease's
 * transition count, even when re-acquiring its own stale record, so no two terms compare equal and work
 * started under an old term can tell that it is stale.
 */
public record Term(long transitions, String holder) {
  public Term {
    Objects.requireNonNull(holder, "holder");
    if (transitions < 0) {
      throw new IllegalArgumentException("transitions must be >= 0, was " + transitions);
    }
  }

  @Override
  public String toString() {
    return holder + "#" + transitions;
  }
}
