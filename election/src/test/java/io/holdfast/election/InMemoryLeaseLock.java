package io.holdfast.election;

import java.util.Optional;

/** A lease lock in memory with the same optimistic-concurrency contract, plus injectable failures. */
final class InMemoryLeaseLock implements LeaseLock {
  private VersionedRecord current;
  private long version;
  private LockException.Cause failure;
  int calls;

  synchronized void failWith(LockException.Cause cause) {
    failure = cause;
  }

  synchronized void heal() {
    failure = null;
  }

  /** Someone else writes the record (a foreign holder, or an edit). */
  synchronized VersionedRecord put(LeaseRecord record) {
    current = new VersionedRecord(record, Long.toString(++version));
    return current;
  }

  synchronized void delete() {
    current = null;
  }

  synchronized Optional<LeaseRecord> record() {
    return Optional.ofNullable(current).map(VersionedRecord::record);
  }

  @Override
  public synchronized Optional<VersionedRecord> get() throws LockException {
    enter();
    return Optional.ofNullable(current);
  }

  @Override
  public synchronized VersionedRecord create(LeaseRecord record) throws LockException {
    enter();
    if (current != null) {
      throw new LockException(LockException.Cause.ALREADY_EXISTS, "exists");
    }
    return put(record);
  }

  @Override
  public synchronized VersionedRecord update(VersionedRecord from, LeaseRecord next) throws LockException {
    enter();
    if (current == null) {
      throw new LockException(LockException.Cause.NOT_FOUND, "gone");
    }
    if (!current.resourceVersion().equals(from.resourceVersion())) {
      throw new LockException(LockException.Cause.CONFLICT, "stale " + from.resourceVersion());
    }
    return put(next);
  }

  private void enter() throws LockException {
    calls++;
    if (failure != null) {
      throw new LockException(failure, "injected " + failure);
    }
  }

  @Override
  public String describe() {
    return "in-memory lease";
  }
}
