package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario 11 (issue 10, item 3): the leader's API traffic is slowed down, not cut, and its status writes arrive
 * late. Statuses change every {@value #CHURN_MS} ms. First the leader's status connection (the leader-only
 * requests the fence guards) is delayed by {@link #STATUS_DELAY} each way, within the bound the fence assumes (a
 * leader-only request reaches the API within leader request timeout + fence slack of being sent): it keeps
 * leading and writing, slowly, with a backlog of changes. Then its main link (Lease, informers) is delayed by
 * {@link #MAIN_DELAY}, past the lease, so its renewals miss the lock timeout and cannot land in time either:
 * another replica takes over, while the old leader keeps sending status writes into the slow link until its
 * fence closes. (With the main link delayed within the bound too, the renewals the old leader believes failed
 * still land, late, and keep the Lease alive: nobody takes over while the delay lasts. Safe, since the old
 * leader does not act, but not this scenario.) Nothing is dropped: every byte is delivered, late. Audit of the
 * API's write record: every status write's writer held the Lease when the API received it
 * ({@link LeaseHolderAudit}).
 */
@ExtendWith(ProcessCleanup.class)
class DelayedLeaderLinkIT {
  static final ClusterTimings TIMINGS = ClusterTimings.FENCED;
  static final Duration STATUS_DELAY = Duration.ofMillis(1200);
  static final Duration MAIN_DELAY = Duration.ofSeconds(6);
  static final int ROUNDS = 2;
  static final long CHURN_MS = 500;

  /** What one slowed-down leader showed. */
  record Round(String leader, String next, long delayToTakeoverMs, int writesUnderDelay, long lastWriteToTakeoverMs) {
    @Override
    public String toString() {
      return leader + " -> " + next + ": takeover " + delayToTakeoverMs + " ms after its renewals were delayed;"
          + " status writes it sent after that and the API received: " + writesUnderDelay + ", the last "
          + lastWriteToTakeoverMs + " ms before the takeover";
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyStatusWriteOfASlowedLeaderLandsWhileItStillHoldsTheLease() {
    Duration bound = TIMINGS.deliveryBound().orElseThrow();
    assertThat(STATUS_DELAY).as("status writes stay within the fence's stated bound").isLessThan(bound);
    assertThat(MAIN_DELAY).as("a late renewal lands after the lease would have expired")
        .isGreaterThan(TIMINGS.leaseDuration().plus(TIMINGS.retryPeriod()));
    Reliability.Section s = new Reliability.Section("11", "The leader's status writes delayed " + STATUS_DELAY.toMillis()
        + " ms each way (within the fence's bound), its renewals too late: another replica takes over", getClass());
    try (OutageCluster c = OutageCluster.startWithStatusLinks("s11-delayed-leader-link", 3, TIMINGS);
         SpecChurn churn = SpecChurn.start(c.api(), Duration.ofMillis(CHURN_MS))) {
      s.timeline(c.timeline());
      List<Round> rounds = new ArrayList<>();
      for (int i = 1; i <= ROUNDS; i++) {
        rounds.add(slowDownTheLeader(c));
      }
      LeaseHolderAudit audit = LeaseHolderAudit.of(c.api().writes());

      s.figure("timings", TIMINGS.describe())
          .figure("status link delay each way (bound: leader request timeout + fence slack " + bound.toMillis()
              + " ms)", STATUS_DELAY.toMillis() + " ms")
          .figure("main link (Lease, informers) delay each way", MAIN_DELAY.toMillis() + " ms")
          .figure("spec edits (every " + CHURN_MS + " ms) / failed", churn.edits() + " / " + churn.failedEdits())
          .figure("lease holders (from the API's write record)", audit.describe())
          .figure("status writes audited", audit.statusWrites().size())
          .figure("status writes received while their writer did not hold the lease", audit.violations().size());
      for (int i = 0; i < rounds.size(); i++) {
        s.figure("round " + (i + 1), rounds.get(i));
      }

      assertThat(audit.violations()).as("status writes received while their writer did not hold the lease"
          + " (holders %s)", audit.describe()).isEmpty();
      assertThat(rounds).as("the slowed leader kept writing into its slow link").anySatisfy(r ->
          assertThat(r.writesUnderDelay()).isPositive());
      s.passed();
    } finally {
      s.write();
    }
  }

  private static Round slowDownTheLeader(OutageCluster c) {
    Replica leader = c.leader();
    long since = System.currentTimeMillis();
    await(leader + " writes statuses").atMost(OutageCluster.CONVERGE).pollInterval(OutageCluster.POLL)
        .until(() -> c.statusWritesBy(leader.identity(), since) > 0);
    long slowedAt = System.currentTimeMillis();
    leader.statusProxy().latency(STATUS_DELAY);
    c.timeline().mark(slowedAt, "harness", "delayed " + leader + "'s status link by " + STATUS_DELAY.toMillis() + " ms");
    await(leader + " writes statuses through its slow link").atMost(OutageCluster.CONVERGE)
        .pollInterval(OutageCluster.POLL).until(() -> c.statusWritesBy(leader.identity(),
            slowedAt + STATUS_DELAY.toMillis()) > 0);
    long delayedAt = System.currentTimeMillis();
    leader.delay(MAIN_DELAY, STATUS_DELAY);
    await("another replica leads").atMost(Duration.ofSeconds(30)).pollInterval(OutageCluster.POLL)
        .until(() -> c.others(leader).stream().anyMatch(Replica::isLeader));
    await(leader + " follows").atMost(Duration.ofSeconds(30)).pollInterval(OutageCluster.POLL)
        .until(() -> leader.state().map(st -> st.role().equals("follower")).orElse(false));
    // Whatever it sent before its fence closed is delivered: the delay is held until the status link drains.
    await(leader + "'s status link drained").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
        .until(() -> leader.statusProxy().bytesInFlightToServer() == 0);
    leader.restore();
    c.awaitReadyWithOneLeader();

    List<WriteRecord> writes = c.api().writes();
    LeaseHolderAudit audit = LeaseHolderAudit.of(writes);
    LeaseHolderAudit.Tenure takeover = audit.nextHolderAfter(leader.identity(), delayedAt).orElseThrow(
        () -> new AssertionError("no Lease write by another replica after the delay: " + audit.describe()));
    List<WriteRecord> underDelay = writes.stream().filter(w -> w.isStatusWrite()
        && w.writer().equals(leader.identity()) && w.startMillis() >= delayedAt + STATUS_DELAY.toMillis()
        && w.startMillis() < takeover.fromMillis() + TIMINGS.leaseDuration().toMillis()).toList();
    long last = underDelay.stream().mapToLong(WriteRecord::startMillis).max().orElse(delayedAt);
    return new Round(leader.identity(), takeover.holder(), takeover.fromMillis() - delayedAt, underDelay.size(),
        takeover.fromMillis() - last);
  }
}
