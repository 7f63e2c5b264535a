package io.holdfast.common;

import java.time.Duration;
import java.util.Objects;

/**
 * The coalescing rule, pure: after an event, fire once {@code holdOff} passes with no further event, but never
 * later than {@code cap} after the first event of the burst, so a steady stream of events still fires. Times are
 * nanoseconds on whatever timeline the caller uses (a monotonic ticker, or a wall clock); if that timeline steps
 * back the burst is due at once, so it cannot stall. Not thread-safe: one owner, or a lock around it
 * ({@link DebounceThread}).
 */
public final class Debounce {

  /**
   * @param holdOff quiet time after the last event (lets an editor finish a multi-step save); zero fires at once
   * @param cap     latest firing after the first event of a burst; at least {@code holdOff}
   */
  public record Timing(Duration holdOff, Duration cap) {
    /** Far beyond any sensible hold-off; keeps the nanosecond arithmetic away from overflow. */
    private static final Duration MAX = Duration.ofDays(1);
    // DEFAULT after MAX: static initialisers run in order and the constructor reads MAX.
    /** What the directory watcher and the Kubernetes source use unless told otherwise. */
    public static final Timing DEFAULT = new Timing(Duration.ofMillis(100), Duration.ofMillis(500));

    public Timing {
      Objects.requireNonNull(holdOff, "holdOff");
      Objects.requireNonNull(cap, "cap");
      if (holdOff.isNegative() || cap.compareTo(holdOff) < 0 || cap.compareTo(MAX) > 0) {
        throw new IllegalArgumentException("debounce timing: need 0 <= holdOff <= cap <= 24h, got holdOff="
            + Durations.format(holdOff) + " cap=" + Durations.format(cap));
      }
    }
  }

  private final long holdOffNanos;
  private final long capNanos;
  private boolean pending;
  private long first;
  private long last;

  public Debounce(Timing timing) {
    this.holdOffNanos = timing.holdOff().toNanos();
    this.capNanos = timing.cap().toNanos();
  }

  public void eventAt(long now) {
    if (!pending) {
      pending = true;
      first = now;
    }
    last = now;
  }

  public boolean pending() {
    return pending;
  }

  /** Due after the hold-off or the cap; also at once if the timeline stepped back. False when nothing is pending. */
  public boolean isDue(long now) {
    return pending && (now - first < 0 || now - last < 0 || now - dueAt() >= 0);
  }

  /** When the pending burst becomes due; only meaningful while {@link #pending()}. */
  public long dueAt() {
    long quiet = last + holdOffNanos;
    long capped = first + capNanos;
    return quiet - capped < 0 ? quiet : capped; // by difference: a nanoTime timeline may wrap
  }

  /** Ends the burst (the caller fired); the next event starts a new one. */
  public void clear() {
    pending = false;
  }
}
