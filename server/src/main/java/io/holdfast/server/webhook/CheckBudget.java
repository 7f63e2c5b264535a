package io.holdfast.server.webhook;

import io.holdfast.server.webhook.AdmissionJson.Cause;
import io.holdfast.server.webhook.AdmissionJson.Verdict;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs each admission check on a checker thread of its own, within a wall-clock and a CPU budget, so that a
 * costly object never pins the threads that answer the API server: with every thread pinned, the API server's
 * calls time out and {@code failurePolicy: Ignore} would admit anything. A check over either budget is answered
 * at once with a denial ({@link #OVER_BUDGET}) and interrupted. Java cannot stop a thread, so a check that ignores
 * the interruption keeps its checker thread until it ends; there are as many checker threads as request threads,
 * and while all are busy a new request is denied ({@link #BUSY}) rather than queued. Thread-safe.
 */
final class CheckBudget implements AutoCloseable {
  /** The reason of a denial because the check took longer than its budget. */
  static final String OVER_BUDGET = "CheckBudgetExceeded";
  /** The reason of a denial because every checker thread is still busy with earlier checks. */
  static final String BUSY = "CheckersBusy";
  private static final long POLL_MILLIS = 20;

  /** One check: the webhook's judgement of one request. */
  @FunctionalInterface
  interface Check {
    Verdict decide() throws AdmissionCheck.ViewUnavailable;
  }

  private final Duration wall;
  private final Duration cpu;
  private final ThreadPoolExecutor checkers;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  CheckBudget(Duration wall, Duration cpu, int threads, ThreadFactory factory) {
    this.wall = wall;
    this.cpu = cpu;
    this.checkers = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new SynchronousQueue<>(),
        factory);
  }

  /** The check's verdict, or a denial if it is over budget or no checker is free. */
  Verdict decide(Check check) throws AdmissionCheck.ViewUnavailable {
    AtomicLong thread = new AtomicLong(-1);
    AtomicLong cpuAtStart = new AtomicLong();
    Future<Verdict> future;
    try {
      future = checkers.submit(() -> {
        cpuAtStart.set(threads.getCurrentThreadCpuTime());
        thread.set(Thread.currentThread().getId());
        return check.decide();
      });
    } catch (RejectedExecutionException e) {
      return deny(BUSY, "every checker thread is still busy with earlier checks over their budget; denied rather"
          + " than admitted unchecked; retry shortly");
    }
    long deadline = System.nanoTime() + wall.toNanos();
    while (true) {
      try {
        return future.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        long id = thread.get();
        long used = id < 0 ? 0 : threads.getThreadCpuTime(id) - cpuAtStart.get();
        boolean overWall = System.nanoTime() - deadline > 0;
        if (overWall || used > cpu.toNanos()) {
          future.cancel(true);
          return deny(OVER_BUDGET, "checking this object took more than " + (overWall ? wall + " of wall-clock time"
              + " (--webhook-check-time)" : cpu + " of CPU time (--webhook-check-cpu-time)")
              + "; denied rather than admitted unchecked. Validate it with holdfast validate to see why");
        }
      } catch (ExecutionException e) {
        if (e.getCause() instanceof AdmissionCheck.ViewUnavailable unavailable) {
          throw unavailable;
        }
        if (e.getCause() instanceof RuntimeException runtime) {
          throw runtime;
        }
        if (e.getCause() instanceof Error error) {
          // As itself: the handler's fatal-error rule (WorkerFailures) must see a StackOverflowError, not a wrapper.
          throw error;
        }
        throw new IllegalStateException("admission check failed", e.getCause());
      } catch (InterruptedException e) {
        future.cancel(true);
        Thread.currentThread().interrupt();
        return deny(OVER_BUDGET, "the webhook is shutting down");
      }
    }
  }

  private static Verdict deny(String reason, String message) {
    return Verdict.deny(message, List.of(new Cause("", reason, message)), List.of());
  }

  @Override
  public void close() {
    checkers.shutdownNow();
  }
}
