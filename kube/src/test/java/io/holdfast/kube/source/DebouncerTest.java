package io.holdfast.kube.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DebouncerTest {

  private final AtomicInteger runs = new AtomicInteger();
  private final AtomicBoolean ready = new AtomicBoolean(true);

  private Debouncer debouncer(Duration holdOff, Duration maxDelay) {
    Debouncer d = new Debouncer("test-debounce", holdOff, maxDelay, ready::get, runs::incrementAndGet);
    d.start();
    return d;
  }

  @Test
  void dueIsTheEarlierOfQuietTimeAndTheCap() {
    assertThat(Debouncer.due(0, 50, 100, 500)).isEqualTo(150);
    assertThat(Debouncer.due(0, 450, 100, 500)).isEqualTo(500);
  }

  @Test
  void aBurstRunsOnceAfterItsQuietTime() {
    try (Debouncer d = debouncer(Duration.ofMillis(100), Duration.ofSeconds(5))) {
      for (int i = 0; i < 50; i++) {
        d.mark();
      }
      await().atMost(Duration.ofSeconds(2)).until(() -> runs.get() == 1);
      await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> runs.get() == 1);
    }
  }

  @Test
  void aSteadyStreamStillRunsAtLeastEveryMaxDelay() {
    ScheduledExecutorService marker = Executors.newSingleThreadScheduledExecutor();
    AtomicLong marks = new AtomicLong();
    try (Debouncer d = debouncer(Duration.ofMillis(200), Duration.ofMillis(300))) {
      // Marks 20 ms apart never leave 200 ms of quiet, so only the cap lets runs through.
      marker.scheduleAtFixedRate(() -> {
        d.mark();
        marks.incrementAndGet();
      }, 0, 20, TimeUnit.MILLISECONDS);
      await().atMost(Duration.ofSeconds(3)).until(() -> runs.get() >= 3);
      assertThat(marks.get()).isGreaterThan(runs.get() * 5L);
    } finally {
      marker.shutdownNow();
    }
  }

  @Test
  void marksWaitUntilReadyAndThenRunOnce() {
    ready.set(false);
    try (Debouncer d = debouncer(Duration.ZERO, Duration.ZERO)) {
      d.mark();
      d.mark();
      await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> runs.get() == 0);
      ready.set(true);
      await().atMost(Duration.ofSeconds(1)).until(() -> runs.get() == 1);
      d.mark();
      await().atMost(Duration.ofSeconds(1)).until(() -> runs.get() == 2);
    }
  }

  @Test
  void aFailingActionDoesNotEndTheThread() {
    AtomicInteger calls = new AtomicInteger();
    try (Debouncer d = new Debouncer("test-fail", Duration.ZERO, Duration.ZERO, () -> true, () -> {
      calls.incrementAndGet();
      throw new IllegalStateException("boom");
    })) {
      d.start();
      d.mark();
      await().atMost(Duration.ofSeconds(1)).until(() -> calls.get() == 1);
      d.mark();
      await().atMost(Duration.ofSeconds(1)).until(() -> calls.get() == 2);
    }
  }

  @Test
  void rejectsACapShorterThanTheHoldOff() {
    assertThatThrownBy(() -> new Debouncer("x", Duration.ofMillis(200), Duration.ofMillis(100), () -> true, () -> { }))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
