package io.holdfast.kube.status;

import io.holdfast.election.ElectorState;
import io.holdfast.election.Fence;
import io.holdfast.election.Leadership;
import io.holdfast.election.LeadershipListener;
import io.holdfast.election.Term;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * Leadership switched by the test; a term's fence stays valid until the test demotes or invalidates it, or until
 * the deadline set by {@link #fenceEndsIn} passes (by default it never does; {@code timeLeft()} then says 10 s).
 * Time is read from a ticker: the JVM's, or a test's {@link io.holdfast.testkit.ManualClock}.
 */
final class FakeLeadership implements Leadership {
  private final LongSupplier ticker;
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private volatile Term term;
  private volatile boolean fenceValid;
  private volatile long fenceDeadline; // on the ticker
  private volatile boolean deadlineSet; // false: no deadline
  private volatile long frozenLeft = -1; // nanos; -1: not frozen
  private long transitions;
  /** The thread that last asked to run leader-only work: the writer's. */
  private volatile Thread worker;

  /** On the JVM's clock. */
  FakeLeadership() {
    this(System::nanoTime);
  }

  FakeLeadership(LongSupplier ticker) {
    this.ticker = ticker;
  }

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
    fenceDeadline = ticker.getAsLong() + Math.max(1, d.toNanos());
    deadlineSet = true;
  }

  /** The fence stays valid with {@code d} left, however long the test waits: a leader always at the edge. */
  void timeLeftStaysAt(java.time.Duration d) {
    frozenLeft = d.toNanos();
  }

  /** A renewal: the fence has no deadline again. */
  void renew() {
    deadlineSet = false;
    frozenLeft = -1;
  }

  private long nanosLeft() {
    long frozen = frozenLeft;
    if (frozen >= 0) {
      return frozen;
    }
    return deadlineSet ? fenceDeadline - ticker.getAsLong() : java.time.Duration.ofSeconds(10).toNanos();
  }

  /** The thread that last asked to run leader-only work (the writer's), or null. */
  Thread worker() {
    return worker;
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
    worker = Thread.currentThread();
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
