package io.holdfast.it.bench.election;

import io.holdfast.it.bench.Waits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Samples who believes it leads every 10 ms after a fault at {@code t0}, for several pairs at once: when the
 * old leader stopped believing it leads, when the other replica started, and how long both believed it.
 */
final class LeaderSampler {

  /** One pair under observation; the fields are written by the sampling thread only. */
  static final class Track {
    final Implementation impl;
    final Contender old;
    final Contender other;
    long oldStoppedAt = -1;
    long otherLeadsAt = -1;
    long dualNanos;

    Track(Implementation impl, Contender old, Contender other) {
      this.impl = impl;
      this.old = old;
      this.other = other;
    }

    boolean done() {
      return oldStoppedAt >= 0 && otherLeadsAt >= 0;
    }

    double stoppedMs(long t0) {
      return oldStoppedAt < 0 ? Double.NaN : Waits.millisSince(t0, oldStoppedAt);
    }

    double takeoverMs(long t0) {
      return otherLeadsAt < 0 ? Double.NaN : Waits.millisSince(t0, otherLeadsAt);
    }

    double dualMs() {
      return dualNanos / 1e6;
    }
  }

  private LeaderSampler() {
  }

  /** Samples until every track is done or {@code bound} after {@code t0} has passed. */
  static void run(List<Track> tracks, long t0, Duration bound) {
    run(tracks, t0, bound, System::nanoTime, () -> LockSupport.parkNanos(Waits.POLL_NANOS));
  }

  /** As {@link #run(List, long, Duration)} on an injected clock, {@code pause} between samples. */
  static void run(List<Track> tracks, long t0, Duration bound, LongSupplier nanoClock, Runnable pause) {
    long deadline = t0 + bound.toNanos();
    long previous = t0;
    while (true) {
      long now = nanoClock.getAsLong();
      for (Track t : tracks) {
        boolean oldLeads = t.old.leads();
        boolean otherLeads = t.other.leads();
        if (!oldLeads && t.oldStoppedAt < 0) {
          t.oldStoppedAt = now;
        }
        if (otherLeads && t.otherLeadsAt < 0) {
          t.otherLeadsAt = now;
        }
        if (oldLeads && otherLeads) {
          t.dualNanos += now - previous;
        }
      }
      previous = now;
      if (tracks.stream().allMatch(Track::done) || now - deadline >= 0) {
        return;
      }
      pause.run();
    }
  }
}
