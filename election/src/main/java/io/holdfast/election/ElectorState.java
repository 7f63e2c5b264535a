package io.holdfast.election;

/** The elector's explicit states. FOLLOWER and LEADER alternate for as long as it runs; STOPPED is final. */
public enum ElectorState {
  /** Not leading: serving what followers serve and campaigning for the lease. */
  FOLLOWER,
  /** Holding the lease, renewal within the renew deadline. */
  LEADER,
  /** Closed (or exited by the recovery policy); does nothing more. */
  STOPPED
}
