package io.holdfast.kube.status;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The writer's meters, in Prometheus naming once exported: {@code holdfast_status_writes_total{outcome}} (one per
 * resource handled: written, skipped_unchanged, conflict, failed, not_found) and {@code holdfast_status_pending}
 * (statuses this replica, while leading, has still to confirm; 0 on a follower, which writes nothing).
 */
final class StatusMetrics {
  static final String WRITES = "holdfast.status.writes";
  static final String PENDING = "holdfast.status.pending";

  enum Outcome {
    /** The status was written. */
    WRITTEN,
    /** The object already had the computed status: no request made. */
    SKIPPED_UNCHANGED,
    /** The write met a newer object (409); it is re-read and recomputed. */
    CONFLICT,
    /** A read or write failed otherwise; retried after a backoff. */
    FAILED,
    /** The object no longer exists. */
    NOT_FOUND;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);
  private final AtomicInteger pending = new AtomicInteger();
  private final MeterRegistry registry;
  private final Gauge gauge;

  StatusMetrics(MeterRegistry registry) {
    this.registry = registry;
    for (Outcome o : Outcome.values()) {
      counters.put(o, Counter.builder(WRITES)
          .description("Resource statuses handled by the leader's status writer, by outcome")
          .tag("outcome", o.tag())
          .register(registry));
    }
    gauge = Gauge.builder(PENDING, pending, AtomicInteger::get)
        .description("Statuses the leader has not yet confirmed on their objects")
        .strongReference(true)
        .register(registry);
  }

  void count(Outcome o) {
    counters.get(o).increment();
  }

  void pending(int n) {
    pending.set(n);
  }

  int pending() {
    return pending.get();
  }

  void close() {
    registry.remove(gauge);
  }
}
