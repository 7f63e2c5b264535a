package io.holdfast.server;

import io.holdfast.common.WorkerFailures;
import io.holdfast.kube.status.StatusWriter;
import io.holdfast.server.source.DirectoryWatcher;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;

/**
 * {@code holdfast_worker_failures_total{thread,kind}}: every Throwable a worker thread caught, {@code kind}
 * {@code recovered} (the thread went on) or {@code fatal} (the process is ending, see {@link WorkerFailures}).
 * The counters of the known workers are registered at 0 when the server starts, like the other holdfast meters,
 * so that an alert on an increase sees the first failure.
 */
final class WorkerFailureMetrics {
  static final String NAME = "holdfast.worker.failures";
  /** The workers of a server: the file watcher, the Kubernetes rebuild, the webhook's requests, the status writer. */
  static final List<String> WORKERS = List.of(DirectoryWatcher.WORKER, "kube-rebuild",
      "kube-health", "webhook", StatusWriter.WORKER);

  private WorkerFailureMetrics() {
  }

  /** Registers the counters on {@code registry} and makes {@link WorkerFailures} count into them. */
  static void bind(MeterRegistry registry) {
    for (String worker : WORKERS) {
      for (WorkerFailures.Kind kind : WorkerFailures.Kind.values()) {
        counter(registry, worker, kind);
      }
    }
    WorkerFailures.observe((worker, kind, failure) -> counter(registry, worker, kind).increment());
  }

  private static Counter counter(MeterRegistry registry, String worker, WorkerFailures.Kind kind) {
    return Counter.builder(NAME)
        .description("Throwables caught by worker threads: recovered (the thread went on) or fatal (the process"
            + " ends and restarts from its snapshot)")
        .tag("thread", worker)
        .tag("kind", kind.label())
        .register(registry);
  }
}
