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

  /**
   * The board carries every Gateway API object's full status for the status writer, and an empty one (no parents)
   * for a route naming only another controller's Gateway, so Holdfast's earlier parent entries on it get removed.
   */
  @Test
  void gatewayApiStatusesReachTheBoardAndARouteWithoutOurParentsGetsAnEmptyOne() {
    ConfigPipeline pipeline = new ConfigPipeline(snapshot -> true, board, Clock.fixed(NOW, ZoneOffset.UTC),
        new SimpleMeterRegistry(), translation -> { }, new ConfigCheck("holdfast.test/gw"));
    String docs = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: ours}
        spec: {controllerName: holdfast.test/gw}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: edge, namespace: shop}
        spec: {gatewayClassName: ours, listeners: [{name: http, port: 10090, protocol: HTTP}]}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: ours, namespace: shop}
        spec: {parentRefs: [{name: edge}], rules: [{}]}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: not-ours, namespace: shop}
        spec: {gatewayClassName: someone-elses, listeners: [{name: http, port: 10091, protocol: HTTP}]}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: theirs, namespace: shop, generation: 3}
        spec: {parentRefs: [{name: not-ours}], rules: [{}]}
        """;
    GatewayConfig config = new io.holdfast.api.ConfigLoader().load(
        List.of(new io.holdfast.api.ConfigLoader.Source("gw.yaml", docs)), java.util.Map.of()).config();

    pipeline.apply(config, List.of());

    var full = board.current().orElseThrow().objectStatuses();
    String g = "gateway.networking.k8s.io";
    assertThat(full).containsKeys(new ResourceKey(g, "GatewayClass", "", "ours"),
        new ResourceKey(g, "Gateway", "shop", "edge"));
    assertThat(full.get(new ResourceKey(g, "HTTPRoute", "shop", "ours")).parents()).hasSize(1);
    var theirs = full.get(new ResourceKey(g, "HTTPRoute", "shop", "theirs"));
    assertThat(theirs.parents()).isEmpty();
    assertThat(theirs.observedGeneration()).isEqualTo(3);
    assertThat(board.current().orElseThrow().statuses())
        .doesNotContainKey(new ResourceKey(g, "HTTPRoute", "shop", "theirs"));
  }
}
