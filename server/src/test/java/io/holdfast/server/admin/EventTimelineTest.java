package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.ManifestError;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.election.Term;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pipeline.BuildOutcome;
import io.holdfast.pipeline.BuildProblem;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.xds.server.ProxyStatus;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translation;
import io.holdfast.ir.NackEvent;
import io.holdfast.server.admin.EventTimeline.Kind;
import io.holdfast.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class EventTimelineTest {
  private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");

  private final ManualClock clock = new ManualClock(T0);

  @Test
  void eventsAreStampedByTheClockAndListedNewestFirst() {
    EventTimeline timeline = new EventTimeline(clock, 10);
    timeline.record(Kind.OUTAGE, "first");
    clock.advance(Duration.ofSeconds(3));
    timeline.record(Kind.SNAPSHOT, "second");

    assertThat(timeline.recent()).containsExactly(
        new EventTimeline.Event(T0.plusSeconds(3), Kind.SNAPSHOT, "second"),
        new EventTimeline.Event(T0, Kind.OUTAGE, "first"));
    assertThat(timeline.toState()).containsExactly(
        Map.of("at", "2026-01-02T03:04:08Z", "kind", "snapshot", "text", "second"),
        Map.of("at", "2026-01-02T03:04:05Z", "kind", "outage", "text", "first"));
  }

  @Test
  void theRingKeepsOnlyTheNewestEvents() {
    EventTimeline timeline = new EventTimeline(clock, EventTimeline.DEFAULT_CAPACITY);
    for (int i = 0; i < 250; i++) {
      timeline.record(Kind.NACK, "nack " + i);
    }

    assertThat(timeline.recent()).hasSize(200);
    assertThat(timeline.recent().get(0).text()).isEqualTo("nack 249");
    assertThat(timeline.recent().get(199).text()).isEqualTo("nack 50");
    assertThat(timeline.dropped()).isEqualTo(50);
    assertThatIllegalArgumentException().isThrownBy(() -> new EventTimeline(clock, 0))
        .withMessageContaining("capacity");
  }

  @Test
  void theFeedsSayWhatHappenedInOneSentence() {
    EventTimeline timeline = new EventTimeline(clock, 10);
    var leadership = TimelineFeeds.leadership(timeline);
    leadership.onNewLeader("replica-1");
    leadership.onElected(new Term(4, "replica-1"));
    leadership.onDemoted(new Term(4, "replica-1"), "renew deadline passed");
    leadership.onNewLeader("");
    var outages = TimelineFeeds.outages(timeline);
    outages.onStale(T0, "the API does not answer");
    outages.onRecovered(T0, T0.plus(Duration.ofSeconds(192)));
    TimelineFeeds.nacks(timeline).onNack(new NackEvent("envoy-1",
        "type.googleapis.com/envoy.config.cluster.v3.Cluster", "v7", List.of("c1"), "bad cluster", T0));

    assertThat(timeline.recent()).extracting(EventTimeline.Event::text).containsExactly(
        "Proxy envoy-1 rejected Clusters of version v7: bad cluster",
        "Config view is current again after 3m 12s",
        "Config view went stale, serving the cached config: the API does not answer",
        "Nobody holds the lease",
        "This replica stopped leading (term replica-1#4): renew deadline passed",
        "This replica became leader (term replica-1#4)",
        "Lease holder is now replica-1");
  }

  @Test
  void newlyRejectedObjectsAndManifestProblemsAreEventsOnceAndBounded() {
    EventTimeline timeline = new EventTimeline(clock, 50);
    StatusBoard board = new StatusBoard();
    board.onPublish(TimelineFeeds.rejections(timeline, board,
        key -> List.of(new ConfigLoader.Location("vs.yaml", 3))));
    SortedMap<ResourceKey, ResourceStatus> statuses = new TreeMap<>();
    for (int i = 0; i < 7; i++) {
      ResourceKey key = new ResourceKey("VirtualService", "demo", "vs-" + i);
      statuses.put(key, new ResourceStatus(key, 1, ResourceStatus.State.REJECTED,
          List.of(new Problem("spec.domains", "Invalid", "no domain"))));
    }
    board.publish(build("v1", statuses, List.of(new ManifestError("bad.yaml", 2, 5, "not YAML"))));
    board.publish(build("v2", statuses, List.of(new ManifestError("bad.yaml", 2, 5, "not YAML"))));

    assertThat(timeline.recent()).extracting(EventTimeline.Event::text).as("once, the first five and a count")
        .containsExactly(
        "Unreadable manifest bad.yaml:2:5: not YAML",
        "And 2 more objects rejected",
        "Rejected VirtualService/demo/vs-4 (vs.yaml:3): spec.domains: no domain (Invalid)",
        "Rejected VirtualService/demo/vs-3 (vs.yaml:3): spec.domains: no domain (Invalid)",
        "Rejected VirtualService/demo/vs-2 (vs.yaml:3): spec.domains: no domain (Invalid)",
        "Rejected VirtualService/demo/vs-1 (vs.yaml:3): spec.domains: no domain (Invalid)",
        "Rejected VirtualService/demo/vs-0 (vs.yaml:3): spec.domains: no domain (Invalid)");
  }

  @Test
  void aFailingBuildIsAnEventWhenItStartsFailingOrFailsOtherwiseAndWhenItRecovers() {
    EventTimeline timeline = new EventTimeline(clock, 10);
    var builds = TimelineFeeds.builds(timeline);
    BuildProblem boom = new BuildProblem(BuildProblem.Stage.TRANSLATE, List.of(), "boom");
    builds.accept(new BuildOutcome(T0, true, List.of()));
    builds.accept(new BuildOutcome(T0, false, List.of(boom)));
    builds.accept(new BuildOutcome(T0, false, List.of(boom)));
    builds.accept(new BuildOutcome(T0, true, List.of(new BuildProblem(BuildProblem.Stage.FRONTEND, List.of(), "x"))));
    builds.accept(new BuildOutcome(T0, true, List.of()));

    assertThat(timeline.recent()).extracting(EventTimeline.Event::text).containsExactly(
        "Config builds succeed again",
        "Config build contained a failure of Holdfast's own: frontend: x",
        "Config build failed, the previous snapshot is still served: translate: boom");
  }

  @Test
  void aDisconnectNamesTheNackTheProxyLeftBehind() {
    EventTimeline timeline = new EventTimeline(clock, 10);
    var disconnects = TimelineFeeds.disconnects(timeline);
    disconnects.onDisconnected(new ProxyStatus("envoy-1", 0, new TreeMap<>(Map.of("t", "v1")), Optional.of(
        new NackEvent("envoy-1", "type.googleapis.com/envoy.config.listener.v3.Listener", "v2", List.of(), "bad",
            T0))));
    disconnects.onDisconnected(new ProxyStatus("envoy-2", 0, new TreeMap<>(Map.of("t", "v2")), Optional.empty()));

    assertThat(timeline.recent()).extracting(EventTimeline.Event::text).containsExactly(
        "Proxy envoy-2 disconnected (last ACKed v2)",
        "Proxy envoy-1 disconnected after rejecting Listeners of version v2: bad");
  }

  private static StatusBoard.Build build(String version, SortedMap<ResourceKey, ResourceStatus> statuses,
      List<ManifestError> errors) {
    return new StatusBoard.Build(version, T0, statuses, errors, new Translation(XdsSnapshot.empty(), Map.of()));
  }
}
