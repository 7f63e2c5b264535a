package io.holdfast.it.outage;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Keeps the leader writing statuses: every {@code interval}, the VirtualService {@value #NAME} is replaced (a PUT
 * through the API's standard input) routing alternately to upstream {@code a} (Accepted=True) and to a missing
 * one (Accepted=False), so its status changes with every edit. Bounded: at most {@link #MAX_EDITS} edits, and
 * it stops when closed.
 */
final class SpecChurn implements AutoCloseable {
  static final String NAME = "churn";
  static final int MAX_EDITS = 1_000;

  private final ScheduledExecutorService scheduler;
  private final AtomicInteger edits = new AtomicInteger();
  private final AtomicInteger failures = new AtomicInteger();

  private SpecChurn(MockApi api, Duration interval) {
    scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "spec-churn");
      t.setDaemon(true);
      return t;
    });
    scheduler.scheduleWithFixedDelay(() -> edit(api), interval.toMillis(), interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** Creates the churned VirtualService (valid) and starts editing it. */
  static SpecChurn start(MockApi api, Duration interval) {
    int code = api.create(resource("a"));
    if (code != 201) {
      throw new IllegalStateException("could not create the churned VirtualService: HTTP " + code);
    }
    return new SpecChurn(api, interval);
  }

  static GatewayResources.Resource resource(String upstream) {
    return GatewayResources.virtualService(NAME, NAME + ".test", upstream);
  }

  private void edit(MockApi api) {
    int n = edits.incrementAndGet();
    if (n > MAX_EDITS) {
      scheduler.shutdown();
      return;
    }
    GatewayResources.Resource next = resource(n % 2 == 0 ? "a" : "missing-upstream");
    try {
      if (api.submit("PUT", next.path(), next.json()) != 200) {
        failures.incrementAndGet();
      }
    } catch (RuntimeException e) {
      failures.incrementAndGet(); // the API process may be briefly slow; the next edit tries again
    }
  }

  int edits() {
    return Math.min(edits.get(), MAX_EDITS);
  }

  int failedEdits() {
    return failures.get();
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
