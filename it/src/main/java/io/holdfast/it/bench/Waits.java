package io.holdfast.it.bench;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Bounded polling for the benchmark harness: every wait has a deadline, every poll a 10 ms period. */
public final class Waits {
  public static final long POLL_NANOS = 10_000_000L;

  private Waits() {
  }

  /** Polls {@code condition} until it holds or {@code bound} passes; returns whether it held. */
  public static boolean until(BooleanSupplier condition, Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      if (condition.getAsBoolean()) {
        return true;
      }
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
  }

  /** Lets time pass: a measurement window, not synchronisation. */
  public static void pause(Duration d) {
    long deadline = System.nanoTime() + d.toNanos();
    long left;
    while ((left = deadline - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  public static double millisSince(long startNanos, long endNanos) {
    return (endNanos - startNanos) / 1e6;
  }
}
