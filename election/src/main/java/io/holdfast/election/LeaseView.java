package io.holdfast.election;

import java.util.Objects;
import java.util.Optional;

/**
 * What this replica has seen of the lease, and since when by its own monotonic clock; and, from that alone,
 * when it may take the lease. Remote timestamps are never compared.
 *
 * <p>The rules: a record held by someone else may be taken once it stayed unchanged for its stated lease
 * duration. A release may be taken at once only when it is a hand-over seen here (the record seen right
 * before it was held, in the same term): a release nobody here can attribute to the holder (a third party's
 * edit, or no holder seen) may hide a holder still acting until its renew deadline, so it waits a full
 * lease of ours. A deleted lease is not a released one either: after seeing a held record deleted, wait its
 * lease before creating one; likewise after losing a create race to a holder never seen.
 *
 * <p>Owned by the elector thread; not thread-safe.
 */
final class LeaseView {
  /** {@link #mayTakeAt}/{@link #mayCreateAt} when there is nothing to wait for. */
  static final long NOW = Long.MIN_VALUE;

  private final String identity;
  private final long leaseNanos;

  private VersionedRecord current;
  private boolean seenOnce;
  private long since;
  /** The current record is a release that directly followed a held record of the same term, as seen here. */
  private boolean handOver;
  /** The held record last seen before the lease was deleted; null unless the lease is currently absent. */
  private LeaseRecord heldBeforeDeletion;
  /** When a write race was lost to a record not yet seen (null otherwise): someone holds a lease we cannot see. */
  private Long unseenHolderSince;
  private long lastKnownTransitions = -1;

  LeaseView(String identity, long leaseNanos) {
    this.identity = identity;
    this.leaseNanos = leaseNanos;
  }

  /** Records what was read or pushed at {@code now}; the observation clock restarts only when the content changes. */
  void observe(Optional<VersionedRecord> r, long now) {
    LeaseRecord seen = r.map(VersionedRecord::record).orElse(null);
    LeaseRecord before = current == null ? null : current.record();
    if (!seenOnce || !Objects.equals(before, seen)) {
      since = now;
      handOver = seen != null && seen.isReleased() && before != null && !before.isReleased()
          && before.leaseTransitions() == seen.leaseTransitions();
    }
    if (seen == null && before != null && !before.isReleased()) {
      heldBeforeDeletion = before;
    } else if (seen != null) {
      heldBeforeDeletion = null;
      unseenHolderSince = null;
    }
    current = r.orElse(null);
    seenOnce = true;
    if (seen != null) {
      lastKnownTransitions = Math.max(lastKnownTransitions, seen.leaseTransitions());
    }
  }

  /** Someone else wrote first: the next decision must rest on a fresh read, and an unseen holder exists. */
  void lostRace(long now) {
    seenOnce = false;
    if (current == null && unseenHolderSince == null) {
      unseenHolderSince = now;
    }
  }

  /** The record this replica wrote on is stale (its renewal met a conflict): decide on a fresh read. */
  void forget() {
    current = null;
  }

  /** The record last seen; null when none was seen or the lease is absent. */
  VersionedRecord current() {
    return current;
  }

  /** Whether the record was read (or pushed) since the last lost race, so a healthy watch can stand in for a read. */
  boolean seenOnce() {
    return seenOnce;
  }

  /** When the current record was first seen with its current content. */
  long since() {
    return since;
  }

  boolean isHandOver() {
    return handOver;
  }

  /** The highest transition count ever seen; -1 before any record. */
  long lastKnownTransitions() {
    return lastKnownTransitions;
  }

  /** When {@code r}, the current record, may be taken; {@link #NOW} if at once. */
  long mayTakeAt(LeaseRecord r) {
    if (r.isHeldBy(identity) || (r.isReleased() && handOver)) {
      return NOW;
    }
    long stated = r.leaseDurationSeconds() * 1_000_000_000L; // int seconds: at most ~2.1e18, no overflow
    return since + (r.isReleased() ? Math.max(stated, leaseNanos) : stated);
  }

  /** When this replica may create the lease, now absent; {@link #NOW} if at once. */
  long mayCreateAt() {
    long at = NOW;
    if (heldBeforeDeletion != null && !heldBeforeDeletion.isHeldBy(identity)) {
      at = since + heldBeforeDeletion.leaseDurationSeconds() * 1_000_000_000L;
    }
    if (unseenHolderSince != null) {
      at = Math.max(at, unseenHolderSince + leaseNanos);
    }
    return at;
  }

  /** When the next campaign can succeed, by what was seen; {@link #NOW} if it can now. */
  long nextChanceAt() {
    return current == null ? mayCreateAt() : mayTakeAt(current.record());
  }

  static boolean reached(long at, long now) {
    return at == NOW || now - at >= 0;
  }
}
