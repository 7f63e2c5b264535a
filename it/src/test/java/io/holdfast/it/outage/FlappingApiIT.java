package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario 6: the API flaps, 10 cut/restore cycles of random length (seeded; {@code -Doutage.seed=N} repeats a
 * run), with config changes made while it is cut. Afterwards: exactly one leader, every status on the API agrees
 * with the leader's verdict, and clients saw no failed call.
 */
@ExtendWith(ProcessCleanup.class)
class FlappingApiIT {
  static final int CYCLES = 10;
  static final int MIN_MS = 300;
  static final int MAX_MS = 3000;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void afterFlappingThereIsOneLeaderConsistentStatusesAndNoFailedCall() {
    long seed = Long.getLong("outage.seed", System.nanoTime());
    System.out.println("FlappingApiIT seed=" + seed + " (repeat with -Doutage.seed=" + seed + ")");
    Random random = new Random(seed);
    Reliability.Section s = new Reliability.Section("6", "Flapping API: " + CYCLES + " random cut/restore cycles",
        getClass());
    try (OutageCluster c = OutageCluster.start("s6-flapping", 3, List.of())) {
      s.timeline(c.timeline());
      GatewayResources.Resource echo = GatewayResources.virtualService("echo", OutageCluster.DOMAIN, "a");
      c.awaitAccepted(echo, "True");
      long settledAt = System.currentTimeMillis();
      c.clientsServed("pod-", OutageCluster.DOMAIN);
      GatewayResources.Resource good = GatewayResources.virtualService("flap-good", "good.test", "b");
      GatewayResources.Resource bad = GatewayResources.virtualService("flap-bad", "bad.test", "missing-upstream");
      List<String> cycles = new ArrayList<>();
      long start = System.currentTimeMillis();
      for (int i = 0; i < CYCLES; i++) {
        int down = MIN_MS + random.nextInt(MAX_MS - MIN_MS + 1);
        int up = MIN_MS + random.nextInt(MAX_MS - MIN_MS + 1);
        cycles.add(down + "/" + up);
        c.cutAll();
        if (i == 2) {
          assertThat(c.api().create(good)).isEqualTo(201);
        }
        if (i == 5) {
          assertThat(c.api().create(bad)).isEqualTo(201);
        }
        c.hold(Duration.ofMillis(down), "cycle " + i + " down");
        c.restoreAll();
        c.hold(Duration.ofMillis(up), "cycle " + i + " up");
      }
      long flappedMs = System.currentTimeMillis() - start;
      await("exactly one leader, steadily").during(Duration.ofSeconds(3)).atMost(OutageCluster.CONVERGE)
          .pollInterval(OutageCluster.POLL).until(() -> c.leaders().size() == 1);
      long settledMs = System.currentTimeMillis() - start - flappedMs;
      Replica leader = c.leader();
      c.awaitAccepted(good, "True");
      c.awaitAccepted(bad, "False");
      List<GatewayResources.Resource> all = List.of(echo, good, bad,
          GatewayResources.upstream("a", c.backend("a").port()), GatewayResources.upstream("b", c.backend("b").port()));
      await("every status agrees with the leader's verdict").atMost(OutageCluster.CONVERGE)
          .pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            ReplicaState st = leader.state().orElseThrow();
            for (GatewayResources.Resource r : all) {
              String verdict = st.resourceStates().get(r.key());
              assertThat(verdict).as("%s in the leader's /state", r.key()).isNotNull();
              String expected = verdict.equals("REJECTED") ? "False" : "True";
              assertThat(c.acceptedStatus(r)).as("%s status (verdict %s)", r.key(), verdict).isEqualTo(expected);
            }
          });
      List<WriteRecord> writes = c.api().writes();
      WriterRuns runs = WriterRuns.of(writes);
      LeaseHolderAudit audit = LeaseHolderAudit.of(writes);
      long leaderChanges = c.roleChanges().stream().filter(rc -> rc.role().equals("leader")).count();

      assertThat(c.allAlive()).isTrue();
      assertThat(c.failedCalls()).as("failed calls: %s", c.clients().stream()
          .flatMap(x -> x.failures().stream()).toList()).isZero();
      assertThat(c.mostReportingLeaderAtOnce(settledAt)).as("replicas saying leader at once").isLessThanOrEqualTo(1);
      assertThat(audit.violations()).as("status writes received while their writer did not hold the lease"
          + " (holders %s)", audit.describe()).isEmpty();

      s.figure("seed", seed)
          .figure("cycles (down ms / up ms)", String.join(", ", cycles))
          .figure("flapping lasted", Reliability.seconds(flappedMs))
          .figure("last restore to one steady leader (incl. 3 s steady)", Reliability.seconds(settledMs))
          .figure("times a replica was seen becoming leader (incl. start-up)", leaderChanges)
          .figure("final leader", leader)
          .figure("most replicas reporting role=leader at once (after start-up)",
              c.mostReportingLeaderAtOnce(settledAt))
          .figure("statuses checked against the leader's verdicts", all.size())
          .figure("client calls succeeded / failed", c.succeededCalls() + " / " + c.failedCalls())
          .figure("lease holder changes (from the API's write record)", audit.timeline().size())
          .figure("status writes received while their writer did not hold the lease", audit.violations().size())
          .figure("smallest gap between two writers' runs", runs.gaps().stream().min(Long::compare)
              .map(g -> g + " ms").orElse("none"))
          .passed();
    } finally {
      s.write();
    }
  }
}
