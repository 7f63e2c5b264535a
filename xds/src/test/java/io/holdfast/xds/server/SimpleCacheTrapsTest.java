package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.RDS;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.route;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Documents the two java-control-plane {@code SimpleCache} traps that {@link XdsCache} exists to avoid, with
 * the same client as the Holdfast tests. If one of these starts failing, upstream changed its behaviour.
 */
class SimpleCacheTrapsTest {

  private final SimpleCache<String> cache = new SimpleCache<>(node -> "all");
  private Server server;

  @BeforeEach
  void start() throws IOException {
    cache.setSnapshot("all", Snapshot.create(List.of(), List.of(), List.of(listener("l1", 10001)),
        List.of(route("r1", "c1")), List.of(), "v1"));
    var discovery = new V3DiscoveryServer(cache);
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(discovery.getAggregatedDiscoveryServiceImpl())
        .build()
        .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  @Test
  void simpleCacheResendsANackedVersionAtOnce() {
    try (AdsTestClient client = AdsTestClient.ads(server.getPort(), "envoy-1")) {
      client.nackWhen(response -> true);
      client.subscribe(LDS);
      // The snapshot never changes, yet v1 keeps coming back: ten resends well within the bound.
      await().atMost(Duration.ofSeconds(5)).until(() -> client.responses(LDS).size() >= 11);
      assertThat(client.versions(LDS)).allMatch("v1"::equals);
    }
  }

  @Test
  void simpleCacheStallsAnAdsRequestNamingAMissingResource() {
    try (AdsTestClient client = AdsTestClient.ads(server.getPort(), "envoy-1")) {
      client.subscribe(RDS, "r1", "missing");
      // Marker: the stream handles requests in order, so once LDS is answered the RDS request was handled.
      client.subscribe(LDS);
      await().atMost(Duration.ofSeconds(5)).until(() -> client.responses(LDS).size() == 1);
      assertThat(client.responses(RDS)).as("r1 exists but nothing is sent").isEmpty();
    }
  }
}
