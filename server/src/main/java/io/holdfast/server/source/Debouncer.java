package io.holdfast.server.source;

import java.time.Instant;

/** Pure coalescing state: which burst is pending and when it is due. Not thread-safe; used by one thread. */
final class Debouncer {
  private final WatchTiming timing;
  private Instant first;
  private Instant last;

  Debouncer(WatchTiming timing) {
    this.timing = timing;
  }

  void eventAt(Instant now) {
    if (first == null) {
      first = now;
    }
    last = now;
  }

  boolean pending() {
    return first != null;
  }

  /** Due after the hold-off or the cap; also due at once if the clock stepped back, so it cannot stall. */
  boolean isDue(Instant now) {
    if (first == null) {
      return false;
    }
    return now.isBefore(first) || now.isBefore(last) || !now.isBefore(dueAt());
  }

  /** When the pending burst becomes due; only meaningful while {@link #pending()}. */
  Instant dueAt() {
    Instant quiet = last.plus(timing.holdOff());
    Instant capped = first.plus(timing.cap());
    return quiet.isBefore(capped) ? quiet : capped;
  }

  void clear() {
    first = null;
    last = null;
  }
}
