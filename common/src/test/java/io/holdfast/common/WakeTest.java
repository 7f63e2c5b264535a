package io.holdfast.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class WakeTest {
  private final Wake wake = new Wake();

  @Test
  void aSignalBeforeTheWaitIsNotLostAndIsConsumedOnce() throws InterruptedException {
    wake.signal();
    assertThat(wake.await(Wake.FOREVER)).isTrue();
    assertThat(wake.await(0)).as("consumed by the first wait").isFalse();
  }

  @Test
  void aTimeoutReturnsFalse() throws InterruptedException {
    assertThat(wake.await(1, TimeUnit.MILLISECONDS)).isFalse();
  }

  @Test
  void aSignalFromAnotherThreadEndsAnUnboundedWait() {
    CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
      try {
        return wake.await(Wake.FOREVER);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    await().atMost(Duration.ofSeconds(5)).until(() -> {
      wake.signal();
      return waiter.isDone();
    });
    assertThat(waiter.join()).isTrue();
  }

  @Test
  void aStopConditionSetBeforeTheSignalEndsTheWait() throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean(true);
    assertThat(wake.await(Wake.FOREVER, stop::get)).isFalse();
  }

  @Test
  void awaitChangeReturnsAtOnceWhenDoneAndLeavesTheRequest() throws InterruptedException {
    wake.signal();
    wake.awaitChange(Wake.FOREVER, () -> true);
    assertThat(wake.await(0)).as("awaitChange does not consume the request").isTrue();
  }

  @Test
  void awaitChangeIsBoundedByItsTimeout() throws InterruptedException {
    long start = System.nanoTime();
    wake.awaitChange(TimeUnit.MILLISECONDS.toNanos(20), () -> false);
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(15));
  }
}
