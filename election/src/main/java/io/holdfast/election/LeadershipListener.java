package io.holdfast.election;

/**
 * Told about leadership changes. Callbacks run on one dedicated listener thread, in the order the changes
 * happened, never on the elector's own thread, so a slow listener cannot delay a renewal. By the time a
 * callback runs the state may have moved on: use {@link Leadership#runIfLeader} for leader-only work,
 * never the callback alone.
 */
public interface LeadershipListener {
  /** This replica started a term. */
  default void onElected(Term term) {}

  /** This replica's term ended: lease lost, renew deadline passed, lease taken, or shutdown. */
  default void onDemoted(Term term, String cause) {}

  /** The observed leader changed; {@code identity} is empty when nobody holds the lease. Includes self. */
  default void onNewLeader(String identity) {}
}
