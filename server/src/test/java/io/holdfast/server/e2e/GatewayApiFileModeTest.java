package io.holdfast.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.NamedBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Gateway API in file mode, end to end: a config directory of GatewayClass, Gateway, HTTPRoute, Services and
 * EndpointSlices, served to grpc-java's xDS client ({@code xds:///echo.test}) calling local backends; an edit of the
 * route re-routes the connected client.
 */
class GatewayApiFileModeTest {
  private static final Duration CONVERGE = Duration.ofSeconds(60);
  private static final ResourceKey ROUTE = new ResourceKey("gateway.networking.k8s.io", "HTTPRoute", "shop", "echo");

  @TempDir
  Path configDir;

  @Test
  void anHttpRouteRoutesAGrpcClientToServiceEndpointsAndFollowsEdits() throws Exception {
    try (NamedBackends backends = new NamedBackends("a", "b")) {
      write("gateway.yaml", GatewayApiConfig.CLASS_AND_GATEWAY);
      write("services.yaml", GatewayApiConfig.service("a", backends.port("a"))
          + "---\n" + GatewayApiConfig.service("b", backends.port("b")));
      write("route.yaml", GatewayApiConfig.route("a"));
      try (HoldfastServer holdfast = HoldfastServer.start(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1",
          0, Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
        GrpcXdsClient xds = GrpcXdsClient.bootstrap(holdfast.xdsPort(), "gateway-api-e2e", "holdfast-e2e");
        ManagedChannel channel = xds.channel("echo.test");
        try {
          await().atMost(CONVERGE).until(() -> GatewayApiConfig.call(channel, Map.of()).equals("a"));
          for (int i = 0; i < 10; i++) {
            assertThat(GatewayApiConfig.call(channel, Map.of("x-pick", "b"))).isEqualTo("b");
            assertThat(GatewayApiConfig.call(channel, Map.of())).isEqualTo("a");
          }
          assertThat(holdfast.statusBoard().statusOf(ROUTE)).get().extracting(ResourceStatus::state)
              .isEqualTo(ResourceStatus.State.ACCEPTED);

          write("route.yaml", GatewayApiConfig.route("b"));
          await().atMost(CONVERGE).until(() -> GatewayApiConfig.call(channel, Map.of()).equals("b"));
        } finally {
          xds.close();
        }
      }
    }
  }

  private void write(String name, String text) throws Exception {
    Path tmp = Files.createTempFile(configDir, ".tmp-", ".part");
    Files.writeString(tmp, text);
    Files.move(tmp, configDir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
