package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.election.ElectionSettings;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenarios 2 and 3: only the leader is cut off from the API. It must be a follower within its renew deadline,
 * write nothing from then on and keep serving xDS; a healthy replica must lead within lease + retry of the old
 * leader's last renewal and write statuses.
 */
@ExtendWith(ProcessCleanup.class)
class LeaderCutOffIT {
  /** Thread scheduling between the renew deadline and the elector acting on it, on a loaded machine. */
  static final long SCHEDULING_SLACK_MS = 300;
  /** Request handling between a replica deciding to write and the API recording it. */
  static final long RECORD_SLACK_MS = 300;

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void theCutOffLeaderStepsDownAndStopsWritingWhileAHealthyReplicaTakesOver() {
    Reliability.Section s2 = new Reliability.Section("2", "Only the leader cut off: it steps down, writes nothing,"
        + " keeps serving xDS", getClass());
    Reliability.Section s3 = new Reliability.Section("3", "Only the leader cut off: a healthy replica takes over"
        + " and writes statuses", getClass());
    try (OutageCluster c = OutageCluster.start("s2-leader-cut", 3, List.of())) {
      s2.timeline(c.timeline());
      ClusterTimings t = c.timings();
      c.awaitAccepted(GatewayResources.virtualService("echo", OutageCluster.DOMAIN, "a"), "True");
      Replica old = c.leader();
      CallClient onOld = c.clientServed("pod-on-old-leader", old);

      long cutAt = System.currentTimeMillis();
      old.cut();
      await(old + " follower").atMost(Duration.ofSeconds(10)).pollInterval(OutageCluster.POLL)
          .until(() -> c.firstSeen(old.identity(), "follower", cutAt) >= 0
              && old.loggedAt("LEADER -> FOLLOWER", cutAt).isPresent());
      long observedStepDownMs = c.firstSeen(old.identity(), "follower", cutAt) - cutAt;
      // Judged on the replica's own log (when its elector demoted), not on polling, whose delay a loaded machine
      // stretches: the renewal before the cut was sent at or before it, so the fence closed by cut + deadline.
      long stepDownMs = old.loggedAt("LEADER -> FOLLOWER", cutAt).getAsLong() - cutAt;
      assertThat(stepDownMs).as("cut to the elector's demotion (its log)")
          .isLessThanOrEqualTo(t.renewDeadline().toMillis() + SCHEDULING_SLACK_MS);

      await("a healthy replica leads").atMost(Duration.ofSeconds(15)).pollInterval(OutageCluster.POLL)
          .until(() -> c.others(old).stream().anyMatch(Replica::isLeader));
      Replica next = c.leader();
      assertThat(next).isNotSameAs(old);

      // Something for the new leader to write: a VirtualService created after the takeover.
      GatewayResources.Resource late = GatewayResources.virtualService("late", "late.test", "b");
      long appliedAt = System.currentTimeMillis();
      assertThat(c.api().create(late)).isEqualTo(201);
      c.awaitAccepted(late, "True");
      long acceptedMs = System.currentTimeMillis() - appliedAt;
      CallClient newOnOld = c.clientServed("pod-new-on-cut-replica", old);

      c.hold(Duration.ofSeconds(3), "leader still cut off");
      long restoredAt = System.currentTimeMillis();
      old.restore();
      await("roles stay: " + next + " leads, " + old + " follows").during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(10)).pollInterval(OutageCluster.POLL)
          .until(() -> next.isLeader() && old.state().map(st -> st.role().equals("follower")).orElse(false));

      List<WriteRecord> writes = c.api().writes();
      WriteRecord lastRenewal = writes.stream()
          .filter(w -> w.writer().equals(old.identity()) && w.isLeaseWrite() && w.accepted())
          .max(Comparator.comparingLong(WriteRecord::endMillis)).orElseThrow();
      WriteRecord takeover = writes.stream()
          .filter(w -> w.writer().equals(next.identity()) && w.isLeaseWrite() && w.accepted()
              && w.startMillis() > lastRenewal.endMillis())
          .min(Comparator.comparingLong(WriteRecord::startMillis)).orElseThrow();
      long takeoverMs = takeover.startMillis() - lastRenewal.endMillis();
      // A follower takes over once the lease has been unchanged for its duration, at its next attempt (a retry
      // period, jittered), after reading the lease (up to a lock timeout).
      long bound = t.leaseDuration().toMillis() + (long) (t.retryPeriod().toMillis()
          * (1 + ElectionSettings.JITTER_FACTOR)) + t.lockTimeout().toMillis();
      long oldWrites = c.statusWritesBy(old.identity(), cutAt);
      long oldLeaseWritesAfter = writes.stream().filter(w -> w.writer().equals(old.identity())
          && w.startMillis() >= restoredAt && w.accepted()).count();
      long nextStatusWrites = c.statusWritesBy(next.identity(), takeover.startMillis());

      assertThat(oldWrites).as("status writes by the cut-off leader after the cut").isZero();
      assertThat(oldLeaseWritesAfter).as("accepted writes by the old leader after it got the API back").isZero();
      assertThat(old.process().isAlive()).isTrue();
      assertThat(onOld.failed()).as("failures: %s", onOld.failures()).isZero();
      assertThat(onOld.succeededSince(cutAt, "a")).isPositive();
      assertThat(newOnOld.succeeded()).isPositive();
      assertThat(takeoverMs).as("old leader's last renewal to the new leader's takeover write")
          .isLessThanOrEqualTo(bound + RECORD_SLACK_MS);
      assertThat(nextStatusWrites).as("status writes by the new leader").isPositive();
      LeaseHolderAudit audit = LeaseHolderAudit.of(writes);
      assertThat(audit.violations()).as("status writes received while their writer did not hold the lease"
          + " (holders %s)", audit.describe()).isEmpty();

      s2.figure("cut to follower (its log, bound: renew deadline " + t.renewDeadline().toMillis() + " ms)",
              stepDownMs + " ms")
          .figure("cut to follower (observed by polling /state)", observedStepDownMs + " ms")
          .figure("status writes by the cut-off replica after the cut", oldWrites)
          .figure("accepted writes by it after its API came back", oldLeaseWritesAfter)
          .figure("calls through it after the cut: succeeded / failed",
              onOld.succeededSince(cutAt, null) + " / " + onOld.failed())
          .figure("new client on the cut-off replica: time to first answer",
              newOnOld.timeToFirstSuccess().map(ms -> ms + " ms").orElse("never"))
          .passed();
      s3.figure("old leader's last renewal to takeover write (bound: lease + jittered retry + lock timeout " + bound
              + " ms)",
              takeoverMs + " ms")
          .figure("old / new leader", old + " / " + next)
          .figure("status writes by the new leader", nextStatusWrites)
          .figure("VirtualService created after takeover to Accepted on the API", acceptedMs + " ms")
          .figure("lease holders (from the API's write record)", audit.describe())
          .figure("status writes received while their writer did not hold the lease", audit.violations().size())
          .passed();
    } finally {
      s2.write();
      s3.write();
    }
  }
}
