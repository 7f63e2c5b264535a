package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.testkit.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario 10 (issue 10, item 2): a rolling update stops the leader while one of its status writes is on the
 * wire. Three replicas, statuses changing every {@value #CHURN_MS} ms ({@link SpecChurn}); only the leader's
 * status connection is delayed by {@value #STATUS_DELAY_MS} ms (its own proxy, the hidden
 * {@code --kube-status-api-server} flag); once a status PUT is inside that proxy, the leader gets SIGTERM.
 * Audit of the API's write record: no status write from the old leader is received after the next holder's first
 * Lease write, nor after the old leader released the lease ({@link LeaseHolderAudit}). Repeated
 * {@value #REPETITIONS} times, the stopped replica restarted in between.
 */
@ExtendWith(ProcessCleanup.class)
class SigtermWithWritesInFlightIT {
  static final int REPETITIONS = 3;
  static final long STATUS_DELAY_MS = 400;
  static final long CHURN_MS = 500;

  /** What one SIGTERM showed. */
  record Shutdown(String leader, String next, int exitStatus, long stopMs, int inFlightReceived,
      long lastWriteToTakeoverMs, int receivedAfterTakeover) {
    @Override
    public String toString() {
      return leader + " -> " + next + ": exit " + exitStatus + " after " + stopMs + " ms; status writes received"
          + " after SIGTERM " + inFlightReceived + ", after the takeover " + receivedAfterTakeover + "; its last one "
          + (lastWriteToTakeoverMs >= 0 ? lastWriteToTakeoverMs + " ms before" : -lastWriteToTakeoverMs + " ms after")
          + " the takeover";
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void aLeaderStoppedWithAStatusWriteInFlightHandsOverOnlyAfterIt() {
    Reliability.Section s = new Reliability.Section("10", "SIGTERM of the leader with a status write in flight"
        + " (" + STATUS_DELAY_MS + " ms on its status connection)", getClass());
    ClusterTimings t = ClusterTimings.FENCED;
    try (OutageCluster c = OutageCluster.startWithStatusLinks("s10-sigterm-in-flight", 3, t);
         SpecChurn churn = SpecChurn.start(c.api(), Duration.ofMillis(CHURN_MS))) {
      s.timeline(c.timeline());
      List<Shutdown> shutdowns = new ArrayList<>();
      for (int i = 1; i <= REPETITIONS; i++) {
        shutdowns.add(stopTheLeaderMidWrite(c));
      }
      LeaseHolderAudit audit = LeaseHolderAudit.of(c.api().writes());

      s.figure("timings", t.describe())
          .figure("spec edits (every " + CHURN_MS + " ms) / failed", churn.edits() + " / " + churn.failedEdits())
          .figure("lease holders (from the API's write record)", audit.describe())
          .figure("status writes audited", audit.statusWrites().size())
          .figure("status writes received while their writer did not hold the lease", audit.violations().size());
      for (int i = 0; i < shutdowns.size(); i++) {
        s.figure("SIGTERM " + (i + 1), shutdowns.get(i));
      }

      assertThat(shutdowns).as("status writes by the old leader received after the next holder's first Lease write")
          .allSatisfy(d -> assertThat(d.receivedAfterTakeover()).isZero());
      assertThat(audit.violations()).as("status writes received while their writer did not hold the lease"
          + " (holders %s)", audit.describe()).isEmpty();
      assertThat(shutdowns).as("a write was on the wire at SIGTERM and the API received it")
          .allSatisfy(d -> assertThat(d.inFlightReceived()).isPositive());
      assertThat(shutdowns).as("SIGTERM exit status").allSatisfy(d -> assertThat(d.exitStatus()).isZero());
      s.passed();
    } finally {
      s.write();
    }
  }

  private static Shutdown stopTheLeaderMidWrite(OutageCluster c) {
    Replica leader = c.leader();
    long since = System.currentTimeMillis();
    await(leader + " writes statuses").atMost(OutageCluster.CONVERGE).pollInterval(OutageCluster.POLL)
        .until(() -> c.statusWritesBy(leader.identity(), since) > 0);
    FaultProxy statusLink = leader.statusProxy();
    statusLink.latency(Duration.ofMillis(STATUS_DELAY_MS));
    c.timeline().mark("harness", "delayed " + leader + "'s status connection by " + STATUS_DELAY_MS + " ms");
    await("a status PUT of " + leader + " on the wire").atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(5)).until(() -> statusLink.holdsToServer("\"conditions\""));
    long sigtermAt = System.currentTimeMillis();
    c.timeline().mark(sigtermAt, "harness", "SIGTERM " + leader + " with a status PUT in its delayed link");
    int exit = leader.stop();
    long stopMs = System.currentTimeMillis() - sigtermAt;
    await("another replica leads").atMost(OutageCluster.CONVERGE).pollInterval(OutageCluster.POLL)
        .until(() -> c.others(leader).stream().anyMatch(Replica::isLeader));
    await("the old leader's link drained").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> statusLink.bytesInFlightToServer() == 0);
    statusLink.pass();

    List<WriteRecord> writes = c.api().writes();
    LeaseHolderAudit audit = LeaseHolderAudit.of(writes);
    LeaseHolderAudit.Tenure takeover = audit.nextHolderAfter(leader.identity(), sigtermAt).orElseThrow(
        () -> new AssertionError("no Lease write by another replica after SIGTERM: " + audit.describe()));
    List<WriteRecord> oldAfterSigterm = writes.stream().filter(w -> w.isStatusWrite()
        && w.writer().equals(leader.identity()) && w.startMillis() >= sigtermAt).toList();
    long afterTakeover = oldAfterSigterm.stream().filter(w -> w.startMillis() >= takeover.fromMillis()).count();
    long lastOld = writes.stream().filter(w -> w.isStatusWrite() && w.writer().equals(leader.identity()))
        .mapToLong(WriteRecord::startMillis).max().orElse(0);

    leader.start(); // back as a follower for the next round, as a rolling update's new pod would be
    await(leader + " ready again").atMost(OutageCluster.CONVERGE).pollInterval(OutageCluster.POLL).until(leader::ready);
    c.awaitReadyWithOneLeader();
    return new Shutdown(leader.identity(), takeover.holder(), exit, stopMs, oldAfterSigterm.size(),
        takeover.fromMillis() - lastOld, (int) afterTakeover);
  }
}
