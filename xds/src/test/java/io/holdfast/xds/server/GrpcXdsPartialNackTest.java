package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.ads;
import static io.holdfast.xds.server.Fixtures.endpoints;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.grpc.ManagedChannel;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.NamedBackends;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's xDS client (it implements gRFC A46) applies the valid resources of a response it NACKs. One CDS
 * response changes cluster X validly (its endpoints move from backend A to backend B) and cluster H invalidly
 * (an lb policy grpc-java rejects); the client NACKs it but routes X to B. Reverting both brings back the
 * snapshot the client ACKed before, and the server must still send it, or the client stays on B. Own class:
 * grpc-java reads its bootstrap once per JVM.
 */
class GrpcXdsPartialNackTest {

  private static final Duration WAIT = Duration.ofSeconds(15);

  private static NamedBackends backends;
  private static ServerHarness harness;
  private static GrpcXdsClient client;
  private static ManagedChannel channel;

  @BeforeAll
  static void start() {
    backends = new NamedBackends("A", "B");
    harness = new ServerHarness();
    client = GrpcXdsClient.bootstrap(harness.port(), "grpc-partial-nack", "holdfast-test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (harness != null) {
      harness.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  @Test
  void revertAfterAPartiallyAppliedNackBringsTheClientBackToTheServedConfig() {
    XdsSnapshot accepted = config("x-on-a", Cluster.LbPolicy.ROUND_ROBIN);
    harness.cache.setSnapshot(accepted);
    channel = client.channel("svc.test");
    assertThat(call()).isEqualTo("A");

    XdsSnapshot halfBad = config("x-on-b", Cluster.LbPolicy.RANDOM);
    harness.cache.setSnapshot(halfBad);
    await().atMost(WAIT).until(() -> harness.nacks.stream().anyMatch(n -> n.typeUrl().equals(Fixtures.CDS)
        && n.rejectedVersion().equals(halfBad.version())));
    assertThat(harness.nacks).filteredOn(n -> n.typeUrl().equals(Fixtures.CDS)).singleElement()
        .satisfies(n -> assertThat(n.errorDetail()).contains("cluster-h"));
    // gRFC A46: the NACKed response's valid cluster X is in use all the same.
    await().atMost(WAIT).untilAsserted(() -> assertThat(call()).isEqualTo("B"));

    XdsSnapshot revert = config("x-on-a", Cluster.LbPolicy.ROUND_ROBIN);
    assertThat(revert.version()).as("the revert is the snapshot the client ACKed").isEqualTo(accepted.version());
    harness.cache.setSnapshot(revert);
    await().atMost(WAIT).untilAsserted(() -> assertThat(call()).isEqualTo("A"));
    assertThat(harness.nacks).filteredOn(n -> n.typeUrl().equals(Fixtures.CDS)).hasSize(1);
  }

  /**
   * Listener svc.test routes {@code x-target: h} to cluster H and everything else to cluster X; X takes its
   * endpoints from {@code xEndpoints} ("x-on-a" holds backend A, "x-on-b" backend B).
   */
  private static XdsSnapshot config(String xEndpoints, Cluster.LbPolicy hPolicy) {
    return snapshot(apiListener("svc.test", "route-svc"), routes("route-svc"),
        cluster("cluster-x", xEndpoints, Cluster.LbPolicy.ROUND_ROBIN), cluster("cluster-h", "h", hPolicy),
        endpoints("x-on-a", backends.port("A")), endpoints("x-on-b", backends.port("B")),
        endpoints("h", backends.port("A")));
  }

  private static Cluster cluster(String name, String serviceName, Cluster.LbPolicy policy) {
    return Cluster.newBuilder()
        .setName(name)
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ads()).setServiceName(serviceName))
        .setLbPolicy(policy)
        .build();
  }

  private static RouteConfiguration routes(String name) {
    return RouteConfiguration.newBuilder()
        .setName(name)
        .addVirtualHosts(VirtualHost.newBuilder()
            .setName("all")
            .addDomains("*")
            .addRoutes(Route.newBuilder()
                .setMatch(RouteMatch.newBuilder().setPrefix("").addHeaders(HeaderMatcher.newBuilder()
                    .setName("x-target").setStringMatch(
                        io.envoyproxy.envoy.type.matcher.v3.StringMatcher.newBuilder().setExact("h"))))
                .setRoute(RouteAction.newBuilder().setCluster("cluster-h")))
            .addRoutes(Route.newBuilder()
                .setMatch(RouteMatch.newBuilder().setPrefix(""))
                .setRoute(RouteAction.newBuilder().setCluster("cluster-x"))))
        .build();
  }

  private static Listener apiListener(String name, String routeName) {
    var hcm = HttpConnectionManager.newBuilder()
        .setRds(Rds.newBuilder().setConfigSource(ads()).setRouteConfigName(routeName))
        .addHttpFilters(HttpFilter.newBuilder()
            .setName("envoy.filters.http.router")
            .setTypedConfig(Any.pack(Router.getDefaultInstance())))
        .build();
    return Listener.newBuilder()
        .setName(name)
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(hcm)))
        .build();
  }

  private static String call() {
    return SimpleServiceGrpc.newBlockingStub(channel)
        .withWaitForReady()
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.newBuilder().setRequestMessage("hi").build())
        .getResponseMessage();
  }

}
