package io.holdfast.election;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** A lease lock in memory with the same optimistic-concurrency contract, plus injectable failures. */
final class InMemoryLeaseLock implements LeaseLock {
  private VersionedRecord current;
  private long version;
  private LockException.Cause failure;
  private LockException createFailure;
  private int calls;
  private final List<String> timeline;

  InMemoryLeaseLock() {
    this(new CopyOnWriteArrayList<>());
  }

  /** Appends {@code lease:<holder>} to {@code timeline} on every write that changes the holder (audit order). */
  InMemoryLeaseLock(List<String> timeline) {
    this.timeline = timeline;
  }

  synchronized void failWith(LockException.Cause cause) {
    failure = cause;
  }

  /** Only creates fail, as with a missing namespace: reads find nothing, creates are refused. */
  synchronized void failCreatesWith(LockException.Cause cause, String message) {
    createFailure = new LockException(cause, message);
  }

  synchronized void heal() {
    failure = null;
    createFailure = null;
  }

  synchronized int calls() {
    return calls;
  }

  /** Someone else writes the record (a foreign holder, or an edit). */
  synchronized VersionedRecord put(LeaseRecord record) {
    String before = current == null ? null : current.record().holderIdentity();
    current = new VersionedRecord(record, Long.toString(++version));
    if (!record.holderIdentity().equals(before)) {
      timeline.add("lease:" + (record.isReleased() ? "<none>" : record.holderIdentity()));
    }
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
    if (createFailure != null) {
      throw createFailure;
    }
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
