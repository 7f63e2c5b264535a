package io.holdfast.kube.status;

import static io.holdfast.kube.status.Statuses.ALL;
import static io.holdfast.kube.status.Statuses.GATEWAY;
import static io.holdfast.kube.status.Statuses.UPSTREAM;
import static io.holdfast.kube.status.Statuses.VS;
import static io.holdfast.kube.status.Statuses.shows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.kube.status.StatusCluster.Replica;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.FaultProxy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Three replicas with real electors publish the same statuses; the emulated API records which replica's client
 * sent each status write, and when it arrived. The elections run in real time; the writers' own waits (backoff,
 * rate limit, quiet intervals) on a manual clock the test moves.
 */
@ExtendWith(QuickAwait.class)
class StatusWriterElectionTest {
  private static final Duration SETTLE = Duration.ofSeconds(1);

  private final WriterTime time = new WriterTime();

  private static Map<ResourceKey, DesiredStatus> mixed(long generation) {
    Map<ResourceKey, DesiredStatus> m = new LinkedHashMap<>();
    m.put(GATEWAY, DesiredStatus.of(Statuses.verdict(GATEWAY, generation, State.ACCEPTED)));
    m.put(VS, DesiredStatus.of(Statuses.verdict(VS, generation, State.REJECTED)));
    m.put(UPSTREAM, DesiredStatus.of(Statuses.verdict(UPSTREAM, generation, State.WARNING)));
    return m;
  }

  /** Waits until {@code desired} shows on the objects, moving the writers' clock meanwhile (for any retry). */
  private void awaitShown(StatusCluster c, Map<ResourceKey, DesiredStatus> desired, Duration within) {
    time.advanceUntil(() -> desired.entrySet().stream().allMatch(e -> shows(c.api.status(e.getKey()), e.getValue())),
        Duration.ofMillis(100), within);
  }

  private static Replica awaitSingleLeader(StatusCluster c) {
    await().atMost(Duration.ofSeconds(10)).until(() -> c.leaders().size() == 1);
    return c.leaders().get(0);
  }

  private static List<ApiWrite> successful(StatusCluster c) {
    return c.api.statusWrites().stream().filter(w -> w.code() == 200).toList();
  }

  @Test
  void statusesAppearOnTheObjectsWrittenByTheLeaderOnly() {
    try (StatusCluster c = StatusCluster.start(3, time)) {
      ALL.forEach(c.api::create);
      Replica leader = awaitSingleLeader(c);
      Map<ResourceKey, DesiredStatus> desired = mixed(1);
      c.publishAll(desired);
      awaitShown(c, desired, Duration.ofSeconds(5));
      time.advance(SETTLE); // followers get time to misbehave

      List<Replica> everElected = c.replicas.stream().filter(r -> !r.electedAt.isEmpty()).toList();
      assertThat(everElected).contains(leader);
      for (Replica r : c.replicas) {
        if (!everElected.contains(r)) {
          assertThat(c.api.statusWritesFrom(r.userAgent)).as("status writes by follower %s", r).isEmpty();
          assertThat(r.count("written")).isZero();
        }
      }
      List<ApiWrite> writes = successful(c);
      assertThat(writes).allSatisfy(w -> assertThat(everElected.stream().map(r -> r.userAgent)).contains(w.userAgent()));
      if (everElected.size() == 1 && leader.electedAt.size() == 1) {
        // One term: one write per object, all by the leader.
        assertThat(writes).hasSize(3).allSatisfy(w -> assertThat(w.userAgent()).isEqualTo(leader.userAgent));
        assertThat(leader.count("written")).isEqualTo(3);
      }
    }
  }

