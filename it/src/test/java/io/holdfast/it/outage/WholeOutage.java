package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

/**
 * Scenarios 1 and 8: every replica loses the API for {@link #OUTAGE}; a VirtualService is applied on the API
 * meanwhile. Asserts: no replica process exits, clients see no failed call, and afterwards there is one leader,
 * the new VirtualService is Accepted and a new client is routed by it.
 */
final class WholeOutage {
  static final Duration OUTAGE = Duration.ofSeconds(20);

  private WholeOutage() {
  }

  interface Fault {
    void cut();

    void restore();
  }

  static void run(OutageCluster c, Fault fault, Reliability.Section section) {
    GatewayResources.Resource echo = GatewayResources.virtualService("echo", OutageCluster.DOMAIN, "a");
    c.awaitAccepted(echo, "True");
    long settledAt = System.currentTimeMillis();
    int atStartUp = c.mostReportingLeaderAtOnce(0);
    List<Replica> replicas = c.replicas();
    c.clientsServed("pod-", OutageCluster.DOMAIN);
    Replica leaderBefore = c.leader();

    long cutAt = System.currentTimeMillis();
    fault.cut();
    c.timeline().mark("harness", "API cut off for every replica");
    await("every replica follower once its renew deadline passed").atMost(Duration.ofSeconds(10))
        .pollInterval(OutageCluster.POLL).until(() -> c.leaders().isEmpty());
    long noLeaderAt = System.currentTimeMillis();
    GatewayResources.Resource late = GatewayResources.virtualService("late", "late.test", "b");
    assertThat(c.api().create(late)).as("VirtualService created on the API during the outage").isEqualTo(201);
    c.timeline().mark("harness", "VirtualService late (late.test -> b) created on the API");
    c.hold(OUTAGE.minusMillis(System.currentTimeMillis() - cutAt), "outage");

    long restoredAt = System.currentTimeMillis();
    fault.restore();
    c.timeline().mark("harness", "API restored");
    Replica leaderAfter = c.leader();
    long leaderAt = System.currentTimeMillis();
    c.awaitAccepted(late, "True");
    long acceptedAt = System.currentTimeMillis();
    CallClient lateClient = c.client("pod-late", leaderAfter, "late.test");
    await("late.test routed to b").atMost(OutageCluster.CONVERGE).pollInterval(OutageCluster.POLL)
        .until(() -> lateClient.succeeded() > 0);
    long routedAt = System.currentTimeMillis();

    assertThat(c.allAlive()).as("no replica process exited").isTrue();
    assertThat(lateClient.calls()).filteredOn(CallClient.Call::ok).extracting(CallClient.Call::backend)
        .containsOnly("b");
    assertThat(c.failedCalls()).as("failed client calls: %s", c.clients().stream()
        .flatMap(x -> x.failures().stream()).toList()).isZero();
    // Exactly one leader, waited for: a lease that moves right now (a slow renewal on a loaded machine) is
    // a legitimate moment without one.
    assertThat(c.leader()).isNotNull();
    assertThat(c.mostReportingLeaderAtOnce(settledAt)).as("replicas saying leader at once after start-up")
        .isLessThanOrEqualTo(1);

    section.figure("replicas", replicas.size())
        .figure("outage length", Reliability.seconds(restoredAt - cutAt))
        .figure("leader before / after", leaderBefore.identity() + " / " + leaderAfter.identity())
        .figure("cut to no leader (observed)", Reliability.seconds(noLeaderAt - cutAt))
        .figure("replica processes exited", 0)
        .figure("most replicas reporting role=leader at once: at start-up / afterwards",
            atStartUp + " / " + c.mostReportingLeaderAtOnce(settledAt))
        .figure("client calls succeeded / failed", c.succeededCalls() + " / " + c.failedCalls())
        .figure("restore to one leader (observed)", Reliability.seconds(leaderAt - restoredAt))
        .figure("restore to VirtualService accepted (status on the API)", Reliability.seconds(acceptedAt - restoredAt))
        .figure("restore to a new client routed by it", Reliability.seconds(routedAt - restoredAt))
        .passed();
  }
}
