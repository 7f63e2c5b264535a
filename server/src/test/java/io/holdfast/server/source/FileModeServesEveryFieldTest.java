package io.holdfast.server.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What `serve` builds from a config directory holds every field `validate` judged. File mode stamps each object's
 * first-served time into its metadata, and that rebuilt Gateways without their options and proxyNames: access
 * logs, timeouts and PROXY protocol were validated and then never served. Checked on the snapshot the running
 * server publishes.
 */
class FileModeServesEveryFieldTest {

  @TempDir
  Path configDir;

  @Test
  void aGatewaysListenerOptionsReachTheServedListener() throws Exception {
    Files.writeString(configDir.resolve("config.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up, namespace: default}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: default}
        spec: {domains: [web.test], routes: [{match: {prefix: /}, route: {upstream: up}}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: default}
        spec: {port: 10080, proxyNames: [edge-a], options: {xffNumTrustedHops: 3, idleTimeout: 42s}}
        """);
    try (HoldfastServer server = HoldfastServer.start(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
      SortedMap<String, Message> listeners = await().atMost(Duration.ofSeconds(30))
          .until(() -> server.statusBoard().current().map(b -> b.translation().snapshot()
              .ofType("type.googleapis.com/envoy.config.listener.v3.Listener")).orElse(null),
              found -> found != null && !found.isEmpty());
      // The socket listener of the Gateway (the other is the gRPC clients' API listener of web.test).
      Listener listener = (Listener) listeners.get("gateway/default/gw");
      HttpConnectionManager hcm = listener.getFilterChains(0).getFilters(0).getTypedConfig()
          .unpack(HttpConnectionManager.class);
      assertThat(hcm.getXffNumTrustedHops()).isEqualTo(3);
      assertThat(hcm.getCommonHttpProtocolOptions().getIdleTimeout().getSeconds()).isEqualTo(42);
      // The Gateway is in proxy edge-a's scope only.
      assertThat(server.statusBoard().current().orElseThrow().translation().snapshot().scopes().of("edge-a"))
          .isPresent();
      assertThat(server.statusBoard().current().orElseThrow().translation().snapshot().scopes()
          .of("gateway-proxy")).isEmpty();
    }
  }
}
