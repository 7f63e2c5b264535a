package io.holdfast.election;

/**
 * Handed to fenced leader-only work. The work re-checks it right before each externally visible write, so
 * work that outlives its term (a demotion, a long GC pause) stops instead of writing as a stale leader.
 */
public interface Fence {
  /** The term the work started in. */
  Term term();

  /** True while this replica still leads in {@link #term()} and its renew deadline has not passed. */
  boolean isValid();

  /**
   * Time left before this fence expires, by this replica's clock; zero once it is invalid. Leader-only
   * requests cap their timeout at this, so no request is still waiting for an answer past the fence.
   */
  java.time.Duration timeLeft();

  /** Throws {@link LeadershipLostException} unless {@link #isValid()}. */
  default void check() {
    if (!isValid()) {
      throw new LeadershipLostException(term());
    }
  }

  /** Leader-only work run by {@link Leadership#runIfLeader}. */
  @FunctionalInterface
  interface FencedAction {
    void run(Fence fence);
  }

  /** Thrown by {@link Fence#check()} when the term is over. */
  final class LeadershipLostException extends RuntimeException {
    public LeadershipLostException(Term term) {
      super("leadership term " + term + " is over", null, false, false);
    }
  }
}
