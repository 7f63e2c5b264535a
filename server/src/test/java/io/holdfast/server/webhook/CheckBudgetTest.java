package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.server.webhook.AdmissionJson.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A check over its budget is denied at once and the answering thread freed; pinned checkers deny, not queue. */
class CheckBudgetTest {

  private static final AtomicInteger names = new AtomicInteger();

  private static CheckBudget budget(Duration wall, Duration cpu, int threads) {
    return new CheckBudget(wall, cpu, threads, r -> {
      Thread t = new Thread(r, "test-check-" + names.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** Burns CPU, deaf to interruption, until {@code release} opens: the worst a check could do. */
  private static Verdict spin(CountDownLatch release) {
    long x = 0;
    while (release.getCount() > 0) {
      x += System.nanoTime() % 7;
    }
    return Verdict.allow(List.of("spun " + x));
  }

  private static void awaitDeafly(CountDownLatch release) {
    while (release.getCount() > 0) {
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        // deaf to interruption, as a runaway check would be
      }
    }
  }

  @Test
  void aCheckOverItsCpuBudgetIsDeniedPromptly() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (CheckBudget budget = budget(Duration.ofSeconds(30), Duration.ofMillis(200), 2)) {
      long start = System.nanoTime();
      Verdict verdict = budget.decide(() -> spin(release));
      assertThat(verdict.allowed()).isFalse();
      assertThat(verdict.causes()).singleElement().satisfies(c -> {
        assertThat(c.reason()).isEqualTo(CheckBudget.OVER_BUDGET);
        assertThat(c.message()).contains("CPU time", "--webhook-check-cpu-time");
      });
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
    } finally {
      release.countDown();
    }
  }

  @Test
  void aCheckOverItsWallClockBudgetIsDenied() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (CheckBudget budget = budget(Duration.ofMillis(200), Duration.ofSeconds(30), 1)) {
      // Waiting, not computing: only the wall clock runs out.
      Verdict verdict = budget.decide(() -> {
        awaitDeafly(release);
        return Verdict.allow(List.of());
      });
      assertThat(verdict.causes()).extracting(AdmissionJson.Cause::reason).containsExactly(CheckBudget.OVER_BUDGET);
      assertThat(verdict.message()).contains("wall-clock", "--webhook-check-time");
    } finally {
      release.countDown();
    }
  }

  /** The issue: 4 reviews pinned all 4 webhook threads, then failurePolicy Ignore admitted anything. */
  @Test
  void pinnedCheckersDenyNewRequestsInsteadOfLeavingThemUnanswered() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    var answering = Executors.newFixedThreadPool(4);
    try (CheckBudget budget = budget(Duration.ofMillis(300), Duration.ofMillis(300), 4)) {
      List<java.util.concurrent.Future<Verdict>> pinned = new java.util.ArrayList<>();
      for (int i = 0; i < 4; i++) {
        pinned.add(answering.submit(() -> budget.decide(() -> spin(release))));
      }
      for (var future : pinned) {
        assertThat(future.get(30, TimeUnit.SECONDS).causes()).extracting(AdmissionJson.Cause::reason)
            .containsExactly(CheckBudget.OVER_BUDGET);
      }
      // Every checker is still spinning; the answering threads are free, and a fifth request is denied at once.
      Verdict fifth = answering.submit(() -> budget.decide(() -> Verdict.allow(List.of()))).get(5, TimeUnit.SECONDS);
      assertThat(fifth.allowed()).isFalse();
      assertThat(fifth.causes()).extracting(AdmissionJson.Cause::reason).containsExactly(CheckBudget.BUSY);
      release.countDown();
      // Once the runaway checks end, their threads take checks again.
      org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
          budget.decide(() -> Verdict.allow(List.of())).allowed());
    } finally {
      release.countDown();
      answering.shutdownNow();
    }
  }

  @Test
  void aCheckWithinBudgetGetsItsOwnVerdict() throws Exception {
    try (CheckBudget budget = budget(Duration.ofSeconds(5), Duration.ofSeconds(2), 1)) {
      assertThat(budget.decide(() -> Verdict.allow(List.of("fine"))).warnings()).containsExactly("fine");
    }
  }
}
