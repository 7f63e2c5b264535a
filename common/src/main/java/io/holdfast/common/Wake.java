package io.holdfast.common;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A wake-up one thread waits for and any thread may request: a sticky flag under a lock and its condition, so a
 * request made before the wait begins is not lost. The pattern the elector, the status writer and the debounce
 * thread each had by hand.
 */
public final class Wake {
  /** A wait with no time bound. */
  public static final long FOREVER = Long.MAX_VALUE;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition condition = lock.newCondition();
  private boolean requested; // guarded by lock

  /** Requests a wake-up: the wait in progress returns, or else the next {@link #await} returns at once. */
  public void signal() {
    lock.lock();
    try {
      requested = true;
      condition.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until a wake-up is requested, {@code stop} holds, or {@code nanos} pass ({@link #FOREVER}: no bound),
   * then clears the request. {@code stop} is read under the lock, so a stop flag set before {@link #signal()} is
   * seen.
   *
   * @return whether a wake-up had been requested
   */
  public boolean await(long nanos, BooleanSupplier stop) throws InterruptedException {
    lock.lock();
    try {
      long left = nanos;
      while (!requested && !stop.getAsBoolean()) {
        if (nanos == FOREVER) {
          condition.await();
        } else if (left > 0) {
          left = condition.awaitNanos(left);
        } else {
          break;
        }
      }
      boolean was = requested;
      requested = false;
      return was;
    } finally {
      lock.unlock();
    }
  }

  /** {@link #await(long, BooleanSupplier)} with no stop condition. */
  public boolean await(long nanos) throws InterruptedException {
    return await(nanos, () -> false);
  }

  /** {@link #await(long)} bounded by {@code time} in {@code unit}. */
  public boolean await(long time, TimeUnit unit) throws InterruptedException {
    return await(unit.toNanos(time));
  }

  /**
   * One wait of up to {@code nanos} for the next {@link #signal()}, unless {@code done} already holds (read under
   * the lock, so a signal after the check is not missed); the request flag is left as it is, for a waiter that
   * re-checks its own condition in a loop.
   */
  public void awaitChange(long nanos, BooleanSupplier done) throws InterruptedException {
    lock.lock();
    try {
      if (!done.getAsBoolean() && nanos > 0) {
        condition.awaitNanos(nanos);
      }
    } finally {
      lock.unlock();
    }
  }
}
