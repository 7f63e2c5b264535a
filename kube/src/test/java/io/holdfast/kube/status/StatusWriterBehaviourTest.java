package io.holdfast.kube.status;

import static io.holdfast.kube.status.Statuses.ALL;
import static io.holdfast.kube.status.Statuses.GATEWAY;
import static io.holdfast.kube.status.Statuses.shows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.kube.status.StatusCluster.Replica;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One replica, leading throughout (the election is not what is tested here: {@link StatusWriterElectionTest} runs
 * real electors), against the recording mock: skips, conflicts, failures, pacing. The writer's waits (backoff, rate
 * limit, between passes) run on a manual clock the test moves: a quiet interval or a backoff window is given to the
 * writer, not waited for.
 */
@ExtendWith(QuickAwait.class)
class StatusWriterBehaviourTest {
  /**
   * Slowest publish allowed: a publish that waited for the API would take at least a request timeout (600 ms);
   * the margin below that absorbs scheduling and GC pauses on a loaded machine.
   */
  private static final Duration PUBLISH_BOUND = Duration.ofMillis(200);

  private final WriterTime time = new WriterTime();

  private StatusCluster start(UnaryOperator<StatusWriter.Builder> tuning) {
    return StatusCluster.leading(time, tuning);
  }

  private StatusCluster start() {
    return start(b -> b);
  }

  /** Moves the writer's clock until {@code desired} shows on the objects (its retries and waits are on that clock). */
  private void advanceUntilShown(StatusCluster c, Map<ResourceKey, DesiredStatus> desired, Duration step) {
    time.advanceUntil(() -> desired.entrySet().stream().allMatch(e -> shows(c.api.status(e.getKey()), e.getValue())),
        step, Duration.ofSeconds(10));
  }

  private static Replica leader(StatusCluster c) {
    Replica r = c.replicas.get(0);
    await().atMost(Duration.ofSeconds(10)).until(r.leadership::isLeader);
    return r;
  }

  /** Waits until {@code desired} shows on the objects, moving the writer's clock meanwhile (for any retry). */
  private void awaitShown(StatusCluster c, Map<ResourceKey, DesiredStatus> desired) {
    advanceUntilShown(c, desired, Duration.ofMillis(100));
  }

  private static List<ApiWrite> written(StatusCluster c, Replica r) {
    return c.api.statusWritesFrom(r.userAgent).stream().filter(w -> w.code() == 200).toList();
  }

  @Test
  void unchangedStatusesAreNotRewritten() {
    try (StatusCluster c = start()) {
      ALL.forEach(c.api::create);
      Replica r = leader(c);
      Map<ResourceKey, DesiredStatus> desired = Statuses.all(ALL, 1, State.REJECTED);
      r.writer.publish(desired);
      awaitShown(c, desired);
      assertThat(written(c, r)).hasSize(3);
      Object before = c.api.status(GATEWAY);

      for (int i = 0; i < 5; i++) {
        r.writer.publish(new LinkedHashMap<>(desired)); // equal, not the same instance
      }
      // Even a full re-read (as at a term start) finds nothing to change.
      r.writer.resync();
      time.advanceUntil(() -> r.count("skipped_unchanged") >= 3, Duration.ofMillis(100), Duration.ofSeconds(5));
      time.advance(Duration.ofMillis(500));
      assertThat(written(c, r)).hasSize(3);
      assertThat(r.count("written")).isEqualTo(3);
      assertThat(c.api.status(GATEWAY)).isEqualTo(before);
      assertThat(r.writer.pending()).isZero();
    }
  }

  @Test
  void aWriteBasedOnAStaleObjectGets409AndIsRecomputedOnAFreshRead() {
    try (StatusCluster c = start()) {
      ALL.forEach(c.api::create);
      Replica r = leader(c);
      Map<ResourceKey, DesiredStatus> first = Statuses.all(ALL, 1, State.ACCEPTED);
      r.writer.publish(first);
      awaitShown(c, first);

      // The object changes after the writer last saw it (it keeps the object its own write returned).
      editSpec(c, GATEWAY, "edited by a user");
      Map<ResourceKey, DesiredStatus> second = Statuses.all(ALL, 2, State.REJECTED);
      r.writer.publish(second);
      awaitShown(c, second);

      List<Integer> codes = c.api.statusWritesFrom(r.userAgent).stream()
          .filter(w -> w.path().equals(StatusWriterElectionTest.statusPath(GATEWAY))).map(ApiWrite::code).toList();
      assertThat(codes).containsExactly(200, 409, 200);
      assertThat(r.count("conflict")).isEqualTo(1);
      assertThat(spec(c, GATEWAY)).isEqualTo("edited by a user");
    }
  }

