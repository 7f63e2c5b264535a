package io.holdfast.kube.status;

import static io.holdfast.kube.status.Statuses.ALL;
import static io.holdfast.kube.status.Statuses.GLOO_VS;
import static io.holdfast.kube.status.Statuses.shows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.election.ElectionSettings;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.kube.status.StatusCluster.Replica;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.FencingAudit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The fencing guarantee under DELAYED (not dropped) traffic: three replicas with real electors, statuses changing
 * all the time, then the leader's link (lease and status traffic alike) slowed down so much that its renewals time
 * out, while each of its requests still reaches the API within the stated bound (leaderRequestTimeout +
 * fenceSlack). Every status byte the old leader sends arrives, late; the audit runs on what the API received: every
 * status write must come from the Lease holder of that moment, the holder timeline taken from the successful Lease
 * writes in the same record. The objects include a Gloo Edge VirtualService, whose status is written by a PUT of the
 * whole object (Gloo's CRD has no /status): those writes are audited by the same fence, and must be in the record.
 *
 * <p>Once the old leader has demoted itself, its lease link gets slower still (its status link stays as it was, so
 * any status write it might still send would land and be audited): a demoted replica re-takes its own lease at
 * once, and under a delay longer than the lock timeout its acquire times out but lands, which keeps the lease
 * looking alive so nobody else can take it (an election liveness issue, not a fencing one).
 */
class StatusWriterDelayedLeaderIT {
  /**
   * Per chunk, each way. A request reaches the API at most 2 x 350 ms after it was sent (even with a proxy that
   * makes a chunk wait for the one ahead of it): within leaderRequestTimeout + fenceSlack (900 ms). A renewal's
   * round trip takes at least 700 ms, more than the 500 ms lock timeout: renewals fail.
   */
  private static final Duration LATENCY = Duration.ofMillis(350);
  private static final Duration PUBLISH_EVERY = Duration.ofMillis(100);
  /** The demoted leader's lease link: slow enough that none of its lease writes lands while the test runs. */
  private static final Duration AFTER_DEMOTION = Duration.ofSeconds(20);
  /** Holdfast's kinds (statuses through /status) and a Gloo Edge one (status through the object). */
  private static final List<ResourceKey> KEYS = Stream.concat(ALL.stream(), Stream.of(GLOO_VS)).toList();

  @Test
  void aLeaderWhoseTrafficIsDelayedNeverHasAStatusWriteLandWhileAnotherReplicaHoldsTheLease() {
    ElectionSettings settings = StatusCluster.settings("r0");
    assertThat(LATENCY.multipliedBy(2)).as("the stated bound on a leader-only request's delay")
        .isLessThanOrEqualTo(settings.leaderRequestTimeout().plus(settings.fenceSlack()));
    assertThat(LATENCY.multipliedBy(2)).as("a renewal's round trip must exceed the lock timeout")
        .isGreaterThan(settings.lockTimeout());
    ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor();
    try (StatusCluster c = StatusCluster.start(3)) {
      GlooCrdFiles.install(c.api.admin, GatewayCrds.context(GLOO_VS).orElseThrow());
      KEYS.forEach(c.api::create);
      await().atMost(Duration.ofSeconds(10)).until(() -> c.leaders().size() == 1);
      Replica old = c.leaders().get(0);
      AtomicLong generation = new AtomicLong();
      AtomicReference<Map<ResourceKey, DesiredStatus>> last = new AtomicReference<>();
      publisher.scheduleAtFixedRate(() -> {
        long g = generation.incrementAndGet();
        if (g <= 400) { // at most 40 s of changes, whatever happens
          last.set(Statuses.all(KEYS, g, g % 2 == 0 ? State.REJECTED : State.ACCEPTED));
          c.publishAll(last.get());
        }
      }, 0, PUBLISH_EVERY.toMillis(), TimeUnit.MILLISECONDS);
      await().atMost(Duration.ofSeconds(5)).until(() -> c.api.statusWritesFrom(old.userAgent).stream()
          .filter(ApiWrite::succeeded).count() >= 6 && c.api.statusWritesFrom(old.userAgent).stream()
          .anyMatch(w -> w.succeeded() && w.isStatusInObjectKind()));

      long slowed = System.nanoTime();
      old.link(p -> p.latency(LATENCY));
      await().atMost(Duration.ofSeconds(10)).until(() -> !old.demotedAt.isEmpty());
      old.leaseProxy.latency(AFTER_DEMOTION);
      await().atMost(Duration.ofSeconds(10)).until(() -> c.leaders().stream().anyMatch(r -> r != old));
      Replica successor = c.leaders().stream().filter(r -> r != old).findFirst().orElseThrow();
      // Changes go on past the hand-over, then stop; the successor must show the last of them.
      long stopAt = generation.get() + 15;
      await().atMost(Duration.ofSeconds(10)).until(() -> generation.get() >= stopAt);
      publisher.shutdownNow();
      Map<ResourceKey, DesiredStatus> finalStatuses = last.get();
      await().atMost(Duration.ofSeconds(10)).until(() -> finalStatuses.entrySet().stream()
          .allMatch(e -> shows(c.api.status(e.getKey()), e.getValue())));
      Duration straggle = LATENCY.multipliedBy(2).plusMillis(300); // anything the old leader sent has landed by now
      await().pollDelay(straggle).atMost(straggle.plusSeconds(1)).until(() -> true);

      List<FencingAudit.Entry> record = c.api.mock.auditEntries(StatusCluster::writerOf);
      List<FencingAudit.Violation> violations = FencingAudit.violations(record);
      List<ApiWrite> lateByOld = c.api.statusWritesFrom(old.userAgent).stream()
          .filter(w -> w.receivedNanos() > slowed).toList();
      long takeover = record.stream().filter(e -> e.kind() == FencingAudit.Kind.LEASE && e.applied()
          && e.holder().equals(successor.name)).mapToLong(FencingAudit.Entry::receivedAt).min().orElseThrow();
      long lastByOld = lateByOld.stream().mapToLong(ApiWrite::receivedNanos).max().orElse(slowed);
      List<ApiWrite> glooWrites = c.api.statusWrites().stream().filter(ApiWrite::isStatusInObjectKind).toList();
      List<Optional<FencingAudit.Entry>> glooAudited = glooWrites.stream()
          .map(w -> w.auditEntry(StatusCluster::writerOf)).toList();
      System.out.printf("FIGURE status-delayed-leader latency-ms=%d old=%s successor=%s old-writes-after-slowdown=%d"
          + " last-old-write-before-takeover-ms=%d takeover-after-slowdown-ms=%d gloo-status-writes=%d violations=%d%n",
          LATENCY.toMillis(), old, successor, lateByOld.size(), (takeover - lastByOld) / 1_000_000,
          (takeover - slowed) / 1_000_000, glooWrites.size(), violations.size());
      assertThat(glooWrites).as("Gloo status writes (whole-object PUTs) the API received from the replicas")
          .isNotEmpty()
          .allSatisfy(w -> assertThat(w.method()).isEqualTo("PUT"))
          .extracting(ApiWrite::userAgent).contains(old.userAgent, successor.userAgent);
      assertThat(glooAudited).as("each Gloo status write is a leader-only entry of the audited record")
          .allSatisfy(e -> assertThat(e).hasValueSatisfying(entry -> {
            assertThat(entry.kind()).isEqualTo(FencingAudit.Kind.STATUS);
            assertThat(record).contains(entry);
          }));
      assertThat(violations).as("status writes that reached the API while their writer did not hold the Lease")
          .isEmpty();
      assertThat(lateByOld).as("the old leader's writes were delayed, not dropped: some arrived after the slow-down")
          .isNotEmpty();
      assertThat(FencingAudit.timeline(record)).extracting(FencingAudit.Holding::holder)
          .as("the Lease moved from the slowed leader to another replica").contains(old.name, successor.name);
    } finally {
      publisher.shutdownNow();
    }
  }
}
