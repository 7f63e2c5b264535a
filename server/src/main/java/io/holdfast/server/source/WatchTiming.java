package io.holdfast.server.source;

import java.time.Duration;
import java.util.Objects;

/**
 * How change events are coalesced before the directory is read again.
 *
 * @param holdOff read once no event has arrived for this long (lets an editor finish a multi-step save)
 * @param cap     read at the latest this long after the first event of a burst, even if events keep coming
 */
public record WatchTiming(Duration holdOff, Duration cap) {
  public static final WatchTiming DEFAULT = new WatchTiming(Duration.ofMillis(100), Duration.ofMillis(500));

  public WatchTiming {
    Objects.requireNonNull(holdOff, "holdOff");
    Objects.requireNonNull(cap, "cap");
    if (holdOff.isNegative() || holdOff.isZero()) {
      throw new IllegalArgumentException("holdOff must be positive, got " + holdOff);
    }
    if (cap.compareTo(holdOff) < 0) {
      throw new IllegalArgumentException("cap must be at least holdOff (" + holdOff + "), got " + cap);
    }
  }
}