  @Test
  void aStaleObjectFromTheCacheCosts409AndARereadNotAnOverwrite() {
    try (StatusCluster c = start()) {
      ALL.forEach(c.api::create);
      GenericKubernetesResource stale = c.api.get(GATEWAY);
      editSpec(c, GATEWAY, "newer than the cache");
      Replica r = c.replicas.get(0);
      r.cache = k -> k.equals(GATEWAY) ? Optional.of(stale) : Optional.empty();
      leader(c);
      Map<ResourceKey, DesiredStatus> desired = Statuses.all(ALL, 3, State.WARNING);
      r.writer.publish(desired);
      awaitShown(c, desired);

      List<ApiWrite> gateway = c.api.statusWritesFrom(r.userAgent).stream()
          .filter(w -> w.path().equals(StatusWriterElectionTest.statusPath(GATEWAY))).toList();
      assertThat(gateway).extracting(ApiWrite::code).containsExactly(409, 200);
      assertThat(gateway.get(0).resourceVersion()).isEqualTo(stale.getMetadata().getResourceVersion());
      assertThat(gateway.get(1).resourceVersion()).isNotEqualTo(stale.getMetadata().getResourceVersion());
      assertThat(spec(c, GATEWAY)).isEqualTo("newer than the cache");
    }
  }

  @Test
  void failingWritesBackOffAndNeverBlockPublish() {
    try (StatusCluster c = start()) { // backoff 100 ms doubling to 400 ms
      ALL.forEach(c.api::create);
      Replica r = leader(c);
      c.api.mock.failStatusWrites(500);
      long windowStart = System.nanoTime();
      r.writer.publish(Statuses.all(ALL, 1, State.ACCEPTED));
      time.settle();
      time.advance(Duration.ofSeconds(2), Duration.ofMillis(50));
      long attempts = c.api.statusWritesFrom(r.userAgent).stream().filter(w -> w.receivedNanos() >= windowStart).count();
      // 100 + 200 + 400 + 400 + ... ms: about 6 attempts in 2 s; without backoff it would be hundreds.
      assertThat(attempts).isBetween(3L, 10L);
      assertThat(r.count("failed")).isGreaterThanOrEqualTo(3);
      assertThat(r.count("written")).isZero();

      long slowest = 0;
      Map<ResourceKey, DesiredStatus> last = null;
      for (int g = 2; g <= 201; g++) {
        last = Statuses.all(ALL, g, g % 2 == 0 ? State.REJECTED : State.ACCEPTED);
        long t = System.nanoTime();
        r.writer.publish(last);
        slowest = Math.max(slowest, System.nanoTime() - t);
      }
      assertThat(slowest).as("slowest publish, ns").isLessThan(PUBLISH_BOUND.toNanos());

      // Heal only once every object has been tried at the newest generation: no older write is on its way then.
      time.advanceUntil(() -> ALL.stream().allMatch(k -> c.api.statusWritesFrom(r.userAgent)
          .stream().anyMatch(w -> w.path().equals(StatusWriterElectionTest.statusPath(k))
              && observedGeneration(w) == 201)), Duration.ofMillis(100), Duration.ofSeconds(10));
      c.api.mock.stopFailingStatusWrites();
      advanceUntilShown(c, last, Duration.ofMillis(100));
      // 200 publishes, one write per object: only the newest status is written.
      assertThat(r.count("written")).isEqualTo(3);
      System.out.printf("FIGURE status-backoff attempts-in-2s=%d slowest-publish-us=%d%n", attempts, slowest / 1000);
    }
  }

