package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A proxy's NACK of a TcpGateway's listener lands on the TcpGateway, not on its upstreams. */
class TcpGatewayNackTest {

  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final ResourceKey TCP = ResourceKey.tcpGateway("demo", "passthrough");
  private static final String CONFIG = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: tls-api, namespace: demo}
      spec: {static: {hosts: [{address: 127.0.0.1, port: 9443}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: TcpGateway
      metadata: {name: passthrough, namespace: demo}
      spec: {port: 10443, hosts: [{name: api, sniDomains: [api.test], upstream: {name: tls-api}}]}
      """;

  @Test
  void aListenerNackNamingTheTcpGatewaysListenerIsShownOnIt() {
    StatusBoard board = new StatusBoard();
    List<XdsSnapshot> published = new ArrayList<>();
    ConfigPipeline pipeline = new ConfigPipeline(s -> published.add(s), board, Clock.fixed(NOW, ZoneOffset.UTC),
        new SimpleMeterRegistry(), translation -> { });
    GatewayConfig config = new ConfigLoader().load(List.of(new ConfigLoader.Source("tcp.yaml", CONFIG)), Map.of())
        .config();

    assertThat(pipeline.apply(config, List.of())).isTrue();
    assertThat(board.current().orElseThrow().statuses().get(TCP).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    board.onNack(new NackEvent("envoy-1", "type.googleapis.com/envoy.config.listener.v3.Listener",
        published.get(0).version(), List.of("TcpGateway/demo/passthrough"),
        "Error adding/updating listener(s) TcpGateway/demo/passthrough: cannot bind 0.0.0.0:10443", NOW));

    assertThat(board.nackOf(TCP)).isPresent();
    assertThat(board.nackOf(ResourceKey.upstream("demo", "tls-api"))).isEmpty();
  }
}
