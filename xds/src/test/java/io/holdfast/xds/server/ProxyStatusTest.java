package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.CDS;
import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.ir.NackEvent;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** proxies(): per node, the streams, the version ACKed per type (SotW and delta) and the last NACK. */
class ProxyStatusTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private static Optional<ProxyStatus> proxy(ServerHarness harness, String node) {
    return harness.server.proxies().stream().filter(p -> p.nodeId().equals(node)).findFirst();
  }

  @Test
  void ackedVersionsPerTypeAndTheLastNackAreReportedPerNode() {
    try (ServerHarness harness = new ServerHarness();
         AdsTestClient sotw = AdsTestClient.ads(harness.port(), "node-a");
         AdsTestClient second = AdsTestClient.listeners(harness.port(), "node-a")) {
      XdsSnapshot v1 = snapshot(listener("l1", 10001), edsCluster("c1"));
      harness.cache.setSnapshot(v1);
      sotw.subscribe(LDS);
      sotw.subscribe(CDS);
      second.subscribe(LDS);
      await().atMost(WAIT).until(() -> proxy(harness, "node-a")
          .map(p -> p.ackedVersions().equals(Map.of(LDS, v1.version(), CDS, v1.version()))).orElse(false));
      assertThat(proxy(harness, "node-a").orElseThrow().streams()).isEqualTo(2);
      assertThat(proxy(harness, "node-a").orElseThrow().sentVersions())
          .isEqualTo(Map.of(LDS, v1.version(), CDS, v1.version()));
      assertThat(proxy(harness, "node-a").orElseThrow().inSync()).isTrue();
      assertThat(proxy(harness, "node-a").orElseThrow().lastNack()).isEmpty();

      sotw.nackWhen(r -> r.getTypeUrl().equals(LDS));
      XdsSnapshot v2 = snapshot(listener("l1", 10002), edsCluster("c1", 7)); // both types change
      harness.cache.setSnapshot(v2);

      await().atMost(WAIT).until(() -> proxy(harness, "node-a").flatMap(ProxyStatus::lastNack).isPresent());
      ProxyStatus after = proxy(harness, "node-a").orElseThrow();
      NackEvent nack = after.lastNack().orElseThrow();
      assertThat(nack.typeUrl()).isEqualTo(LDS);
      assertThat(nack.rejectedVersion()).isEqualTo(v2.version());
      assertThat(nack.errorDetail()).isEqualTo("rejected " + v2.version());
      // CDS moved on; LDS still shows what the proxy last ACKed (the other stream may have ACKed v2 already)
      await().atMost(WAIT).until(() -> proxy(harness, "node-a").orElseThrow().ackedVersions().get(CDS)
          .equals(v2.version()));
    }
  }

  /** Why holdfast status compares ACKs with what was sent, never with the snapshot's version. */
  @Test
  void aTypeWhoseContentDidNotChangeIsNotSentAgainSoTheProxyStaysInSyncUntilItNacks() {
    try (ServerHarness harness = new ServerHarness();
         AdsTestClient sotw = AdsTestClient.ads(harness.port(), "node-b")) {
      XdsSnapshot v1 = snapshot(listener("l1", 10001), edsCluster("c1"));
      harness.cache.setSnapshot(v1);
      sotw.subscribe(LDS);
      sotw.subscribe(CDS);
      await().atMost(WAIT).until(() -> proxy(harness, "node-b").map(ProxyStatus::inSync).orElse(false));

      XdsSnapshot v2 = snapshot(listener("l1", 10002), edsCluster("c1")); // only the listener changes
      harness.cache.setSnapshot(v2);
      await().atMost(WAIT).until(() -> v2.version().equals(proxy(harness, "node-b").orElseThrow()
          .ackedVersions().get(LDS)));
      ProxyStatus after = proxy(harness, "node-b").orElseThrow();
      assertThat(after.ackedVersions()).containsEntry(CDS, v1.version());
      assertThat(after.inSync()).isTrue();

      sotw.nackWhen(r -> r.getTypeUrl().equals(LDS));
      harness.cache.setSnapshot(snapshot(listener("l1", 10003), edsCluster("c1")));
      await().atMost(WAIT).until(() -> proxy(harness, "node-b").flatMap(ProxyStatus::lastNack).isPresent());
      assertThat(proxy(harness, "node-b").orElseThrow().inSync()).isFalse();
    }
  }

  @Test
  void aDeltaStreamReportsTheVersionItAckedAndClosedStreamsAreForgotten() {
    try (ServerHarness harness = new ServerHarness()) {
      XdsSnapshot v1 = snapshot(listener("l1", 10001));
      harness.cache.setSnapshot(v1);
      DeltaTestClient delta = new DeltaTestClient(harness.port(), "node-d");
      delta.subscribe(LDS, List.of(), Map.of());
      await().atMost(WAIT).until(() -> proxy(harness, "node-d")
          .map(p -> p.ackedVersions().equals(Map.of(LDS, v1.version()))).orElse(false));
      delta.close();
      await().atMost(WAIT).until(() -> proxy(harness, "node-d").isEmpty());
    }
  }
}
