package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.CDS;
import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.grpc.Status;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Bad requests are ignored or answered per protocol; the stream (or at least the server) keeps serving. */
class MalformedRequestTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final XdsSnapshot CONFIG = snapshot(listener("l1", 10001), edsCluster("c1"));

  private final ServerHarness harness = new ServerHarness();

  @AfterEach
  void tearDown() {
    harness.close();
  }

  @Test
  void unsupportedTypeIsIgnoredAndTheStreamKeepsServing() {
    harness.cache.setSnapshot(CONFIG);
    try (AdsTestClient client = AdsTestClient.ads(harness.port(), "odd-1")) {
      client.subscribe("type.googleapis.com/envoy.config.core.v3.TypedExtensionConfig", "ext");
      client.subscribe(LDS);
      await().atMost(WAIT).until(() -> client.responses().size() == 1);
      assertThat(client.responses()).singleElement()
          .satisfies(r -> assertThat(r.getTypeUrl()).isEqualTo(LDS));
      assertThat(client.error()).isNull();
    }
  }

  @Test
  void deltaAckOfAnUnknownNonceClosesOnlyThatStreamWithInvalidArgument() {
    harness.cache.setSnapshot(CONFIG);
    try (DeltaTestClient bad = new DeltaTestClient(harness.port(), "odd-2");
        DeltaTestClient good = new DeltaTestClient(harness.port(), "fine-1")) {
      bad.sendRaw(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce("no-such-nonce").build());
      await().atMost(WAIT).until(() -> bad.error() != null);
      assertThat(Status.fromThrowable(bad.error()).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);

      good.subscribe(CDS, List.of(), Map.of());
      await().atMost(WAIT).until(() -> good.responses(CDS).size() == 1);
    }
  }
}