  @Test
  void aLeaderCutOffWritesNothingFromThenOnAndTheNewLeaderWrites() {
    try (StatusCluster c = StatusCluster.start(3, time)) {
      ALL.forEach(c.api::create);
      Replica old = awaitSingleLeader(c);
      c.publishAll(mixed(1));
      awaitShown(c, mixed(1), Duration.ofSeconds(5));

      long cut = System.nanoTime();
      old.link(FaultProxy::blackhole);
      // New verdicts while the old leader still believes it leads (its fence lasts up to one renew deadline).
      Map<ResourceKey, DesiredStatus> second = Statuses.all(ALL, 2, State.REJECTED);
      c.publishAll(second);
      await().atMost(Duration.ofSeconds(5)).until(() -> c.leaders().stream().anyMatch(r -> r != old));
      Replica successor = c.leaders().stream().filter(r -> r != old).findFirst().orElseThrow();
      awaitShown(c, second, Duration.ofSeconds(5));
      assertThat(old.elector.isLeader()).isFalse();
      await().atMost(Duration.ofSeconds(3)).until(() -> !old.demotedAt.isEmpty());
      long demoted = old.demotedAt.get(0);

      old.link(FaultProxy::pass);
      await().atMost(Duration.ofSeconds(5))
          .until(() -> old.elector.observedLeader().equals(Optional.of(successor.name)));
      Map<ResourceKey, DesiredStatus> third = Statuses.all(ALL, 3, State.ACCEPTED);
      c.publishAll(third);
      awaitShown(c, third, Duration.ofSeconds(5));
      time.advance(SETTLE);

      List<ApiWrite> byOld = c.api.statusWritesFrom(old.userAgent);
      assertThat(byOld).as("writes by the old leader after it was cut off").noneMatch(w -> w.receivedNanos() >= cut);
      assertThat(byOld).as("writes by the old leader after its demotion").noneMatch(w -> w.receivedNanos() >= demoted);
      assertThat(c.api.statusWrites().stream().filter(w -> w.receivedNanos() >= cut && w.code() == 200))
          .as("successful writes after the cut").isNotEmpty()
          .allSatisfy(w -> assertThat(w.userAgent()).isEqualTo(successor.userAgent));
      assertThat(successor.count("written")).isGreaterThanOrEqualTo(6); // generation 2, then 3, of each object
      System.out.printf("FIGURE status-cut-off old=%s attempts-failed-after-cut=%.0f demoted-ms-after-cut=%d%n",
          old, old.count("failed"), (demoted - cut) / 1_000_000);
    }
  }

  @Test
  void aNewLeaderReconcilesEveryResourceIncludingOnesAlteredOrClearedByHand() {
    try (StatusCluster c = StatusCluster.start(2, time)) {
      ALL.forEach(c.api::create);
      Replica first = awaitSingleLeader(c);
      Map<ResourceKey, DesiredStatus> desired = mixed(4);
      c.publishAll(desired);
      awaitShown(c, desired, Duration.ofSeconds(5));

      // Behind the writers' backs: one status deleted, one falsified, one left alone.
      c.api.overwriteStatus(GATEWAY, null);
      c.api.overwriteStatus(VS, Map.of("observedGeneration", 4, "conditions", List.of(Map.of(
          "type", "Accepted", "status", "True", "reason", "Accepted", "message", "forged",
          "observedGeneration", 4, "lastTransitionTime", "2020-01-01T00:00:00Z"))));
      assertThat(shows(c.api.status(GATEWAY), desired.get(GATEWAY))).isFalse();
      assertThat(shows(c.api.status(VS), desired.get(VS))).isFalse();
      Object untouched = c.api.status(UPSTREAM);

      Replica next = c.replicas.stream().filter(r -> r != first).findFirst().orElseThrow();
      long handover = System.nanoTime();
      first.close(); // graceful: releases the lease, the other replica takes over at once
      await().atMost(Duration.ofSeconds(5)).until(next.elector::isLeader);
      awaitShown(c, desired, Duration.ofSeconds(5)); // with no new publish: the term start did it

      List<ApiWrite> byNext = c.api.statusWritesFrom(next.userAgent).stream()
          .filter(w -> w.receivedNanos() >= handover && w.code() == 200).toList();
      assertThat(byNext).extracting(ApiWrite::path)
          .containsExactlyInAnyOrder(statusPath(GATEWAY), statusPath(VS));
      assertThat(c.api.status(UPSTREAM)).as("unchanged status not rewritten").isEqualTo(untouched);
      assertThat(next.count("skipped_unchanged")).isGreaterThanOrEqualTo(1);
    }
  }

  static String statusPath(ResourceKey key) {
    return "/apis/gateway.holdfast.io/v1/namespaces/" + key.namespace() + "/" + GatewayCrds.context(key.kind()).getPlural()
        + "/" + key.name() + "/status";
  }
}
