package io.holdfast.server.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What the admin endpoints report. Each supplier is called per request, on an admin thread, with a time bound;
 * a supplier that throws or hangs produces a 500 for that request only.
 *
 * @param ready          {@code /readyz}: true when this replica should receive traffic
 * @param notReadyReason {@code /readyz} body when not ready, e.g. {@code "no valid snapshot yet"}
 * @param metrics        {@code /metrics}: scraped in the Prometheus text format
 * @param state          {@code /state}: rendered as JSON (keys sorted); values may be maps, lists, records,
 *                       strings, numbers, booleans, {@code java.time} values
 */
public record AdminSources(
    BooleanSupplier ready,
    Supplier<String> notReadyReason,
    PrometheusMeterRegistry metrics,
    Supplier<Map<String, Object>> state) {
  public AdminSources {
    Objects.requireNonNull(ready, "ready");
    Objects.requireNonNull(notReadyReason, "notReadyReason");
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(state, "state");
  }
}
