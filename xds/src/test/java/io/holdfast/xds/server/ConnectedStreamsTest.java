package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** connectedStreams() and the stream gauge follow streams opening and closing, per node id. */
class ConnectedStreamsTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private static double streamsGauge(ServerHarness harness) {
    return harness.registry.get(XdsMetrics.STREAMS).gauge().value();
  }

  @Test
  void streamsAreCountedByNodeAndDroppedOnClose() {
    try (ServerHarness harness = new ServerHarness()) {
      harness.cache.setSnapshot(snapshot(listener("l1", 10001)));
      AdsTestClient a1 = AdsTestClient.ads(harness.port(), "node-a");
      AdsTestClient a2 = AdsTestClient.listeners(harness.port(), "node-a");
      AdsTestClient b = AdsTestClient.ads(harness.port(), "node-b");
      for (AdsTestClient client : new AdsTestClient[] {a1, a2, b}) {
        client.subscribe(LDS);
      }
      await().atMost(WAIT).until(() -> harness.server.connectedStreams().equals(Map.of("node-a", 2, "node-b", 1)));
      assertThat(streamsGauge(harness)).isEqualTo(3);

      a1.close();
      await().atMost(WAIT).until(() -> harness.server.connectedStreams().equals(Map.of("node-a", 1, "node-b", 1)));
      assertThat(streamsGauge(harness)).isEqualTo(2);
      b.close();
      a2.close();
      await().atMost(WAIT).until(() -> harness.server.connectedStreams().isEmpty());
      assertThat(streamsGauge(harness)).isZero();
    }
  }

  @Test
  void closeCutsStreamsThatDoNotEndWithinTheDrainAndRemovesTheGauge() {
    ServerHarness harness = new ServerHarness();
    harness.cache.setSnapshot(snapshot(listener("l1", 10001)));
    try (AdsTestClient client = AdsTestClient.ads(harness.port(), "node-a")) {
      client.subscribe(LDS);
      await().atMost(WAIT).until(() -> harness.server.connectedStreams().equals(Map.of("node-a", 1)));
      long started = System.nanoTime();
      harness.close();
      // Drain is 1 s in the harness; the client's stream never ends by itself, so close() must cut it.
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
      await().atMost(WAIT).until(() -> client.error() != null);
      assertThat(harness.server.connectedStreams()).isEmpty();
      assertThat(harness.registry.find(XdsMetrics.STREAMS).gauge()).isNull();
    }
  }
}
