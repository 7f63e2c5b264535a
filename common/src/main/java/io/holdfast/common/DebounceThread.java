package io.holdfast.common;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one action on one dedicated thread after each burst of {@link #mark()}s, by the {@link Debounce} rule.
 * Marks made while the action runs start a new burst. The action runs only while {@code ready} holds; marks made
 * before are kept until it does. Time comes from an injected ticker (nanoseconds, e.g. {@code System::nanoTime});
 * a test that moves a fake ticker calls {@link #recheck()} so the thread sees it at once.
 */
public final class DebounceThread implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DebounceThread.class);
  /** How often a pending mark re-checks {@code ready}, in case readiness arrives without a mark. */
  private static final long READY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final Debounce debounce; // guarded by this
  private final LongSupplier ticker;
  private final BooleanSupplier ready;
  private final Runnable action;
  private final Wake wake = new Wake();
  private final Thread thread;
  private volatile boolean closed;

  public DebounceThread(String threadName, Debounce.Timing timing, LongSupplier ticker, BooleanSupplier ready,
      Runnable action) {
    this.debounce = new Debounce(timing);
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.ready = Objects.requireNonNull(ready, "ready");
    this.action = Objects.requireNonNull(action, "action");
    this.thread = new Thread(this::loop, threadName);
    thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  /** Records a change; cheap and non-blocking apart from a short lock, callable from any thread. */
  public void mark() {
    synchronized (this) {
      debounce.eventAt(ticker.getAsLong());
    }
    wake.signal();
  }

  /** Makes the thread look at the ticker and {@code ready} again now (after a fake ticker moved). */
  public void recheck() {
    wake.signal();
  }

  private void loop() {
    try {
      while (!closed) {
        long wait = nextWait();
        if (wait <= 0) {
          runAction();
        } else {
          wake.await(wait, () -> closed);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // close() interrupts to end the thread
    }
  }

  /** Nanoseconds to wait before looking again; zero or less: run now (and the burst is cleared). */
  private synchronized long nextWait() {
    if (!debounce.pending()) {
      return Wake.FOREVER;
    }
    if (!ready.getAsBoolean()) {
      return READY_POLL_NANOS;
    }
    long now = ticker.getAsLong();
    if (debounce.isDue(now)) {
      debounce.clear();
      return 0;
    }
    return debounce.dueAt() - now;
  }

  /**
   * Runs the action; nothing it throws ends the thread. A fatal error ({@link WorkerFailures#isFatal}) is handed to
   * {@link WorkerFailures}, which ends the process: a rebuild thread that died would leave the replica serving
   * an old config forever behind a green probe.
   */
  private void runAction() {
    try {
      action.run();
    } catch (Throwable e) {
      log.error("debounced action failed; it runs again on the next change thread={}", thread.getName());
      WorkerFailures.caught(workerName(), e);
    }
  }

  /** The thread's name without its {@code holdfast-} prefix: the worker label of metrics. */
  private String workerName() {
    String name = thread.getName();
    return name.startsWith("holdfast-") ? name.substring("holdfast-".length()) : name;
  }

  /** Stops the thread, waiting up to {@code bound} for a running action to finish. */
  public void close(Duration bound) {
    closed = true;
    wake.signal();
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
