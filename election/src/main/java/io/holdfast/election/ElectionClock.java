package io.holdfast.election;

import java.time.Clock;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Time as the elector sees it. Decisions use only {@link #nanoTime()} (monotonic, local); wall time is
 * written into the lease for humans and never compared across machines.
 */
public interface ElectionClock {
  long nanoTime();

  Instant wallTime();

  static ElectionClock system() {
    return SystemClock.INSTANCE;
  }

  /** Wall time from {@code wall}, monotonic time from {@code monotonic} (a test's manual clock is both). */
  static ElectionClock of(Clock wall, LongSupplier monotonic) {
    return new ElectionClock() {
      @Override
      public long nanoTime() {
        return monotonic.getAsLong();
      }

      @Override
      public Instant wallTime() {
        return wall.instant();
      }
    };
  }

  /** The JVM's clocks. */
  enum SystemClock implements ElectionClock {
    INSTANCE;

    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public Instant wallTime() {
      return Instant.now();
    }
  }
}
