package io.holdfast.election;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The leader-only actions running right now, so that closing can release the lease only once they have
 * stopped and their last requests have had time to land.
 *
 * <p>Why: an action that passed {@link Fence#check()} may be in the middle of a write when the elector is
 * closed. Releasing the lease at once lets a successor start while that write is still on its way: two
 * writers overlap. So {@link #close()} refuses new actions, and {@link #awaitQuiet} waits (bounded) for the
 * running ones to end and then for {@code fenceSlack}, the stated bound on how long an abandoned request
 * may still travel after its timeout.
 *
 * <p>Thread-safe. Wait durations are measured once on the elector's clock and then counted down in real
 * time, so a test's fake clock cannot make a wait unbounded.
 */
final class InFlightActions {
  private final ElectionClock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private volatile boolean closed;
  private int running;
  private boolean anyEnded;
  private long lastEndedAt;

  InFlightActions(ElectionClock clock) {
    this.clock = clock;
  }

  /** Registers an action about to run; false once closed (the action must not run). */
  boolean enter() {
    lock.lock();
    try {
      if (closed) {
        return false;
      }
      running++;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends what {@link #enter()} started. {@code ran} says whether the action actually ran: only then can a
   * request of it still be on the wire, so only then does its end start the quiet period.
   */
  void exit(boolean ran) {
    lock.lock();
    try {
      running--;
      if (ran) {
        anyEnded = true;
        lastEndedAt = clock.nanoTime();
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Refuses every later {@link #enter()}. Idempotent. */
  void close() {
    lock.lock();
    try {
      closed = true;
    } finally {
      lock.unlock();
    }
  }

  /** Whether {@link #close()} was called; fences and {@code isLeader()} read this without locking. */
  boolean isClosed() {
    return closed;
  }

  int running() {
    lock.lock();
    try {
      return running;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until no action runs and {@code slackNanos} have passed since the last one ended, but never past
   * {@code giveUpAt} (on the elector's clock). Capping the quiet period at {@code giveUpAt} is sound when
   * {@code giveUpAt} is the fence's end plus the slack: an action that ended after its fence had no request
   * allowed to outlive the fence, so nothing of it can land after {@code giveUpAt}.
   *
   * @return how many actions were still running when it gave up; 0 when all ended in time
   */
  int awaitQuiet(long giveUpAt, long slackNanos) {
    lock.lock();
    try {
      long left = giveUpAt - clock.nanoTime();
      while (running > 0 && left > 0) {
        left = changed.awaitNanos(left);
      }
      if (running > 0) {
        return running;
      }
      if (anyEnded) {
        long quiet = Math.min(Math.min(lastEndedAt + slackNanos, giveUpAt) - clock.nanoTime(), Math.max(left, 0));
        while (quiet > 0) {
          quiet = changed.awaitNanos(quiet); // nothing signals once closed: this just lets the time pass
        }
      }
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return running;
    } finally {
      lock.unlock();
    }
  }
}
