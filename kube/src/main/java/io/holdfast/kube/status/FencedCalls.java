package io.holdfast.kube.status;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.holdfast.election.Fence;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the writer's API calls (leader-only requests) so that none outlives its fence: each call runs on a helper
 * thread and the writer waits for it at most {@code min(requestTimeout, fence.timeLeft())}; past that the call is
 * abandoned (its thread interrupted, its answer ignored) and fails like a timeout. fabric8 takes no per-request
 * timeout, hence the helper thread; the client's own request timeout (set to the same {@code requestTimeout})
 * ends an abandoned call soon after.
 *
 * <p>Bytes already sent cannot be recalled: the election settings' {@code fenceSlack} is the stated bound on
 * how much later than its timeout an abandoned request may still reach the API.
 *
 * <p>No call starts with less than {@link #MIN_TIME_LEFT} left on the fence (it would most likely be abandoned
 * half-sent): the writer waits for the next renewal or for the fence to end. No call starts once the writer is
 * closing. Used by the writer thread only; it waits through the writer's {@link StatusReconciler.Pacer}, so the
 * bounds are measured on the writer's ticker, and each call's answer wakes it ({@code wakeUp}).
 */
final class FencedCalls implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FencedCalls.class);
  /** Least time left on the fence for a call to start: 100 ms. */
  static final Duration MIN_TIME_LEFT = Duration.ofMillis(100);
  private static final long WINDOW_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

  private final long requestTimeoutNanos;
  private final BooleanSupplier closing;
  private final Runnable wakeUp;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "holdfast-status-call");
    t.setDaemon(true);
    return t;
  });

  FencedCalls(Duration requestTimeout, BooleanSupplier closing, Runnable wakeUp) {
    this.requestTimeoutNanos = requestTimeout.toNanos();
    this.closing = closing;
    this.wakeUp = wakeUp;
  }

  /**
   * Runs {@code op} as a leader-only request. Throws {@link Fence.LeadershipLostException} once the fence fails,
   * {@link StatusReconciler.Stopped} once the writer closes, a {@link KubernetesClientException} when the call
   * fails or is abandoned; an {@link Error} of the call is rethrown as is.
   */
  <T> T call(Fence fence, StatusReconciler.Pacer pacer, String what, Supplier<T> op) {
    awaitTimeLeft(fence, pacer, what);
    if (closing.getAsBoolean()) {
      throw new StatusReconciler.Stopped();
    }
    fence.check(); // the last moment before the request leaves this replica
    long left = fence.timeLeft().toNanos();
    if (left <= 0) {
      throw new Fence.LeadershipLostException(fence.term());
    }
    long timeout = Math.min(requestTimeoutNanos, left);
    FutureTask<T> future = new FutureTask<>(op::get) {
      @Override
      protected void done() {
        wakeUp.run(); // runs once the answer is visible through isDone()
      }
    };
    try {
      executor.execute(future);
    } catch (RejectedExecutionException e) {
      throw new StatusReconciler.Stopped();
    }
    try {
      pacer.awaitAnswer(future::isDone, timeout);
      if (!future.isDone()) {
        future.cancel(true);
        throw new KubernetesClientException(what + " abandoned: no answer within " + timeout / 1_000_000 + " ms (the "
            + (timeout < requestTimeoutNanos ? "time left on the fence" : "request timeout") + ")");
      }
      return future.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new KubernetesClientException(what + " failed: " + cause, cause);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new StatusReconciler.Stopped();
    }
  }

  /** Waits while the fence has less than {@link #MIN_TIME_LEFT} left: until it is renewed or it ends (throws). */
  private void awaitTimeLeft(Fence fence, StatusReconciler.Pacer pacer, String what) {
    boolean logged = false;
    while (fence.timeLeft().compareTo(MIN_TIME_LEFT) < 0) {
      fence.check();
      if (!logged) {
        log.debug("status: holding call=\"{}\" timeLeftMs={} minMs={} until the lease is renewed or lost", what,
            fence.timeLeft().toMillis(), MIN_TIME_LEFT.toMillis());
        logged = true;
      }
      pacer.pause(fence, WINDOW_POLL_NANOS);
    }
  }

  /** Abandons any call still running. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}
