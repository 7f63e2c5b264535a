package io.holdfast.election;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand. Wall time follows the monotonic time from a fixed epoch. */
final class FakeClock implements ElectionClock {
  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  @Override
  public Instant wallTime() {
    return EPOCH.plusNanos(nanos.get());
  }

  void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }
}
