package io.holdfast.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The tests' clock: it moves only when a test calls {@link #advance}, so a test shows what happens after a
 * lease, a retention or a back-off without waiting for it. It is a {@link Clock} (wall time) and, through
 * {@link #nanoTime()} / {@link LongSupplier#getAsLong()}, a monotonic nanosecond source; both move together.
 * Thread-safe: code under test may read it from any thread while the test moves it.
 */
public final class ManualClock extends Clock implements LongSupplier {
  /** An arbitrary fixed start, so a test's output is the same on every run. */
  public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");
  /** Where {@link #nanoTime()} starts: not 0, so code that treats 0 as "never" is not fooled. */
  private static final long NANO_ORIGIN = 1_000_000_000L;

  private final Instant start;
  /** Nanoseconds moved since the start; shared with the views {@link #withZone} returns. */
  private final AtomicLong moved;
  private final ZoneId zone;

  private ManualClock(Instant start, AtomicLong moved, ZoneId zone) {
    this.start = start;
    this.moved = moved;
    this.zone = zone;
  }

  /** A clock at {@link #DEFAULT_START}, in UTC. */
  public ManualClock() {
    this(DEFAULT_START);
  }

  /** A clock at {@code start}, in UTC. */
  public ManualClock(Instant start) {
    this(start, new AtomicLong(), ZoneOffset.UTC);
  }

  /** Moves both the wall time and the monotonic time forward by {@code d}. */
  public ManualClock advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a clock only moves forward: " + d);
    }
    moved.addAndGet(d.toNanos());
    return this;
  }

  @Override
  public Instant instant() {
    return start.plusNanos(moved.get());
  }

  /** Monotonic nanoseconds, as {@link System#nanoTime()} would give them. */
  public long nanoTime() {
    return NANO_ORIGIN + moved.get();
  }

  @Override
  public long getAsLong() {
    return nanoTime();
  }

  @Override
  public ZoneId getZone() {
    return zone;
  }

  /** The same clock (advancing one advances the other) seen in another zone. */
  @Override
  public Clock withZone(ZoneId z) {
    return z.equals(zone) ? this : new ManualClock(start, moved, z);
  }

  @Override
  public String toString() {
    return "ManualClock[" + instant() + "]";
  }
}
