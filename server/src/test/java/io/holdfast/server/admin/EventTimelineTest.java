package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.holdfast.election.Term;
import io.holdfast.ir.NackEvent;
import io.holdfast.server.admin.EventTimeline.Kind;
import io.holdfast.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
}
