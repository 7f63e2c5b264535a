package io.holdfast.kube.status;

import static io.holdfast.kube.status.Statuses.ALL;
import static io.holdfast.kube.status.Statuses.shows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.kube.status.StatusCluster.Replica;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Status flows pull-based: the writer reads the desired statuses on its own thread, and a change only wakes it.
 * Regression for the race where a NACK listener on a Netty event loop computed statuses from an older build,
 * was overtaken by the pipeline publishing a newer one, and then published its older map, which stuck.
 */
@ExtendWith(QuickAwait.class)
class StatusWriterPullTest {

  @Test
  void aBuildPublishedWhileTheWriterReadsAnOlderOneIsWrittenAndTheOlderOneDoesNotStick() throws Exception {
    WriterTime time = new WriterTime();
    try (StatusCluster c = StatusCluster.leading(time, b -> b)) { // the election plays no part in this race
      ALL.forEach(c.api::create);
      Replica r = c.replicas.get(0);
      await().atMost(Duration.ofSeconds(10)).until(r.leadership::isLeader);
      Map<ResourceKey, DesiredStatus> older = Statuses.all(ALL, 1, State.REJECTED);
      Map<ResourceKey, DesiredStatus> newer = Statuses.all(ALL, 2, State.ACCEPTED);
      AtomicReference<Map<ResourceKey, DesiredStatus>> board = new AtomicReference<>(older);
      CountDownLatch readingOlder = new CountDownLatch(1);
      CountDownLatch newerPublished = new CountDownLatch(1);
      AtomicBoolean first = new AtomicBoolean(true);

      // The writer's first read takes the older build and is held there while the newer one is published and
      // announced: exactly the window in which a pushed map from an event loop used to overtake the newer one.
      r.writer.follow(() -> {
        Map<ResourceKey, DesiredStatus> seen = board.get();
        if (first.getAndSet(false)) {
          readingOlder.countDown();
          try {
            newerPublished.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return seen;
      });
      assertThat(readingOlder.await(10, TimeUnit.SECONDS)).isTrue();
      board.set(newer);
      r.writer.changed(); // the pipeline's wake
      newerPublished.countDown();
      Thread late = new Thread(r.writer::changed, "late-nack-listener"); // a NACK listener's wake, late
      late.start();
      late.join();

      time.advanceUntil(() -> newer.entrySet().stream().allMatch(e -> shows(c.api.status(e.getKey()), e.getValue())),
          Duration.ofMillis(100), Duration.ofSeconds(10));
      time.advance(Duration.ofMillis(300)); // a stuck older map would be written back now
      newer.forEach((key, want) -> assertThat(shows(c.api.status(key), want)).as(key.toString()).isTrue());
      assertThat(r.writer.pending()).isZero();
    }
  }
}
