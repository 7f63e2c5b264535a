package io.holdfast.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GuardedExecutorTest {
  private final AtomicLong now = new AtomicLong();
  private final GuardedExecutor executor = new GuardedExecutor("test", 2, Duration.ofSeconds(1),
      Duration.ofSeconds(5), now::get);

  @AfterEach
  void close() {
    executor.close();
  }

  /** A task that blocks until interrupted (as a worker blocked on a channel) and records that it was. */
  private static Runnable blockUntilInterrupted(CountDownLatch running, AtomicBoolean interrupted,
      Runnable beforeBlocking) {
    return () -> {
      beforeBlocking.run();
      running.countDown();
      try {
        new CountDownLatch(1).await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
    };
  }

  @Test
  void aTaskWithoutHeadersIsInterruptedAfterTheHeaderTimeoutOnly() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    executor.execute(blockUntilInterrupted(running, interrupted, () -> { }));
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

    now.set(Duration.ofMillis(999).toNanos());
    executor.sweep();
    assertThat(executor.cutCount()).isZero();

    now.set(Duration.ofMillis(1001).toNanos());
    executor.sweep();
    assertThat(executor.cutCount()).isEqualTo(1);
    await().atMost(Duration.ofSeconds(5)).untilTrue(interrupted);
    executor.sweep();
    assertThat(executor.cutCount()).as("cut once").isEqualTo(1);
  }

  @Test
  void aTaskPastItsHeadersHasTheExchangeTimeout() throws Exception {
    CountDownLatch running = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    executor.execute(blockUntilInterrupted(running, interrupted, () -> {
      try {
        executor.guard(exchange -> { }).handle(null);
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    }));
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

    now.set(Duration.ofSeconds(3).toNanos());
    executor.sweep();
    assertThat(executor.cutCount()).isZero();

    now.set(Duration.ofSeconds(6).toNanos());
    executor.sweep();
    await().atMost(Duration.ofSeconds(5)).untilTrue(interrupted);
    assertThat(executor.cutCount()).isEqualTo(1);
  }

  @Test
  void aFinishedTaskIsNeverInterruptedAndItsWorkerIsReused() throws Exception {
    CountDownLatch done = new CountDownLatch(1);
    executor.execute(done::countDown);
    assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
    await().atMost(Duration.ofSeconds(5)).until(() -> executor.runningCount() == 0);
    now.set(Duration.ofMinutes(1).toNanos());
    executor.sweep();
    assertThat(executor.cutCount()).isZero();

    AtomicBoolean interruptedAtStart = new AtomicBoolean(true);
    CountDownLatch next = new CountDownLatch(2);
    for (int i = 0; i < 2; i++) {
      executor.execute(() -> {
        interruptedAtStart.set(Thread.currentThread().isInterrupted());
        next.countDown();
      });
    }
    assertThat(next.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(interruptedAtStart).isFalse();
  }

  @Test
  void boundsAreChecked() {
    assertThatIllegalArgumentException().isThrownBy(() -> new GuardedExecutor("x", 0, Duration.ofSeconds(1),
        Duration.ofSeconds(1)));
    assertThatIllegalArgumentException().isThrownBy(() -> new GuardedExecutor("x", 1, Duration.ZERO,
        Duration.ofSeconds(1)));
  }
}
