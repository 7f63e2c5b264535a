package io.holdfast.election;

import io.holdfast.common.Durations;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs lock calls on helper threads, each with a hard time bound. A call that outlives its bound is
 * abandoned (and interrupted), so a hung API cannot hold the elector thread past a renew deadline. The
 * abandoned request may still reach the API later: the lease's timing rules, not this class, make that safe.
 */
final class BoundedLockCalls {
  /** One lock operation. */
  @FunctionalInterface
  interface LockCall<T> {
    T call() throws LockException;
  }

  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "holdfast-election-lock");
    t.setDaemon(true);
    return t;
  });
  private final String lockName;

  BoundedLockCalls(String lockName) {
    this.lockName = lockName;
  }

  /** Runs {@code op}, waiting at most {@code timeoutNanos}; every failure comes back as a classified LockException. */
  <T> T run(LockCall<T> op, long timeoutNanos) throws LockException {
    Future<T> future;
    try {
      future = pool.submit(op::call);
    } catch (RejectedExecutionException e) {
      throw new LockException(LockException.Cause.OTHER, "elector is closing");
    }
    try {
      return future.get(timeoutNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new LockException(LockException.Cause.TIMEOUT,
          lockName + " did not answer within " + Durations.format(Duration.ofNanos(timeoutNanos)));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof LockException le) {
        throw le;
      }
      throw new LockException(LockException.Cause.OTHER, "lock call failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new LockException(LockException.Cause.OTHER, "interrupted");
    }
  }

  /** Abandons calls still running and refuses new ones. */
  void shutdownNow() {
    pool.shutdownNow();
  }
}
