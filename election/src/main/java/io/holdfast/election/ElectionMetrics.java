package io.holdfast.election;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.DoubleSupplier;

/**
 * The elector's meters, in Prometheus naming once exported: {@code holdfast_election_leader},
 * {@code holdfast_election_transitions_total{to}}, {@code holdfast_election_renew_failures_total{cause}},
 * {@code holdfast_election_acquire_failures_total{cause}}, {@code holdfast_election_last_renew_age_seconds}.
 * A missing lease namespace counts as {@code acquire_failures_total{cause="namespace_not_found"}}. Every series
 * exists from the start, counters at 0 for every state and cause, so dashboards and alerts need no
 * {@code absent()}; a single replica (no election) reports the same set through {@link #singleReplica}.
 */
public final class ElectionMetrics {
  private final MeterRegistry registry;

  ElectionMetrics(MeterRegistry registry, Leadership leadership, DoubleSupplier lastRenewAgeSeconds) {
    this.registry = registry;
    register(registry, leadership, lastRenewAgeSeconds);
  }

  /**
   * The elector's meters for a replica that leads without an election (file mode, or
   * {@code --disable-leader-election}): {@code holdfast_election_leader} follows {@code leadership} (so 1), the
   * last renewal's age is 0 (nothing to renew: leadership never lapses), and the counters stay at 0.
   */
  public static void singleReplica(MeterRegistry registry, Leadership leadership) {
    register(registry, leadership, () -> 0.0);
  }

  private static void register(MeterRegistry registry, Leadership leadership, DoubleSupplier lastRenewAgeSeconds) {
    // Micrometer holds a gauge's object weakly by default. The supplier below is a method reference nobody
    // else holds, so the first GC collected it and the gauge read NaN from then on: hold both strongly (the
    // registry then keeps the elector reachable, which it must be anyway while it is measured).
    Gauge.builder("holdfast.election.leader", leadership, l -> l.isLeader() ? 1 : 0)
        .description("1 while this replica holds the lease by its own clock, else 0")
        .strongReference(true)
        .register(registry);
    Gauge.builder("holdfast.election.last.renew.age", lastRenewAgeSeconds, DoubleSupplier::getAsDouble)
        .baseUnit("seconds")
        .description("Seconds since the last successful acquire or renew; NaN if this replica never led")
        .strongReference(true)
        .register(registry);
    for (ElectorState to : ElectorState.values()) {
      transitions(registry, to);
    }
    for (LockException.Cause cause : LockException.Cause.values()) {
      lockFailures(registry, true, cause);
      lockFailures(registry, false, cause);
    }
  }

  void transition(ElectorState to) {
    transitions(registry, to).increment();
  }

  void lockFailure(boolean leading, LockException.Cause cause) {
    lockFailures(registry, leading, cause).increment();
  }

  private static Counter transitions(MeterRegistry registry, ElectorState to) {
    return Counter.builder("holdfast.election.transitions")
        .description("State changes of this replica's elector")
        .tag("to", to.name().toLowerCase(java.util.Locale.ROOT))
        .register(registry);
  }

  private static Counter lockFailures(MeterRegistry registry, boolean leading, LockException.Cause cause) {
    return Counter.builder(leading ? "holdfast.election.renew.failures" : "holdfast.election.acquire.failures")
        .description(leading ? "Failed renewals of the lease, by cause"
            : "Failed attempts to acquire the lease, by cause")
        .tag("cause", cause.tag())
        .register(registry);
  }
}
