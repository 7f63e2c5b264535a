package io.holdfast.election;

import java.time.Duration;
import java.util.Optional;

/**
 * Wraps a lock so that writes can be held back before they are sent, as when the renewing thread is
 * paused (GC, SIGSTOP) between deciding to renew and sending: the elector abandons the call at its timeout,
 * and the write still goes out late, possibly after another replica took over.
 */
final class SlowWriteLock implements LeaseLock {
  private final LeaseLock delegate;
  private volatile Duration writeDelay = Duration.ZERO;

  SlowWriteLock(LeaseLock delegate) {
    this.delegate = delegate;
  }

  void delayWrites(Duration d) {
    writeDelay = d;
  }

  private void pause() {
    Duration d = writeDelay;
    if (!d.isZero()) {
      try {
        Thread.sleep(d.toMillis()); // the simulated pause itself, not test synchronisation
      } catch (InterruptedException e) {
        // the elector abandoned the call; the write goes out anyway, late, as a paused thread's would
      }
    }
  }

  @Override
  public Optional<VersionedRecord> get() throws LockException {
    return delegate.get();
  }

  @Override
  public VersionedRecord create(LeaseRecord record) throws LockException {
    pause();
    return delegate.create(record);
  }

  @Override
  public VersionedRecord update(VersionedRecord current, LeaseRecord next) throws LockException {
    pause();
    return delegate.update(current, next);
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public LockWatch watch(java.util.function.Consumer<Optional<VersionedRecord>> onChange) {
    return delegate.watch(onChange);
  }
}
