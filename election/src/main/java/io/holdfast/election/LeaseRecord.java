package io.holdfast.election;

import java.time.Instant;
import java.util.Objects;

/**
 * What a lease says, independent of how it is stored: the plain value a {@link LeaseLock} reads and writes.
 *
 * @param holderIdentity       who holds the lease; empty when released or never held
 * @param leaseDurationSeconds how long candidates must see the record unchanged before taking over
 * @param acquireTime          when the current holder acquired it (informational only, never compared)
 * @param renewTime            when the holder last renewed it (informational only, never compared)
 * @param leaseTransitions     how many times leadership changed hands; part of the fencing {@link Term}
 */
public record LeaseRecord(
    String holderIdentity, int leaseDurationSeconds, Instant acquireTime, Instant renewTime, long leaseTransitions) {

  public LeaseRecord {
    holderIdentity = holderIdentity == null ? "" : holderIdentity;
    if (leaseDurationSeconds < 0) {
      throw new IllegalArgumentException("leaseDurationSeconds must be >= 0, was " + leaseDurationSeconds);
    }
    if (leaseTransitions < 0) {
      throw new IllegalArgumentException("leaseTransitions must be >= 0, was " + leaseTransitions);
    }
  }

  /** True when nobody holds the lease (released on shutdown, or never taken). */
  public boolean isReleased() {
    return holderIdentity.isEmpty();
  }

  public boolean isHeldBy(String identity) {
    return holderIdentity.equals(Objects.requireNonNull(identity, "identity"));
  }
}
