package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.testkit.ManualClock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ElectionMetricsTest {
  private final ManualClock clock = new ManualClock();

  /** Builds an elector that leads, and keeps no reference to it: only the registry may. */
  private void electAndForget(MeterRegistry registry) {
    LeaderElector e = LeaderElector.builder(ElectionCluster.fastTimings().identity("a").build(), new InMemoryLeaseLock())
        .clock(ElectionClock.of(clock, clock)).random(() -> 0.0).listenerExecutor(Runnable::run).meterRegistry(registry).build();
    e.step();
  }

  /**
   * Regression: the renew-age gauge was registered through a method reference held only weakly by
   * Micrometer, so it read NaN after the first garbage collection.
   */
  @Test
  void theGaugesStillReadTheElectorAfterGarbageCollection() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    electAndForget(registry);
    clock.advance(Duration.ofSeconds(1));
    WeakReference<Object> sentinel = new WeakReference<>(new Object());
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .until(() -> {
          System.gc();
          return sentinel.get() == null; // a collection that clears weak references has run
        });
    assertThat(registry.get("holdfast.election.last.renew.age").gauge().value()).isEqualTo(1.0);
    assertThat(registry.get("holdfast.election.leader").gauge().value()).isEqualTo(1.0);
  }

  @Test
  void everyCounterExistsAtZeroBeforeTheFirstStep() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    LeaderElector.builder(ElectionCluster.fastTimings().identity("a").build(), new InMemoryLeaseLock())
        .clock(ElectionClock.of(clock, clock)).meterRegistry(registry).build();

    for (ElectorState to : ElectorState.values()) {
      assertThat(registry.get("holdfast.election.transitions").tag("to", to.name().toLowerCase(java.util.Locale.ROOT))
          .counter().count()).isZero();
    }
    for (LockException.Cause cause : LockException.Cause.values()) {
      assertThat(registry.get("holdfast.election.renew.failures").tag("cause", cause.tag()).counter().count()).isZero();
      assertThat(registry.get("holdfast.election.acquire.failures").tag("cause", cause.tag()).counter().count()).isZero();
    }
    assertThat(registry.get("holdfast.election.leader").gauge().value()).isZero();
  }

  @Test
  void aSingleReplicaReportsLeaderOneAndTheSameSeries() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ElectionMetrics.singleReplica(registry, Leadership.alwaysLeader("solo"));

    assertThat(registry.get("holdfast.election.leader").gauge().value()).isEqualTo(1.0);
    assertThat(registry.get("holdfast.election.last.renew.age").gauge().value()).isZero();
    assertThat(registry.get("holdfast.election.transitions").counters()).hasSize(ElectorState.values().length);
    assertThat(registry.get("holdfast.election.acquire.failures").counters())
        .hasSize(LockException.Cause.values().length);
  }
}
