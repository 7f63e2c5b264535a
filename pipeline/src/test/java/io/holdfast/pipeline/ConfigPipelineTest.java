package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Metadata;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.ir.NackEvent;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order in which a build reaches the xDS cache and the status board. */
class ConfigPipelineTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final ResourceKey ECHO = new ResourceKey("Upstream", "demo", "echo");

  private final StatusBoard board = new StatusBoard();
  private final List<XdsSnapshot> published = new ArrayList<>();

  private static GatewayConfig config(int port) {
    return GatewayConfig.builder()
        .add(Upstream.ofHosts(Metadata.of("demo", "echo"), List.of(UpstreamTarget.Host.of("127.0.0.1", port))))
        .build();
  }

  /**
   * Regression: the snapshot went to the cache before the board learned its version, and the board clears NACKs
   * when the version changes; a proxy NACKing the new snapshot in between was forgotten, and since the rejected
   * version is not resent, the NACK never came back.
   */
  @Test
  void aNackOfTheNewSnapshotReceivedWhileItIsBeingPublishedStaysOnTheBoard() {
    ConfigPipeline pipeline = new ConfigPipeline(snapshot -> {
      published.add(snapshot);
      // A proxy gets the snapshot and NACKs it before apply() returns.
      board.onNack(new NackEvent("envoy-1", "type.googleapis.com/envoy.config.cluster.v3.Cluster",
          snapshot.version(), List.of("demo/echo"), "Cluster demo/echo: rejected", NOW));
      return true;
    }, board, Clock.fixed(NOW, ZoneOffset.UTC), new SimpleMeterRegistry(), translation -> { });

    assertThat(pipeline.apply(config(8080), List.of())).isTrue();
    assertThat(board.nackOf(ECHO)).as("NACK of the first build").isPresent();
    assertThat(pipeline.apply(config(8081), List.of())).isTrue();

    assertThat(published).hasSize(2);
    assertThat(board.current().orElseThrow().version()).isEqualTo(published.get(1).version());
    assertThat(board.nackOf(ECHO)).get().extracting(NackEvent::rejectedVersion)
        .isEqualTo(published.get(1).version());
  }
}
