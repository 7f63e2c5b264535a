package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.holdfast.election.ElectionCluster.Replica;
import io.holdfast.testkit.FaultProxy;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Electors against the emulated API through fault proxies. Timings: lease 2 s, renew deadline 1.5 s,
 * retry 0.3 s. Bounds below are the protocol's own bounds plus a margin for a loaded 2-core machine.
 */
class ElectionFaultIT {
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration RENEW_DEADLINE = Duration.ofMillis(1500);
  private static final Duration RETRY = Duration.ofMillis(300);
  private static final Duration MARGIN = Duration.ofSeconds(1);

  private static Replica awaitSingleLeader(ElectionCluster c) {
    await().atMost(Duration.ofSeconds(10)).until(() -> c.leaders().size() == 1);
    return c.leaders().get(0);
  }

  @Test
  void aLeaderThatDiesWithoutReleasingIsReplacedWithinLeasePlusRetry() {
    try (ElectionCluster c = ElectionCluster.start(3)) {
      Replica old = awaitSingleLeader(c);
      long cut = System.nanoTime();
      old.proxy.reset(); // from the API's side a crashed process looks like this: no more requests
      await().atMost(LEASE.plus(RETRY).plus(MARGIN))
          .until(() -> c.others(old).stream().anyMatch(r -> r.elector.isLeader()));
      System.out.printf("FIGURE takeover-after-kill ms=%d%n", (System.nanoTime() - cut) / 1_000_000);
    }
  }

  @Test
  void aGracefulShutdownHandsOverWellUnderOneRetryPeriod() {
    // A longer retry period here, so that beating it proves the watch did the work, not a poll.
    Duration retry = Duration.ofSeconds(1);
    try (ElectionCluster c = ElectionCluster.start(3, b -> b.leaseDuration(Duration.ofSeconds(4))
        .renewDeadline(Duration.ofSeconds(3)).retryPeriod(retry))) {
      Replica old = awaitSingleLeader(c);
      await().atMost(Duration.ofSeconds(10)).until(() -> c.others(old).stream()
          .allMatch(r -> r.elector.watchHealthy() && r.elector.observedLeader().equals(java.util.Optional.of(old.name))));
      long stop = System.nanoTime();
      old.elector.close();
      await().atMost(retry.dividedBy(2)).pollInterval(Duration.ofMillis(5))
          .until(() -> c.others(old).stream().anyMatch(r -> r.elector.isLeader()));
      System.out.printf("FIGURE takeover-after-graceful-shutdown ms=%d%n", (System.nanoTime() - stop) / 1_000_000);
      assertThat(old.events.demotions).containsExactly("shutdown");
    }
  }

  @ParameterizedTest
  @EnumSource(value = FaultProxy.Mode.class, names = {"BLACKHOLE", "RESET"})
  void aLeaderCutOffIsDemotedWithinTheRenewDeadlineAndComesBackAsFollower(FaultProxy.Mode fault) {
    try (ElectionCluster c = ElectionCluster.start(3)) {
      Replica old = awaitSingleLeader(c);
      long cut = System.nanoTime();
      cutOff(old, fault);

      // The fence closes by the clock alone: no later than one renew deadline after the cut.
      await().atMost(RENEW_DEADLINE.plus(Duration.ofMillis(100))).pollInterval(Duration.ofMillis(10))
          .until(() -> !old.elector.isLeader());
      long demotedMs = (System.nanoTime() - cut) / 1_000_000;
      await().atMost(RENEW_DEADLINE.plus(MARGIN)).until(() -> old.events.demotions.size() == 1);
      assertThat(old.events.demotions.get(0)).startsWith("renew deadline passed");

      await().atMost(LEASE.plus(RETRY).plus(MARGIN))
          .until(() -> c.others(old).stream().anyMatch(r -> r.elector.isLeader()));
      long takeoverMs = (System.nanoTime() - cut) / 1_000_000;
      System.out.printf("FIGURE cut-off-%s demoted-ms=%d takeover-ms=%d%n", fault, demotedMs, takeoverMs);
      Replica successor = c.leaders().get(0);

      old.proxy.pass();
      await().atMost(Duration.ofSeconds(5))
          .until(() -> old.elector.observedLeader().equals(java.util.Optional.of(successor.name)));
      assertThat(old.elector.state()).isEqualTo(ElectorState.FOLLOWER);
      assertThat(c.leaders()).containsExactly(successor);
      assertThat(old.exits).isEmpty();

      // ...and it can win a later election without a restart.
      c.others(old).forEach(r -> r.elector.close());
      await().atMost(Duration.ofSeconds(3)).until(old.elector::isLeader);
      // Listeners are told on their own executor after the state turns LEADER, so the second "elected" event is
      // awaited, not read the instant isLeader() turns true.
      await().atMost(Duration.ofSeconds(1)).until(() -> old.events.elected.size() >= 2);
      assertThat(old.events.elected).hasSize(2);
    }
  }

