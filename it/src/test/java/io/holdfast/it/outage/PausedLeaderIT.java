package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario 5: the leader is frozen (SIGSTOP) past its lease, another takes over, then it is thawed (SIGCONT). The
 * thawed one must write nothing, and the API's write record must show no status write received while its writer
 * did not hold the lease ({@link LeaseHolderAudit}; the lease may legitimately move A -> B -> A under load).
 */
@ExtendWith(ProcessCleanup.class)
class PausedLeaderIT {
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aThawedLeaderWritesNothingAndWritersNeverOverlap() {
    Reliability.Section s = new Reliability.Section("5", "Paused leader (SIGSTOP past its lease, then SIGCONT)",
        getClass());
    try (OutageCluster c = OutageCluster.start("s5-paused-leader", 3, List.of())) {
      s.timeline(c.timeline());
      ClusterTimings t = c.timings();
      c.awaitAccepted(GatewayResources.virtualService("echo", OutageCluster.DOMAIN, "a"), "True");
      Replica paused = c.leader();
      Replica other = c.others(paused).get(0);
      CallClient onPaused = c.client("pod-on-paused", paused);
      CallClient onOther = c.client("pod-on-other", other);
      c.awaitServed(List.of(onPaused, onOther));

      long pausedAt = System.currentTimeMillis();
      paused.process().pause();
      await("another replica leads").atMost(Duration.ofSeconds(15)).pollInterval(OutageCluster.POLL)
          .until(() -> c.others(paused).stream().anyMatch(Replica::isLeader));
      Replica next = c.others(paused).stream().filter(Replica::isLeader).findFirst().orElseThrow();
      GatewayResources.Resource late = GatewayResources.virtualService("late", "late.test", "b");
      assertThat(c.api().create(late)).isEqualTo(201);
      c.awaitAccepted(late, "True");
      // Frozen well past its lease: it must find out on thawing, not act on what it knew.
      await("frozen past the lease").pollDelay(Duration.ofMillis(100)).atMost(Duration.ofSeconds(30))
          .until(() -> System.currentTimeMillis() - pausedAt > 2 * t.leaseDuration().toMillis());

      long resumedAt = System.currentTimeMillis();
      paused.process().resume();
      await(paused + " answers as follower").atMost(Duration.ofSeconds(10)).pollInterval(OutageCluster.POLL)
          .until(() -> paused.state().map(st -> st.role().equals("follower")).orElse(false));
      long followerMs = System.currentTimeMillis() - resumedAt;
      await("roles stay").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
          .pollInterval(OutageCluster.POLL).until(() -> next.isLeader() && !paused.isLeader());

      List<WriteRecord> writes = c.api().writes();
      List<WriteRecord> afterResume = writes.stream()
          .filter(w -> w.writer().equals(paused.identity()) && w.startMillis() >= resumedAt).toList();
      WriteRecord lastOfPaused = writes.stream().filter(w -> w.writer().equals(paused.identity()) && w.accepted())
          .max(Comparator.comparingLong(WriteRecord::endMillis)).orElseThrow();
      WriteRecord takeover = writes.stream().filter(w -> w.writer().equals(next.identity()) && w.isLeaseWrite()
          && w.accepted() && w.startMillis() > lastOfPaused.endMillis())
          .min(Comparator.comparingLong(WriteRecord::startMillis)).orElseThrow();
      WriterRuns runs = WriterRuns.of(writes);
      LeaseHolderAudit audit = LeaseHolderAudit.of(writes);

      assertThat(afterResume.stream().filter(WriteRecord::accepted).toList())
          .as("accepted writes by the thawed leader").isEmpty();
      assertThat(afterResume.stream().filter(WriteRecord::isStatusWrite).toList())
          .as("status write attempts by the thawed leader").isEmpty();
      assertThat(audit.violations()).as("status writes received while their writer did not hold the lease"
          + " (holders %s)", audit.describe()).isEmpty();
      assertThat(audit.tenureAt(Long.MAX_VALUE).holder()).isEqualTo(next.identity());
      assertThat(onPaused.failed()).as("calls of a client whose control plane is frozen").isZero();
      assertThat(onOther.failed()).isZero();
      assertThat(onPaused.succeededSince(pausedAt, "a")).isPositive();

      s.figure("pause length", Reliability.seconds(resumedAt - pausedAt))
          .figure("paused leader's last write to takeover write", (takeover.startMillis() - lastOfPaused.endMillis())
              + " ms")
          .figure("write attempts by the thawed leader after SIGCONT (accepted)",
              afterResume.size() + " (" + afterResume.stream().filter(WriteRecord::accepted).count() + ")")
          .figure("SIGCONT to follower (observed)", followerMs + " ms")
          .figure("lease holders (from the API's write record)", audit.describe())
          .figure("status writes received while their writer did not hold the lease", audit.violations().size())
          .figure("writer runs (writer: writes)", runs.runs().stream().map(r -> r.writer() + ": " + r.writes()).toList())
          .figure("smallest gap between two writers' runs", runs.gaps().stream().min(Long::compare)
              .map(g -> g + " ms").orElse("none"))
          .figure("client calls succeeded / failed (one client on the frozen replica)",
              c.succeededCalls() + " / " + c.failedCalls())
          .passed();
    } finally {
      s.write();
    }
  }
}
