package io.holdfast.kube.source;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The Kubernetes source's meters: {@code holdfast_kube_rebuilds_total} (tagged {@code outcome}: pushed or
 * unchanged), {@code holdfast_kube_rebuild_seconds}, {@code holdfast_kube_informer_failures_total} (tagged
 * {@code kind}), and the gauges {@code holdfast_kube_synced} and {@code holdfast_kube_stale} (1 or 0).
 */
final class KubeSourceMetrics {

  static final String REBUILDS = "holdfast.kube.rebuilds";
  static final String REBUILD_TIME = "holdfast.kube.rebuild";
  static final String FAILURES = "holdfast.kube.informer.failures";
  static final String SYNCED = "holdfast.kube.synced";
  static final String STALE = "holdfast.kube.stale";

  private final MeterRegistry registry;
  private final Counter pushed;
  private final Counter unchanged;
  private final Timer rebuildTime;
  private final Map<String, Counter> failures = new ConcurrentHashMap<>();
  private final List<Meter> gauges = new ArrayList<>();

  KubeSourceMetrics(MeterRegistry registry) {
    this.registry = registry;
    pushed = rebuilds("pushed");
    unchanged = rebuilds("unchanged");
    rebuildTime = Timer.builder(REBUILD_TIME).description("Time to rebuild the gateway config from the caches")
        .register(registry);
  }

  /** Registers the two gauges; the suppliers must stay reachable (the source holds them). */
  void bindGauges(BooleanSupplier synced, BooleanSupplier stale) {
    gauges.add(gauge(SYNCED, "1 once every informer has listed", synced));
    gauges.add(gauge(STALE, "1 while the cached view may be behind the cluster", stale));
  }

  void rebuilt(boolean changed, Duration took) {
    (changed ? pushed : unchanged).increment();
    rebuildTime.record(took);
  }

  /** Registers the failure counter of a watched kind at 0, so it is exported before the first failure. */
  void watching(String kind) {
    failures(kind);
  }

  void failed(String kind) {
    failures(kind).increment();
  }

  private Counter failures(String kind) {
    return failures.computeIfAbsent(kind, k -> Counter.builder(FAILURES)
        .description("Failed lists or watches, each retried")
        .tag("kind", k)
        .register(registry));
  }

  /** Removes the gauges, which would otherwise keep reporting a closed source. Counters stay. */
  void close() {
    gauges.forEach(registry::remove);
  }

  private Counter rebuilds(String outcome) {
    return Counter.builder(REBUILDS).description("Config rebuilds from the Kubernetes caches")
        .tag("outcome", outcome).register(registry);
  }

  private Gauge gauge(String name, String description, BooleanSupplier value) {
    return Gauge.builder(name, value, v -> v.getAsBoolean() ? 1 : 0)
        .description(description)
        .strongReference(true)
        .register(registry);
  }
}
