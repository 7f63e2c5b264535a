package io.holdfast.election;

import java.time.Instant;

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