  @Test
  void theWholeApiDownForLongerThanTheLeaseThenBackLeavesExactlyOneLeader() {
    try (ElectionCluster c = ElectionCluster.start(3)) {
      awaitSingleLeader(c);
      c.replicas.forEach(r -> r.proxy.blackhole());
      await().atMost(RENEW_DEADLINE.plus(MARGIN)).until(() -> c.leaders().isEmpty());
      // Nobody may lead while nobody can reach the API: hold the outage past a full lease.
      await().during(LEASE.plus(Duration.ofMillis(500))).atMost(LEASE.plus(MARGIN).plus(MARGIN))
          .until(() -> c.leaders().isEmpty());

      c.replicas.forEach(r -> r.proxy.pass());
      await().atMost(LEASE.plus(Duration.ofSeconds(5))).until(() -> c.leaders().size() == 1);
      await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> c.leaders().size() == 1);
      for (Replica r : c.replicas) {
        assertThat(r.elector.state()).isNotEqualTo(ElectorState.STOPPED);
        assertThat(r.exits).isEmpty();
      }
    }
  }

  @Test
  void aDeletedLeaseDemotesTheLeaderAndALeaderIsElectedAgain() {
    try (ElectionCluster c = ElectionCluster.start(3)) {
      Replica old = awaitSingleLeader(c);
      // Every other replica must have seen the holder's record: one whose first read timed out has seen no Lease,
      // and a missing Lease is one it may create at once, while the holder still leads until it sees the change
      // (the limit the README states under the guarantee). Having seen the record, a deletion is one it cannot
      // attribute to the holder, so it waits a full lease and the monitor must never see two leaders.
      await().atMost(Duration.ofSeconds(10)).until(() -> c.others(old).stream()
          .allMatch(r -> r.elector.observedLeader().equals(java.util.Optional.of(old.name))));
      long transitions = old.elector.currentTerm().orElseThrow().transitions();
      c.api.admin().leases().inNamespace(ElectionCluster.NAMESPACE).withName(ElectionCluster.LEASE).delete();
      await().atMost(RETRY.plus(MARGIN)).until(() -> old.events.demotions.contains("lease was deleted"));
      Replica next = awaitSingleLeader(c);
      assertThat(next.elector.currentTerm().orElseThrow().transitions()).isGreaterThan(transitions);
    }
  }

  @Test
  void aLeaseOverwrittenByAForeignHolderDemotesTheLeader() {
    try (ElectionCluster c = ElectionCluster.start(3)) {
      Replica old = awaitSingleLeader(c);
      editLease(c, l -> l.getSpec().setHolderIdentity("intruder"));
      await().atMost(RETRY.plus(MARGIN)).until(() -> old.events.demotions.stream().anyMatch(d -> d.contains("taken by intruder")));
      assertThat(c.leaders()).isEmpty();
      // The intruder never renews: after a full lease one of ours takes over.
      Replica next = awaitSingleLeader(c);
      assertThat(next.elector.observedLeader()).contains(next.name);
    }
  }

  @Test
  void exitPolicyCallsTheExitHandlerWhenTheLeaderLosesTheLease() {
    try (ElectionCluster c = ElectionCluster.start(1, b -> b.recovery(RecoveryPolicy.EXIT))) {
      Replica only = awaitSingleLeader(c);
      only.proxy.reset();
      await().atMost(RENEW_DEADLINE.plus(MARGIN)).until(() -> !only.exits.isEmpty());
      assertThat(only.exits).singleElement().asString().startsWith("lost leadership");
      assertThat(only.elector.state()).isEqualTo(ElectorState.STOPPED);
    }
  }

  @Test
  void maxRecoveryExitsWhenTheApiStaysDown() {
    try (ElectionCluster c = ElectionCluster.start(1, b -> b.recovery(RecoveryPolicy.recoverWithin(Duration.ofSeconds(2))))) {
      Replica only = awaitSingleLeader(c);
      only.proxy.blackhole();
      await().atMost(RENEW_DEADLINE.plus(Duration.ofSeconds(2)).plus(MARGIN)).until(() -> !only.exits.isEmpty());
      assertThat(only.exits).singleElement().asString()
          .isEqualTo("unable to recover from failed leader election within 2s, quitting");
    }
  }

  @Test
  void maxRecoveryDoesNotExitWhenTheApiComesBackInTime() {
    Duration maxRecovery = Duration.ofSeconds(3);
    try (ElectionCluster c = ElectionCluster.start(1, b -> b.recovery(RecoveryPolicy.recoverWithin(maxRecovery)))) {
      Replica only = awaitSingleLeader(c);
      only.proxy.reset();
      await().atMost(RENEW_DEADLINE.plus(MARGIN)).until(() -> only.events.demotions.size() == 1);
      only.proxy.pass();
      await().atMost(Duration.ofSeconds(3)).until(only.elector::isLeader);
      // Past the moment the recovery timer would have fired: still no exit.
      await().during(maxRecovery.plus(Duration.ofMillis(500))).atMost(maxRecovery.plus(MARGIN).plus(MARGIN))
          .until(only.exits::isEmpty);
    }
  }

  private static void cutOff(Replica r, FaultProxy.Mode fault) {
    switch (fault) {
      case BLACKHOLE -> r.proxy.blackhole();
      case RESET -> r.proxy.reset();
      default -> throw new IllegalArgumentException("not a cut: " + fault);
    }
  }

  /**
   * A read-modify-write of the Lease, as any other client would do it: the leader renews concurrently, so a write
   * based on a read that a renewal overtook gets 409 Conflict and is retried on a fresh read. Bounded at 20 tries:
   * the leader renews once per retry period, so losing 20 races in a row means something else is wrong.
   */
  private static void editLease(ElectionCluster c, Consumer<Lease> edit) {
    var res = c.api.admin().leases().inNamespace(ElectionCluster.NAMESPACE).withName(ElectionCluster.LEASE);
    for (int attempt = 1; ; attempt++) {
      Lease l = res.get();
      edit.accept(l);
      try {
        c.api.admin().leases().inNamespace(ElectionCluster.NAMESPACE).resource(l).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 20) {
          throw e;
        }
      }
    }
  }

  @SuppressWarnings("unused")
  private static List<String> names(List<Replica> rs) {
    return rs.stream().map(r -> r.name).toList();
  }
}
