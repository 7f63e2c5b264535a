package io.holdfast.election;

import java.util.Optional;

/**
 * The read side of an election, handed to the rest of the program. All methods are thread-safe and
 * never block on the API server.
 */
public interface Leadership {

  /** Whether this replica holds the lease right now by its own clock. Never blocks. */
  boolean isLeader();

  ElectorState state();

  /** The current term while leading; empty otherwise. */
  Optional<Term> currentTerm();

  /** Holder of the lease as last observed (may be this replica); empty if nobody holds it or nothing was read. */
  Optional<String> observedLeader();

  /** This replica's holder identity. */
  String identity();

  /**
   * Runs {@code action} on the calling thread if, and only if, this replica leads at this instant by its
   * own clock (last successful renewal started less than the renew deadline ago). Once the elector is
   * closing nothing more runs, and the lease is released only after running actions ended (bounded; see
   * {@link LeaderElector#close()}): keep each action to the requests it makes under one fence.
   *
   * @return true if the action ran to the end; false if it did not start, or stopped on a failed
   *     {@link Fence#check()}
   */
  boolean runIfLeader(Fence.FencedAction action);

  void addListener(LeadershipListener listener);

  /** Single-replica mode ({@code DISABLE_LEADER_ELECTION=true}, file config): always leader, one term. */
  static Leadership alwaysLeader(String identity) {
    return new AlwaysLeader(identity);
  }
}
