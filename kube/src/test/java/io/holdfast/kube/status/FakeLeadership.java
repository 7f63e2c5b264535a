package io.holdfast.kube.status;

import io.holdfast.election.ElectorState;
import io.holdfast.election.Fence;
import io.holdfast.election.Leadership;
import io.holdfast.election.LeadershipListener;
import io.holdfast.election.Term;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Leadership switched by the test; a term's fence stays valid until the test demotes or invalidates it. */
final class FakeLeadership implements Leadership {
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private volatile Term term;
  private volatile boolean fenceValid;
  private long transitions;

  synchronized void elect() {
    term = new Term(transitions++, "fake");
    fenceValid = true;
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

  @Override
  public boolean isLeader() {
    return term != null && fenceValid;
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
    if (t == null || !fenceValid) {
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
          return fenceValid && t.equals(term);
        }

        @Override
        public java.time.Duration timeLeft() {
          return isValid() ? java.time.Duration.ofSeconds(10) : java.time.Duration.ZERO;
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
