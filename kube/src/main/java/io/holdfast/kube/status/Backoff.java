package io.holdfast.kube.status;

import java.time.Duration;
import java.util.Objects;

/**
 * Exponential backoff after failed API calls: {@code initial * 2^(failures-1)}, capped at {@code max}.
 * Retries go on while the desired status stays pending; only the wait between them is bounded.
 */
public record Backoff(Duration initial, Duration max) {

  /** 200 ms doubling up to 30 s. */
  public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));

  public Backoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("initial backoff must be positive, was " + initial);
    }
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("max backoff " + max + " is below the initial " + initial);
    }
  }

  /** The wait after {@code failures} consecutive failures (1 = the first failure). */
  public Duration delay(int failures) {
    if (failures < 1) {
      throw new IllegalArgumentException("failures must be >= 1, was " + failures);
    }
    int shift = Math.min(failures - 1, 30);
    long nanos = initial.toNanos();
    long capped = max.toNanos();
    return Duration.ofNanos(nanos > (capped >> shift) ? capped : Math.min(capped, nanos << shift));
  }
}
