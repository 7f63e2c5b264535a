package io.holdfast.kube.status;

import static io.holdfast.kube.status.Statuses.GATEWAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How long the writer may wait on the API: each request at most min(request timeout, time left on the fence), none
 * started with less than {@link FencedCalls#MIN_TIME_LEFT} left, {@link StatusWriter#close()} bounded; and no failure
 * ends its thread.
 */
class StatusWriterBoundsTest {
  private final FakeLeadership leadership = new FakeLeadership();
  private final FakeStatusApi api = new FakeStatusApi();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CountDownLatch putEntered = new CountDownLatch(1);
  private final CountDownLatch releasePut = new CountDownLatch(1);
  private final AtomicLong putEnteredAt = new AtomicLong();

  @AfterEach
  void release() {
    releasePut.countDown();
  }

  private StatusWriter writer(Duration requestTimeout) {
    return StatusWriter.builder(api, leadership).requestTimeout(requestTimeout).meterRegistry(registry)
        .backoff(new Backoff(Duration.ofSeconds(20), Duration.ofSeconds(20))).callsPerSecond(1000).build().start();
  }

  /** Every status PUT blocks until the test releases it, as a request stuck on a slow network. */
  private void holdPuts() {
    api.onUpdate = () -> {
      putEnteredAt.compareAndSet(0, System.nanoTime());
      putEntered.countDown();
      try {
        releasePut.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("abandoned", e);
      }
    };
  }

  private double failed() {
    var c = registry.find(StatusMetrics.WRITES).tag("outcome", "failed").counter();
    return c == null ? 0 : c.count();
  }

  private static void hold(Duration d) {
    await().pollDelay(d).atMost(d.plusSeconds(1)).until(() -> true);
  }

  @Test
  void aWriteIsAbandonedWhenTheFenceRunsOutNotAtTheLongerRequestTimeout() throws Exception {
    api.create(GATEWAY);
    holdPuts();
    leadership.elect();
    try (StatusWriter w = writer(Duration.ofSeconds(5))) {
      leadership.fenceEndsIn(Duration.ofMillis(600)); // renewals failing: 600 ms of leadership left at most
      long fenceSet = System.nanoTime();
      w.publish(Statuses.all(List.of(GATEWAY), 1, State.REJECTED));
      assertThat(putEntered.await(3, TimeUnit.SECONDS)).isTrue();
      await().atMost(Duration.ofSeconds(3)).until(() -> failed() >= 1);
      long abandonedAfterMs = (System.nanoTime() - fenceSet) / 1_000_000;
      // Abandoned when the fence ended (600 ms), far below the 5 s request timeout.
      assertThat(abandonedAfterMs).isBetween(500L, 1_500L);
      System.out.printf("FIGURE status-abandoned-at-fence fence-left-ms=600 abandoned-after-ms=%d%n", abandonedAfterMs);
    }
  }

  @Test
  void aWriteIsAbandonedAtTheRequestTimeoutWhileTheFenceHasMoreLeft() throws Exception {
    api.create(GATEWAY);
    holdPuts();
    leadership.elect(); // 10 s left on the fence
    try (StatusWriter w = writer(Duration.ofMillis(400))) {
      w.publish(Statuses.all(List.of(GATEWAY), 1, State.REJECTED));
      assertThat(putEntered.await(3, TimeUnit.SECONDS)).isTrue();
      await().atMost(Duration.ofSeconds(3)).until(() -> failed() >= 1);
      long abandonedAfterMs = (System.nanoTime() - putEnteredAt.get()) / 1_000_000;
      assertThat(abandonedAfterMs).isBetween(300L, 1_300L);
    }
  }

  @Test
  void noRequestStartsWithLessThanTheMinimumLeftOnTheFence() {
    api.create(GATEWAY);
    leadership.elect();
    try (StatusWriter w = writer(Duration.ofSeconds(2))) {
      leadership.fenceEndsIn(FencedCalls.MIN_TIME_LEFT.dividedBy(2));
      w.publish(Statuses.all(List.of(GATEWAY), 1, State.ACCEPTED));
      hold(Duration.ofMillis(300)); // the fence has ended meanwhile
      assertThat(api.gets.get() + api.updates.get()).as("calls started in the last 50 ms of a fence").isZero();

      leadership.elect(); // a new term with time to spare: now it writes
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 1);
    }
  }

  @Test
  void aCallHeldUntilTheFenceIsRenewedThenGoesAhead() {
    api.create(GATEWAY);
    leadership.elect();
    try (StatusWriter w = writer(Duration.ofSeconds(2))) {
      leadership.timeLeftStaysAt(FencedCalls.MIN_TIME_LEFT.dividedBy(2));
      w.publish(Statuses.all(List.of(GATEWAY), 1, State.ACCEPTED));
      hold(Duration.ofMillis(300));
      assertThat(api.gets.get() + api.updates.get()).as("calls started with 50 ms left").isZero();

      leadership.renew();
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 1);
    }
  }

  @Test
  void closeWaitsForTheWriteInFlightAndReturnsWithinTheRequestTimeoutPlusTheMargin() throws Exception {
    api.create(GATEWAY);
    holdPuts();
    leadership.elect();
    Duration requestTimeout = Duration.ofMillis(400);
    StatusWriter w = writer(requestTimeout);
    w.publish(Statuses.all(List.of(GATEWAY), 1, State.REJECTED));
    assertThat(putEntered.await(3, TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();
    w.close(); // the PUT never answers
    long closeMs = (System.nanoTime() - start) / 1_000_000;
    assertThat(closeMs).isLessThanOrEqualTo(requestTimeout.plus(StatusWriter.CLOSE_MARGIN).toMillis() + 200);

    int updates = api.updates.get();
    releasePut.countDown();
    w.publish(Statuses.all(List.of(GATEWAY), 2, State.ACCEPTED));
    hold(Duration.ofMillis(300));
    assertThat(api.updates.get()).as("requests after close").isEqualTo(updates);
  }

  @Test
  void closeLetsAWriteThatAnswersInTimeLandFirst() throws Exception {
    api.create(GATEWAY);
    holdPuts();
    leadership.elect();
    StatusWriter w = writer(Duration.ofSeconds(2));
    w.publish(Statuses.all(List.of(GATEWAY), 1, State.REJECTED));
    assertThat(putEntered.await(3, TimeUnit.SECONDS)).isTrue();
    Thread answer = new Thread(() -> {
      await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> true);
      releasePut.countDown();
    });
    answer.start();
    w.close();
    assertThat(api.objects.get(GATEWAY).getAdditionalProperties()).as("written before close returned")
        .containsKey("status");
    answer.join();
  }

  /**
   * An error in a pass never ends the writer thread; one that leaves the JVM unsound (here a stack overflow) also
   * goes to the fatal handler, which in production ends the process so that it restarts sound.
   */
  @Test
  void anErrorInAPassDoesNotEndTheWriterThreadAndAFatalOneReachesTheFatalHandler() {
    List<String> fatal = new java.util.concurrent.CopyOnWriteArrayList<>();
    io.holdfast.common.WorkerFailures.FatalHandler previous = io.holdfast.common.WorkerFailures.onFatal(
        (worker, error) -> fatal.add(worker + " " + error));
    api.create(GATEWAY);
    api.onGet = () -> {
      api.onGet = () -> { };
      throw new StackOverflowError("injected");
    };
    leadership.elect();
    try (StatusWriter w = StatusWriter.builder(api, leadership).callsPerSecond(1000).build().start()) {
      w.publish(Statuses.all(List.of(GATEWAY), 1, State.ACCEPTED));
      await().atMost(Duration.ofSeconds(5)).until(() -> api.updates.get() == 1);
      assertThat(api.gets.get()).isEqualTo(2);
      assertThat(fatal).singleElement().asString().startsWith(StatusWriter.WORKER).contains("StackOverflowError");
    } finally {
      io.holdfast.common.WorkerFailures.onFatal(previous);
    }
  }
}
