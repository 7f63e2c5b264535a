package io.holdfast.kube.status;

import java.util.function.LongSupplier;

/**
 * A token bucket: {@code perSecond} tokens a second, bursts of up to {@code perSecond}. Not thread-safe: owned by
 * the writer thread. Time comes from an injected nanosecond ticker.
 */
final class RateLimiter {
  private final long intervalNanos;
  private final long burst;
  private final LongSupplier ticker;
  /** Tokens available now = (now - emptyAt) / interval, at most burst. */
  private long emptyAt;

  RateLimiter(int perSecond, LongSupplier ticker) {
    if (perSecond < 1) {
      throw new IllegalArgumentException("rate must be >= 1 per second, was " + perSecond);
    }
    this.intervalNanos = 1_000_000_000L / perSecond;
    this.burst = perSecond;
    this.ticker = ticker;
    this.emptyAt = ticker.getAsLong() - burst * intervalNanos;
  }

  /**
   * Takes a token if one is available and returns 0; otherwise takes nothing and returns the nanoseconds until
   * one will be.
   */
  long tryAcquire() {
    long now = ticker.getAsLong();
    long floor = now - burst * intervalNanos;
    if (emptyAt - floor < 0) {
      emptyAt = floor; // bucket full: unused time beyond one burst does not accumulate
    }
    long next = emptyAt + intervalNanos;
    if (next - now > 0) {
      return next - now;
    }
    emptyAt = next;
    return 0;
  }
}
