package io.holdfast.kube.source;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Coalesces change marks into runs of one action on one dedicated thread. After a mark the action waits for
 * {@code holdOff} of quiet, but never more than {@code maxDelay} after the first mark of the burst, so a
 * steady stream of changes still gets through. Marks made while the action runs start a new burst. The
 * action runs only while {@code ready} holds; marks made before are kept until it does.
 */
final class Debouncer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(Debouncer.class);
  /** How often a pending mark re-checks {@code ready}, in case readiness arrives without a mark. */
  private static final long READY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final long holdOffNanos;
  private final long maxDelayNanos;
  private final BooleanSupplier ready;
  private final Runnable action;
  private final Thread thread;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private boolean dirty;
  private boolean closed;
  private long firstMark;
  private long lastMark;

  Debouncer(String threadName, Duration holdOff, Duration maxDelay, BooleanSupplier ready, Runnable action) {
    if (holdOff.isNegative() || maxDelay.compareTo(holdOff) < 0) {
      throw new IllegalArgumentException("need 0 <= holdOff <= maxDelay, got holdOff=" + holdOff
          + " maxDelay=" + maxDelay);
    }
    this.holdOffNanos = holdOff.toNanos();
    this.maxDelayNanos = maxDelay.toNanos();
    this.ready = Objects.requireNonNull(ready, "ready");
    this.action = Objects.requireNonNull(action, "action");
    this.thread = new Thread(this::loop, threadName);
    thread.setDaemon(true);
  }

  /** When a burst that began at {@code first} and was last marked at {@code last} is due to run. */
  static long due(long first, long last, long holdOffNanos, long maxDelayNanos) {
    return Math.min(last + holdOffNanos, first + maxDelayNanos);
  }

  void start() {
    thread.start();
  }

  /** Records a change; cheap and non-blocking apart from a short lock, callable from any thread. */
  void mark() {
    lock.lock();
    try {
      long now = System.nanoTime();
      if (!dirty) {
        dirty = true;
        firstMark = now;
      }
      lastMark = now;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void loop() {
    lock.lock();
    try {
      while (!closed) {
        if (!dirty) {
          changed.await();
          continue;
        }
        if (!ready.getAsBoolean()) {
          changed.awaitNanos(READY_POLL_NANOS);
          continue;
        }
        long wait = due(firstMark, lastMark, holdOffNanos, maxDelayNanos) - System.nanoTime();
        if (wait > 0) {
          changed.awaitNanos(wait);
          continue;
        }
        dirty = false;
        lock.unlock();
        try {
          action.run();
        } catch (RuntimeException e) {
          log.error("debounced action failed; it runs again on the next change thread={}", thread.getName(), e);
        } finally {
          lock.lock();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // close() interrupts to end the thread
    } finally {
      lock.unlock();
    }
  }

  /** Stops the thread, waiting up to {@code bound} for a running action to finish. */
  void close(Duration bound) {
    lock.lock();
    try {
      closed = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    thread.interrupt();
    try {
      thread.join(bound.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(2));
  }
}