  /**
   * A Gloo Edge object's status goes through a PUT of the whole object (no /status subresource): the API failing it
   * costs the same backoff and retry as a failing /status write, and the status lands once the API heals.
   */
  @Test
  void failingGlooStatusWritesThroughTheObjectBackOffAndAreRetried() {
    try (StatusCluster c = start()) {
      GlooCrdFiles.install(c.api.admin, GatewayCrds.context(Statuses.GLOO_VS).orElseThrow());
      c.api.create(Statuses.GLOO_VS);
      Replica r = leader(c);
      c.api.mock.failStatusWrites(500);
      Map<ResourceKey, DesiredStatus> desired = Statuses.all(List.of(Statuses.GLOO_VS), 1, State.REJECTED);
      r.writer.publish(desired);
      time.settle();
      time.advance(Duration.ofSeconds(2), Duration.ofMillis(50));
      List<ApiWrite> failed = c.api.statusWritesFrom(r.userAgent);
      // 100 + 200 + 400 + 400 + ... ms, as for /status writes: about 6 attempts in 2 s.
      assertThat(failed).hasSizeBetween(3, 10).allSatisfy(w -> {
        assertThat(w.isStatusInObjectKind()).isTrue();
        assertThat(w.code()).isEqualTo(500);
      });
      assertThat(r.count("failed")).isGreaterThanOrEqualTo(3);
      assertThat(r.count("written")).isZero();
      assertThat(c.api.status(Statuses.GLOO_VS)).isNull();

      c.api.mock.stopFailingStatusWrites();
      advanceUntilShown(c, desired, Duration.ofMillis(100));
      assertThat(r.count("written")).isEqualTo(1);
      assertThat(c.api.statusWritesFrom(r.userAgent)).last().extracting(ApiWrite::code).isEqualTo(200);
    }
  }

  @Test
  void publishReturnsAtOnceWhileTheWriterIsStuckOnAnUnansweringApi() {
    try (StatusCluster c = start()) {
      ALL.forEach(c.api::create);
      Replica r = leader(c);
      r.link(FaultProxy::blackhole);
      long end = System.nanoTime() + Duration.ofSeconds(1).toNanos();
      long slowest = 0;
      int g = 1;
      while (System.nanoTime() < end && g < 10_000) {
        long t = System.nanoTime();
        r.writer.publish(Statuses.all(ALL, g++, State.ACCEPTED));
        slowest = Math.max(slowest, System.nanoTime() - t);
      }
      assertThat(slowest).as("slowest publish, ns").isLessThan(PUBLISH_BOUND.toNanos());
      r.link(FaultProxy::pass);
      Map<ResourceKey, DesiredStatus> last = Statuses.all(ALL, g, State.WARNING);
      r.writer.publish(last);
      advanceUntilShown(c, last, Duration.ofMillis(100)); // its backoff after the unanswered calls is on the clock
    }
  }

  @Test
  void callsArePacedByTheRateLimit() {
    List<ResourceKey> keys = IntStream.range(0, 10).mapToObj(i -> ResourceKey.upstream(Statuses.NS, "u" + i)).toList();
    try (StatusCluster c = start(b -> b.callsPerSecond(10))) {
      keys.forEach(c.api::create);
      Replica r = leader(c);
      Map<ResourceKey, DesiredStatus> desired = Statuses.all(keys, 1, State.ACCEPTED);
      r.writer.publish(desired);
      time.settle();
      // When (on the writer's clock) each write was first seen; the writer has done all it will at each step.
      List<Long> seenAt = new ArrayList<>();
      for (int step = 0; step <= 100 && seenAt.size() < 10; step++) {
        if (step > 0) {
          time.advance(Duration.ofMillis(50));
        }
        for (int n = written(c, r).size(); seenAt.size() < n; ) {
          seenAt.add(time.now());
        }
      }
      awaitShown(c, desired);
      List<ApiWrite> writes = written(c, r);
      assertThat(writes).hasSize(10);
      // 20 calls (a read and a write each), a burst of 10, then 10 a second: the last write >= ~1 s after the first.
      long spreadMs = (seenAt.get(9) - seenAt.get(0)) / 1_000_000;
      assertThat(spreadMs).isBetween(800L, 5_000L);
      System.out.printf("FIGURE status-rate-limit calls-per-second=10 objects=10 first-to-last-write-ms=%d%n", spreadMs);
    }
  }

  private static long observedGeneration(ApiWrite w) {
    Object status = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(w.body(), GenericKubernetesResource.class)
        .getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> m && m.get("observedGeneration") instanceof Number g ? g.longValue() : -1;
  }

  private static void editSpec(StatusCluster c, ResourceKey key, String note) {
    c.api.admin.genericKubernetesResources(GatewayCrds.context(key.kind())).inNamespace(key.namespace())
        .withName(key.name()).edit(o -> {
          o.setAdditionalProperty("spec", Map.of("note", note));
          return o;
        });
  }

  private static Object spec(StatusCluster c, ResourceKey key) {
    return ((Map<?, ?>) c.api.get(key).getAdditionalProperties().get("spec")).get("note");
  }
}
