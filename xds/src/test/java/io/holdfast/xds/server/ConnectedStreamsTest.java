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

  private static double nodeGauge(ServerHarness harness, String node) {
    return harness.registry.get(ProxyPresence.NAME).tag("node", node).gauge().value();
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
      assertThat(nodeGauge(harness, "node-a")).isEqualTo(2);
      assertThat(nodeGauge(harness, "node-b")).isEqualTo(1);

      a1.close();
      await().atMost(WAIT).until(() -> harness.server.connectedStreams().equals(Map.of("node-a", 1, "node-b", 1)));
      assertThat(streamsGauge(harness)).isEqualTo(2);
      assertThat(nodeGauge(harness, "node-a")).isEqualTo(1);
      b.close();
      a2.close();
      await().atMost(WAIT).until(() -> harness.server.connectedStreams().isEmpty());
      assertThat(streamsGauge(harness)).isZero();
      // Disconnected nodes stay at 0 (not absent) so a sum over replicas shows them gone from every one.
      assertThat(nodeGauge(harness, "node-a")).isZero();
      assertThat(nodeGauge(harness, "node-b")).isZero();
    }
  }

  @Test
  void pushAndNackCountersExistAtZeroForEveryTypeBeforeAnyStream() {
    try (ServerHarness harness = new ServerHarness()) {
      for (String type : new String[] {"Cluster", "ClusterLoadAssignment", "Listener", "RouteConfiguration",
          "Secret"}) {
        assertThat(harness.registry.get(XdsMetrics.PUSHES).tag("type", type).counter().count()).isZero();
        assertThat(harness.registry.get(XdsMetrics.NACKS).tag("type", type).counter().count()).isZero();
      }
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
      assertThat(harness.registry.find(ProxyPresence.NAME).gauges()).isEmpty();
    }
  }
}
