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
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How long the writer may wait on the API: each request at most min(request timeout, time left on the fence), none
 * started with less than {@link FencedCalls#MIN_TIME_LEFT} left, {@link StatusWriter#close()} bounded; and no failure
 * ends its thread. The request bounds are measured on a manual clock the test moves; {@code close()}'s bound is
 * real time (it joins the writer thread), so those tests run the writer on the JVM's clock.
 */
@ExtendWith(QuickAwait.class)
class StatusWriterBoundsTest {
  private final WriterTime time = new WriterTime();
  private final FakeLeadership leadership = new FakeLeadership(time.clock);
  private final FakeStatusApi api = new FakeStatusApi();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final CountDownLatch putEntered = new CountDownLatch(1);
  private final CountDownLatch releasePut = new CountDownLatch(1);
  private final AtomicLong putEnteredAt = new AtomicLong();

  @AfterEach
  void release() {
    releasePut.countDown();
  }

  /** A writer on the test's manual clock. */
  private StatusWriter writer(Duration requestTimeout) {
    return time.add(time.on(builder(requestTimeout)).build().start());
  }

  /** A writer on the JVM's clock, with a leadership on it too: for {@code close()}, whose bound is real time. */
  private StatusWriter realTimeWriter(Duration requestTimeout, FakeLeadership realTime) {
    return StatusWriter.builder(api, realTime).requestTimeout(requestTimeout).meterRegistry(registry)
        .backoff(new Backoff(Duration.ofSeconds(20), Duration.ofSeconds(20))).callsPerSecond(1000).build().start();
  }

  private StatusWriter.Builder builder(Duration requestTimeout) {
    return StatusWriter.builder(api, leadership).requestTimeout(requestTimeout).meterRegistry(registry)
        .backoff(new Backoff(Duration.ofSeconds(20), Duration.ofSeconds(20))).callsPerSecond(1000);
  }

  /** Every status PUT blocks until the test releases it, as a request stuck on a slow network. */
  private void holdPuts() {
    api.onUpdate = () -> {
      putEnteredAt.compareAndSet(0, time.now());
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

  @Test
  void aWriteIsAbandonedWhenTheFenceRunsOutNotAtTheLongerRequestTimeout() throws Exception {
    api.create(GATEWAY);
    holdPuts();
    leadership.elect();
    try (StatusWriter w = writer(Duration.ofSeconds(5))) {
      leadership.fenceEndsIn(Duration.ofMillis(600)); // renewals failing: 600 ms of leadership left at most
      long fenceSet = time.now();
      w.publish(Statuses.all(List.of(GATEWAY), 1, State.REJECTED));
      assertThat(putEntered.await(3, TimeUnit.SECONDS)).isTrue();
      time.awaitAnswerAwaited(w);
      time.advanceWhileAwaitingAnswer(w, Duration.ofMillis(599));
      assertThat(failed()).as("abandoned before the fence ended").isZero();
      time.clock.advance(Duration.ofMillis(1));
      w.timeMoved();
      await().atMost(Duration.ofSeconds(3)).until(() -> failed() >= 1);
      long abandonedAfterMs = (time.now() - fenceSet) / 1_000_000;
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
      time.awaitAnswerAwaited(w);
      time.advanceWhileAwaitingAnswer(w, Duration.ofMillis(399));
      assertThat(failed()).as("abandoned before the request timeout").isZero();
      time.clock.advance(Duration.ofMillis(1));
      w.timeMoved();
      await().atMost(Duration.ofSeconds(3)).until(() -> failed() >= 1);
      long abandonedAfterMs = (time.now() - putEnteredAt.get()) / 1_000_000;
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
      time.settle(); // at the fence's last 50 ms
      assertThat(api.gets.get() + api.updates.get()).as("calls started in the last 50 ms of a fence").isZero();
      time.advance(Duration.ofMillis(300), Duration.ofMillis(10)); // the fence ends meanwhile
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
      time.advance(Duration.ofMillis(300), Duration.ofMillis(10));
      assertThat(api.gets.get() + api.updates.get()).as("calls started with 50 ms left").isZero();

      leadership.renew();
      time.advance(Duration.ofMillis(25)); // the held call re-checks the fence every 25 ms
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 1);
    }
  }

  @Test
  void closeWaitsForTheWriteInFlightAndReturnsWithinTheRequestTimeoutPlusTheMargin() throws Exception {
    api.create(GATEWAY);
    holdPuts();
    FakeLeadership realTime = new FakeLeadership();
    realTime.elect();
    Duration requestTimeout = Duration.ofMillis(400);
    StatusWriter w = realTimeWriter(requestTimeout, realTime);
    w.publish(Statuses.all(List.of(GATEWAY), 1, State.REJECTED));
    assertThat(putEntered.await(3, TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();
    w.close(); // the PUT never answers
    long closeMs = (System.nanoTime() - start) / 1_000_000;
    assertThat(closeMs).isLessThanOrEqualTo(requestTimeout.plus(StatusWriter.CLOSE_MARGIN).toMillis() + 200);

    int updates = api.updates.get();
    releasePut.countDown();
    w.publish(Statuses.all(List.of(GATEWAY), 2, State.ACCEPTED));
    await().atMost(Duration.ofSeconds(3)).until(() -> !realTime.worker().isAlive()); // no request can follow
    assertThat(api.updates.get()).as("requests after close").isEqualTo(updates);
  }

  @Test
  void closeLetsAWriteThatAnswersInTimeLandFirst() throws Exception {
    api.create(GATEWAY);
    holdPuts();
    FakeLeadership realTime = new FakeLeadership();
    realTime.elect();
    StatusWriter w = realTimeWriter(Duration.ofSeconds(2), realTime);
    w.publish(Statuses.all(List.of(GATEWAY), 1, State.REJECTED));
    assertThat(putEntered.await(3, TimeUnit.SECONDS)).isTrue();
    Thread closing = Thread.currentThread();
    Thread answer = new Thread(() -> {
      // The answer comes while close() waits for the writer thread (the only timed wait of this thread there).
      await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
          .until(() -> closing.getState() == Thread.State.TIMED_WAITING);
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
