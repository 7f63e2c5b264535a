package io.holdfast.kube.status;

import io.holdfast.election.ElectorState;
import io.holdfast.election.Fence;
import io.holdfast.election.Leadership;
import io.holdfast.election.LeadershipListener;
import io.holdfast.election.Term;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Leadership switched by the test; a term's fence stays valid until the test demotes or invalidates it, or until
 * the deadline set by {@link #fenceEndsIn} passes (by default it never does; {@code timeLeft()} then says 10 s).
 */
final class FakeLeadership implements Leadership {
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private volatile Term term;
  private volatile boolean fenceValid;
  private volatile long fenceDeadline; // System.nanoTime(); 0: no deadline
  private volatile long frozenLeft = -1; // nanos; -1: not frozen
  private long transitions;

  synchronized void elect() {
    term = new Term(transitions++, "fake");
    fenceValid = true;
    renew();
    Term t = term;
    listeners.forEach(l -> l.onElected(t));
  }

  synchronized void demote() {
    Term t = term;
    term = null;
    fenceValid = false;
    if (t != null) {
      listeners.forEach(l -> l.onDemoted(t, "test"));
    }
  }

  /** The current term's fence fails from now on, with no event: as when the renew deadline passes. */
  void expireFence() {
    fenceValid = false;
  }

  /** The current term's fence ends {@code d} from now, with no event: as a leader whose renewals fail. */
  void fenceEndsIn(java.time.Duration d) {
    fenceDeadline = System.nanoTime() + Math.max(1, d.toNanos());
  }

  /** The fence stays valid with {@code d} left, however long the test waits: a leader always at the edge. */
  void timeLeftStaysAt(java.time.Duration d) {
    frozenLeft = d.toNanos();
  }

  /** A renewal: the fence has no deadline again. */
  void renew() {
    fenceDeadline = 0;
    frozenLeft = -1;
  }

  private long nanosLeft() {
    long frozen = frozenLeft;
    if (frozen >= 0) {
      return frozen;
    }
    long deadline = fenceDeadline;
    return deadline == 0 ? java.time.Duration.ofSeconds(10).toNanos() : deadline - System.nanoTime();
  }

  @Override
  public boolean isLeader() {
    return term != null && fenceValid && nanosLeft() > 0;
  }

  @Override
  public ElectorState state() {
    return term != null ? ElectorState.LEADER : ElectorState.FOLLOWER;
  }

  @Override
  public Optional<Term> currentTerm() {
    return Optional.ofNullable(term);
  }

  @Override
  public Optional<String> observedLeader() {
    return Optional.empty();
  }

  @Override
  public String identity() {
    return "fake";
  }

  @Override
  public boolean runIfLeader(Fence.FencedAction action) {
    Term t = term;
    if (t == null || !isLeader()) {
      return false;
    }
    try {
      action.run(new Fence() {
        @Override
        public Term term() {
          return t;
        }

        @Override
        public boolean isValid() {
          return fenceValid && t.equals(term) && nanosLeft() > 0;
        }

        @Override
        public java.time.Duration timeLeft() {
          long left = nanosLeft();
          return isValid() && left > 0 ? java.time.Duration.ofNanos(left) : java.time.Duration.ZERO;
        }
      });
      return true;
    } catch (Fence.LeadershipLostException e) {
      return false;
    }
  }

  @Override
  public void addListener(LeadershipListener listener) {
    listeners.add(listener);
  }
}
