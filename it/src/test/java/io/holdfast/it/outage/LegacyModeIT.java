package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario 7: the legacy policies. {@code --on-lease-loss exit}: the leader exits on losing the lease.
 * {@code --max-recovery 4s}: an outage longer than that makes the leader exit with Gloo's message; a shorter
 * one does not.
 */
@ExtendWith(ProcessCleanup.class)
class LegacyModeIT {
  static final Duration MAX_RECOVERY = Duration.ofSeconds(4);

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void exitPolicyQuitsTheLeaderOnLoss() {
    Reliability.Section s = new Reliability.Section("7a", "Legacy: --on-lease-loss exit", getClass());
    // Any lease loss ends a replica here, a slow first renewal at start-up included: tolerant timings.
    ClusterTimings t = ClusterTimings.TOLERANT;
    try (OutageCluster c = OutageCluster.start("s7a-exit", 2, t, List.of("--on-lease-loss", "exit"))) {
      s.timeline(c.timeline());
      s.figure("timings", t.describe());
      Replica leader = c.leader();
      Replica other = c.others(leader).get(0);
      long cutAt = System.currentTimeMillis();
      leader.cut();
      Optional<Integer> status = leader.process().awaitExit(Duration.ofSeconds(20));
      long exitMs = System.currentTimeMillis() - cutAt;
      assertThat(status).as("the leader exited").isPresent();
      assertThat(status.get()).as("exit status").isNotZero();
      assertThat(leader.process().logText()).contains("lost leadership").contains("quitting");
      await(other + " leads").atMost(Duration.ofSeconds(15)).pollInterval(OutageCluster.POLL).until(other::isLeader);
      assertThat(other.process().isAlive()).isTrue();
      s.figure("cut to exit", exitMs + " ms").figure("exit status", status.get())
          .figure("log line", firstLine(leader.process().logText(), "lost leadership"))
          .figure("follower took over and kept running", other).passed();
    } finally {
      s.write();
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void maxRecoveryExitsOnlyWhenTheOutageOutlastsIt() {
    Reliability.Section s = new Reliability.Section("7b", "Legacy: --max-recovery 4s, an outage longer than it and one of 3 s",
        getClass());
    List<String> flags = List.of("--max-recovery", MAX_RECOVERY.toSeconds() + "s");
    try {
      try (OutageCluster c = OutageCluster.start("s7b-long-outage", 2, flags)) {
        s.timeline(c.timeline());
        Replica leader = c.leader();
        Replica follower = c.others(leader).get(0);
        long cutAt = System.currentTimeMillis();
        c.cutAll();
        Optional<Integer> status = leader.process().awaitExit(Duration.ofSeconds(20));
        long exitMs = System.currentTimeMillis() - cutAt;
        assertThat(status).as("the leader exited").isPresent();
        assertThat(status.get()).isNotZero();
        assertThat(leader.process().logText()).contains("unable to recover from failed leader election");
        await("the follower stays up through the rest of the outage").during(Duration.ofSeconds(2))
            .atMost(Duration.ofSeconds(5)).until(() -> follower.process().isAlive());
        c.restoreAll();
        await(follower + " leads").atMost(Duration.ofSeconds(15)).pollInterval(OutageCluster.POLL)
            .until(follower::isLeader);
        s.figure("long outage (kept until the leader exited, then 2 s more): cut to the leader's exit"
                + " (renew deadline 1.5 s + max recovery 4 s + shutdown)", exitMs + " ms")
            .figure("long outage: exit status", status.get())
            .figure("long outage: log line", firstLine(leader.process().logText(), "unable to recover"))
            .figure("long outage: follower exited", "no");
      }
      try (OutageCluster c = OutageCluster.start("s7b-short-outage", 2, flags)) {
        Replica leader = c.leader();
        long cutAt = System.currentTimeMillis();
        c.cutAll();
        await("leader lost the lease").atMost(Duration.ofSeconds(10)).pollInterval(OutageCluster.POLL)
            .until(() -> c.leaders().isEmpty());
        c.hold(Duration.ofMillis(3000 - (System.currentTimeMillis() - cutAt)), "3 s outage");
        c.restoreAll();
        await("recovered").atMost(Duration.ofSeconds(10)).pollInterval(OutageCluster.POLL)
            .until(() -> leader.process().logText().contains("recovered from lease renewal failure"));
        c.hold(MAX_RECOVERY.plusSeconds(2), "past the max recovery");
        assertThat(leader.process().isAlive()).as("no exit after a short outage").isTrue();
        assertThat(c.leader()).as("exactly one leader, waited for").isNotNull();
        s.figure("3 s outage: processes exited", 0)
            .figure("3 s outage: log line", firstLine(leader.process().logText(), "recovered from lease renewal failure"))
            .passed();
      }
    } finally {
      s.write();
    }
  }

  static String firstLine(String log, String part) {
    return log.lines().filter(l -> l.contains(part)).findFirst().map(l -> "`" + l.replace("|", "/").strip() + "`")
        .orElse("(none)");
  }
}
