package io.holdfast.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The driver on a fake ticker: nothing here waits for a hold-off in real time. */
class DebounceThreadTest {
  private static final long MS = 1_000_000L;
  private static final Duration QUIET = Duration.ofMillis(200);

  private final AtomicLong ticker = new AtomicLong(1_000 * MS);
  private final AtomicInteger runs = new AtomicInteger();
  private final AtomicBoolean ready = new AtomicBoolean(true);

  private DebounceThread start(Runnable action) {
    DebounceThread d = new DebounceThread("test-debounce", Debounce.Timing.DEFAULT, ticker::get, ready::get, action);
    d.start();
    return d;
  }

  private void advance(DebounceThread d, long millis) {
    ticker.addAndGet(millis * MS);
    d.recheck();
  }

  @Test
  void aBurstRunsOnceWhenTheTickerPassesItsQuietTime() {
    try (DebounceThread d = start(runs::incrementAndGet)) {
      for (int i = 0; i < 50; i++) {
        d.mark();
      }
      advance(d, 99);
      await().during(QUIET).atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 0);
      advance(d, 1);
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1);
      advance(d, 10_000);
      await().during(QUIET).atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1);
    }
  }

  @Test
  void aSteadyStreamStillRunsAtTheCap() {
    try (DebounceThread d = start(runs::incrementAndGet)) {
      // A mark every 40 ms of ticker time never leaves 100 ms of quiet: only the 500 ms cap lets a run through.
      for (int t = 0; t < 480; t += 40) {
        d.mark();
        advance(d, 40);
      }
      assertThat(runs.get()).isZero();
      d.mark();
      advance(d, 20); // 500 ms after the first mark
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1);
    }
  }

  @Test
  void marksWaitUntilReadyAndThenRunOnce() {
    ready.set(false);
    try (DebounceThread d = start(runs::incrementAndGet)) {
      d.mark();
      d.mark();
      advance(d, 1_000);
      await().during(QUIET).atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 0);
      ready.set(true); // no mark: the thread polls readiness by itself
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1);
      d.mark();
      advance(d, 100);
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 2);
    }
  }

  @Test
  void aMarkDuringTheActionStartsANewBurst() {
    Gate inAction = new Gate();
    try (DebounceThread d = start(() -> {
      runs.incrementAndGet();
      inAction.block();
    })) {
      d.mark();
      advance(d, 100);
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1 && inAction.entered());
      d.mark();
      inAction.release();
      advance(d, 100);
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 2);
    }
  }

  @Test
  void aFailingActionDoesNotEndTheThread() {
    try (DebounceThread d = start(() -> {
      runs.incrementAndGet();
      throw new IllegalStateException("boom");
    })) {
      d.mark();
      advance(d, 100);
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1);
      d.mark();
      advance(d, 100);
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 2);
    }
  }

  @Test
  void closeEndsAnIdleThread() {
    DebounceThread d = start(runs::incrementAndGet);
    d.close(Duration.ofSeconds(2));
    d.mark();
    advance(d, 1_000);
    await().during(QUIET).atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 0);
  }

  /** Holds the action until released, and says when it has been entered. */
  private static final class Gate {
    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    void block() {
      entered.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    boolean entered() {
      return entered.getCount() == 0;
    }

    void release() {
      release.countDown();
    }
  }

  /**
   * Regression: the action's thread caught RuntimeException only, so an Error (a StackOverflowError in a rebuild)
   * ended the Kubernetes-mode rebuild thread and no change was applied again, silently. Now a non-fatal one is
   * survived, and a fatal one goes to the fatal handler (which ends the process in production).
   */
  @Test
  void anErrorInTheActionNeitherEndsTheThreadNorGoesUnreported() {
    java.util.List<String> fatal = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.List<String> observed = new java.util.concurrent.CopyOnWriteArrayList<>();
    WorkerFailures.FatalHandler previousHandler = WorkerFailures.onFatal((worker, e) -> fatal.add(worker + " " + e));
    WorkerFailures.Observer previousObserver = WorkerFailures.observe((worker, kind, e) -> observed.add(worker + " "
        + kind));
    AtomicInteger calls = new AtomicInteger();
    try (DebounceThread d = start(() -> {
      switch (calls.incrementAndGet()) {
        case 1 -> throw new AssertionError("not fatal");
        case 2 -> throw new StackOverflowError("fatal");
        default -> runs.incrementAndGet();
      }
    })) {
      for (int i = 0; i < 3; i++) {
        d.mark();
        advance(d, 600);
        int expected = i + 1;
        await().atMost(Duration.ofSeconds(2)).until(() -> calls.get() == expected);
      }
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1);
      assertThat(observed).containsExactly("test-debounce RECOVERED", "test-debounce FATAL");
      assertThat(fatal).singleElement().asString().contains("StackOverflowError");
    } finally {
      WorkerFailures.onFatal(previousHandler);
      WorkerFailures.observe(previousObserver);
    }
  }
}
