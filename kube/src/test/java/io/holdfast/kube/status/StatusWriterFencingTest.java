package io.holdfast.kube.status;

import static io.holdfast.kube.status.Statuses.ALL;
import static io.holdfast.kube.status.Statuses.GATEWAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.election.Leadership;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The writer's election rules against a switchable leadership and an in-memory API, both on a manual clock: time
 * passes only when the test moves it.
 */
@ExtendWith(QuickAwait.class)
class StatusWriterFencingTest {
  private final WriterTime time = new WriterTime();
  private final FakeLeadership leadership = new FakeLeadership(time.clock);
  private final FakeStatusApi api = new FakeStatusApi();

  private StatusWriter writer(Leadership l, Backoff backoff) {
    return time.add(time.on(StatusWriter.builder(api, l)).backoff(backoff).callsPerSecond(1000).build().start());
  }

  @Test
  void aFollowerNeverCallsTheApi() {
    ALL.forEach(api::create);
    try (StatusWriter w = writer(leadership, Backoff.DEFAULT)) {
      w.publish(Statuses.all(ALL, 1, State.ACCEPTED));
      time.advance(Duration.ofMillis(300));
      assertThat(api.gets.get() + api.updates.get()).isZero();
      assertThat(w.pending()).isZero();
      // Elected later: the latest desired statuses are written without another publish.
      leadership.elect();
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 3);
    }
  }

  @Test
  void aFenceThatFailsBetweenTheReadAndTheWriteStopsTheWrite() {
    api.create(GATEWAY);
    leadership.elect();
    api.onGet = leadership::expireFence; // leadership ends while the object is being read
    try (StatusWriter w = writer(leadership, Backoff.DEFAULT)) {
      w.publish(Statuses.all(java.util.List.of(GATEWAY), 1, State.REJECTED));
      await().atMost(Duration.ofSeconds(3)).until(() -> api.gets.get() == 1);
      time.advance(Duration.ofMillis(300));
      assertThat(api.updates.get()).isZero();

      api.onGet = () -> { };
      leadership.elect(); // a new term reconciles: the write happens now
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 1);
      assertThat(api.objects.get(GATEWAY).getAdditionalProperties()).containsKey("status");
    }
  }

  @Test
  void aDemotionDropsQueuedRetriesAndTheNextTermStartsAfresh() {
    ALL.forEach(api::create);
    leadership.elect();
    api.failUpdatesWith = 500;
    // A 20 s backoff and a clock that never moves: only a dropped retry explains another write.
    try (StatusWriter w = writer(leadership, new Backoff(Duration.ofSeconds(20), Duration.ofSeconds(20)))) {
      Map<ResourceKey, DesiredStatus> desired = Statuses.all(ALL, 1, State.ACCEPTED);
      w.publish(desired);
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 1);
      leadership.demote();
      api.failUpdatesWith = 0;
      leadership.elect();
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 4);
      assertThat(ALL).allSatisfy(k -> assertThat(Statuses.shows(
          api.objects.get(k).getAdditionalProperties().get("status"), desired.get(k))).isTrue());
    }
  }

  @Test
  void singleReplicaModeWritesAsAlwaysLeader() {
    ALL.forEach(api::create);
    try (StatusWriter w = writer(Leadership.alwaysLeader("solo"), Backoff.DEFAULT)) {
      w.publish(Statuses.all(ALL, 5, State.WARNING));
      await().atMost(Duration.ofSeconds(3)).until(() -> api.updates.get() == 3 && w.pending() == 0);
      w.publish(Statuses.all(ALL, 5, State.WARNING));
      time.advance(Duration.ofMillis(200));
      assertThat(api.updates.get()).isEqualTo(3);
    }
  }

  @Test
  void keysOfOtherKindsAreIgnored() {
    leadership.elect();
    try (StatusWriter w = writer(leadership, Backoff.DEFAULT)) {
      ResourceKey service = ResourceKey.core("Service", "apps", "x");
      ResourceKey gatewayApi = new ResourceKey("gateway.networking.k8s.io", "Gateway", "apps", "x");
      w.publish(Map.of(service, DesiredStatus.of(Statuses.verdict(service, 1, State.ACCEPTED)),
          gatewayApi, DesiredStatus.of(Statuses.verdict(gatewayApi, 1, State.ACCEPTED))));
      time.advance(Duration.ofMillis(200));
      assertThat(api.gets.get()).isZero();
    }
  }
}
