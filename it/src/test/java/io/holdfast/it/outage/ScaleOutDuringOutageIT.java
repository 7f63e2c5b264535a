package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario 4: scale-out while the API is down. A new client on a follower gets full config; a replica restarted
 * during the outage serves its last-known snapshot (from {@code --snapshot-dir}) to a new client.
 */
@ExtendWith(ProcessCleanup.class)
class ScaleOutDuringOutageIT {
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void newClientsAndARestartedReplicaAreServedWithoutTheApi() {
    Reliability.Section s = new Reliability.Section("4", "Scale-out during an outage: new clients, a restarted"
        + " replica", getClass());
    try (OutageCluster c = OutageCluster.start("s4-scale-out", 3, List.of())) {
      s.timeline(c.timeline());
      c.awaitAccepted(GatewayResources.virtualService("echo", OutageCluster.DOMAIN, "a"), "True");
      Replica leader = c.leader();
      List<Replica> followers = c.others(leader);
      Replica follower = followers.get(0);
      Replica restarted = followers.get(1);
      await("snapshot saved by " + restarted).atMost(OutageCluster.CONVERGE).until(() -> hasFiles(restarted));

      c.cutAll();
      await("no leader").atMost(Duration.ofSeconds(10)).pollInterval(OutageCluster.POLL)
          .until(() -> c.leaders().isEmpty());

      CallClient onFollower = c.client("pod-new-on-follower", follower);
      await("new client on a follower served").atMost(OutageCluster.CONVERGE).pollInterval(OutageCluster.POLL)
          .until(() -> onFollower.succeeded() > 0);

      long stopAt = System.currentTimeMillis();
      assertThat(restarted.stop()).as("SIGTERM exit status").isZero();
      long startAt = System.currentTimeMillis();
      restarted.start();
      await(restarted + " ready from its snapshot").atMost(OutageCluster.CONVERGE).pollInterval(OutageCluster.POLL)
          .until(restarted::ready);
      long readyMs = System.currentTimeMillis() - startAt;
      CallClient onRestarted = c.client("pod-new-on-restarted", restarted);
      await("new client on the restarted replica served").atMost(OutageCluster.CONVERGE)
          .pollInterval(OutageCluster.POLL).until(() -> onRestarted.succeeded() > 0);
      ReplicaState state = restarted.state().orElseThrow();

      assertThat(state.role()).isEqualTo("follower");
      assertThat(state.snapshotVersion()).isNotEmpty();
      assertThat(state.staleSince()).as("serves a snapshot no live source has confirmed: %s", state.raw()).isNotEmpty();
      assertThat(onFollower.calls()).filteredOn(CallClient.Call::ok).extracting(CallClient.Call::backend)
          .containsOnly("a");
      assertThat(onRestarted.calls()).filteredOn(CallClient.Call::ok).extracting(CallClient.Call::backend)
          .containsOnly("a");
      assertThat(c.failedCalls()).isZero();

      c.restoreAll();
      Replica after = c.leader();
      s.figure("new client on a follower during the outage: time to first answer",
              onFollower.timeToFirstSuccess().map(ms -> ms + " ms").orElse("never"))
          .figure("replica restarted during the outage: start to /readyz 200", readyMs + " ms")
          .figure("new client on the restarted replica: time to first answer",
              onRestarted.timeToFirstSuccess().map(ms -> ms + " ms").orElse("never"))
          .figure("restarted replica: stop took", (startAt - stopAt) + " ms")
          .figure("failed calls", c.failedCalls())
          .figure("leader after the API came back", after)
          .passed();
    } finally {
      s.write();
    }
  }

  private static boolean hasFiles(Replica r) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.list(r.snapshotDir())) {
      return files.findAny().isPresent();
    }
  }
}
