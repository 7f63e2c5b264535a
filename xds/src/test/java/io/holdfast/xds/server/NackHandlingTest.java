package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.CDS;
import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A NACKed version is not sent again on that stream until the snapshot changes (java-control-plane's SimpleCache
 * resends it at once, see {@link SimpleCacheTrapsTest}); the NACK is counted, logged once and reported.
 */
class NackHandlingTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ServerHarness harness = new ServerHarness();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger trackerLog = (Logger) LoggerFactory.getLogger(StreamTracker.class);

  @BeforeEach
  void captureLogs() {
    logs.start();
    trackerLog.addAppender(logs);
  }

  @AfterEach
  void tearDown() {
    trackerLog.detachAppender(logs);
    harness.close();
  }

  private static XdsSnapshot config(int listenerPort, int clusterTimeout) {
    return snapshot(listener("l1", listenerPort), edsCluster("c1", clusterTimeout));
  }

  @Test
  void nackedVersionIsNotResentOnAdsAndTheNextVersionIs() {
    XdsSnapshot v1 = config(10001, 1);
    harness.cache.setSnapshot(v1);
    try (AdsTestClient client = AdsTestClient.ads(harness.port(), "envoy-7")) {
      client.nackWhen(r -> r.getTypeUrl().equals(LDS) && r.getVersionInfo().equals(v1.version()));
      client.subscribe(LDS);
      await().atMost(WAIT).until(() -> harness.nacks.size() == 1);
      // Requests on one stream are handled in order: once CDS is answered, the NACK has been fully handled.
      client.subscribe(CDS);
      await().atMost(WAIT).until(() -> client.responses(CDS).size() == 1);

      XdsSnapshot v2 = config(10002, 1);
      harness.cache.setSnapshot(v2);
      await().atMost(WAIT).until(() -> client.versions(LDS).contains(v2.version()));

      assertThat(client.versions(LDS)).containsExactly(v1.version(), v2.version());
      assertThat(harness.nacks).singleElement().satisfies(event -> {
        assertThat(event.nodeId()).isEqualTo("envoy-7");
        assertThat(event.typeUrl()).isEqualTo(LDS);
        assertThat(event.rejectedVersion()).isEqualTo(v1.version());
        assertThat(event.resourceNames()).containsExactly("l1");
        assertThat(event.errorDetail()).isEqualTo("rejected " + v1.version());
        assertThat(event.at()).isEqualTo(ServerHarness.NOW);
      });
      assertThat(harness.counter(XdsMetrics.NACKS, "Listener")).isEqualTo(1);
      List<String> warnings = logs.list.stream()
          .filter(e -> e.getLevel() == Level.WARN)
          .map(ILoggingEvent::getFormattedMessage)
          .toList();
      assertThat(warnings).singleElement().asString()
          .contains("node=envoy-7", "type=Listener", "rejectedVersion=" + v1.version(),
              "error=\"rejected " + v1.version() + "\"");
    }
  }

  @Test
  void nackedVersionIsNotResentOnAPerTypeStream() {
    XdsSnapshot v1 = config(10001, 1);
    harness.cache.setSnapshot(v1);
    try (AdsTestClient client = AdsTestClient.listeners(harness.port(), "envoy-8")) {
      client.nackWhen(r -> r.getVersionInfo().equals(v1.version()));
      client.subscribe(LDS);
      await().atMost(WAIT).until(() -> harness.nacks.size() == 1);
      // The client NACKs every v1, so a server that resends it would loop: [v1, v1, v1, ...] before v2.
      XdsSnapshot v2 = config(10002, 1);
      harness.cache.setSnapshot(v2);
      await().atMost(WAIT).until(() -> client.versions(LDS).contains(v2.version()));

      assertThat(client.versions(LDS)).containsExactly(v1.version(), v2.version());
      assertThat(harness.counter(XdsMetrics.NACKS, "Listener")).isEqualTo(1);
      assertThat(client.error()).isNull();
    }
  }
}
