package io.holdfast.election;

import java.util.Optional;
import java.util.function.Consumer;

/**
 * The storage behind an election: one record, read and written with optimistic concurrency.
 *
 * <p>Implementations do no retrying of their own (the elector decides when to try again) and should bound
 * every call; the elector additionally abandons any call that outlives its lock timeout.
 */
public interface LeaseLock {

  /** The current record, or empty when there is none. */
  Optional<VersionedRecord> get() throws LockException;

  /** Creates the record; fails with {@link LockException.Cause#ALREADY_EXISTS} if someone else did first. */
  VersionedRecord create(LeaseRecord record) throws LockException;

  /**
   * Replaces {@code current} with {@code next}; fails with {@link LockException.Cause#CONFLICT} if the record
   * changed since {@code current} was read, or {@link LockException.Cause#NOT_FOUND} if it was deleted.
   */
  VersionedRecord update(VersionedRecord current, LeaseRecord next) throws LockException;

  /** Human-readable name of the lock for logs, e.g. {@code Lease holdfast-system/holdfast}. */
  String describe();

  /**
   * Optionally pushes every change of the record (empty on deletion) so followers react at once instead of
   * on their next poll. The default has no watch: the elector then polls every retry period.
   */
  default LockWatch watch(Consumer<Optional<VersionedRecord>> onChange) {
    return LockWatch.NONE;
  }

  /** A running watch. While {@link #isHealthy()} is false the elector falls back to polling. */
  interface LockWatch extends AutoCloseable {
    LockWatch NONE = new LockWatch() {
      @Override
      public boolean isHealthy() {
        return false;
      }

      @Override
      public void close() {}
    };

    boolean isHealthy();

    @Override
    void close();
  }
}
