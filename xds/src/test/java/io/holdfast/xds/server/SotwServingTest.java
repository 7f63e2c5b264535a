package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.CDS;
import static io.holdfast.xds.server.Fixtures.EDS;
import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.RDS;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.endpoints;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.route;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** SotW ADS over real gRPC: pushes per changed type only, no push for an equal version, partial answers. */
class SotwServingTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ServerHarness harness = new ServerHarness();
  private final AdsTestClient client = AdsTestClient.ads(harness.port(), "node-1");

  @AfterEach
  void tearDown() {
    client.close();
    harness.close();
  }

  private static XdsSnapshot config(int listenerPort, String routeCluster, int clusterTimeout, int endpointPort) {
    return snapshot(listener("l1", listenerPort), route("r1", routeCluster), edsCluster("c1", clusterTimeout),
        edsCluster("c2"), endpoints("c1", endpointPort));
  }

  /** Subscribes in Envoy's order, each after the previous answer, so the initial exchange is deterministic. */
  private void subscribeAll() {
    client.subscribe(CDS);
    awaitResponses(1);
    client.subscribe(EDS, "c1");
    awaitResponses(2);
    client.subscribe(LDS);
    awaitResponses(3);
    client.subscribe(RDS, "r1");
    awaitResponses(4);
  }

  private void awaitResponses(int count) {
    await().atMost(WAIT).until(() -> client.responses().size() >= count);
  }

  private static List<String> typesAndVersions(List<DiscoveryResponse> responses) {
    List<String> out = new ArrayList<>();
    for (DiscoveryResponse response : responses) {
      out.add(TypeUrls.shortName(response.getTypeUrl()) + "@" + response.getVersionInfo());
    }
    return out;
  }

  private static List<String> names(DiscoveryResponse response, Class<? extends com.google.protobuf.Message> type)
      throws InvalidProtocolBufferException {
    List<String> out = new ArrayList<>();
    for (Any any : response.getResourcesList()) {
      var message = any.unpack(type);
      out.add(io.envoyproxy.controlplane.cache.Resources.getResourceName(message));
    }
    return out;
  }

  @Test
  void changePushesOncePerChangedTypeAndEqualVersionPushesNothing() {
    XdsSnapshot v1 = config(10001, "c1", 1, 20001);
    assertThat(harness.cache.setSnapshot(v1)).isTrue();
    subscribeAll();
    assertThat(typesAndVersions(client.responses())).containsExactly(
        "Cluster@" + v1.version(), "ClusterLoadAssignment@" + v1.version(),
        "Listener@" + v1.version(), "RouteConfiguration@" + v1.version());

    // v2 changes the route and one cluster; listener and endpoints stay as they were.
    XdsSnapshot v2 = config(10001, "c2", 2, 20001);
    assertThat(harness.cache.setSnapshot(v2)).isTrue();
    // The same content again (a new object, equal version) must be a no-op.
    assertThat(harness.cache.setSnapshot(config(10001, "c2", 2, 20001))).isFalse();
    // Marker: v3 changes only the listener; whatever arrives before it was caused by v2 or the no-op.
    XdsSnapshot v3 = config(10002, "c2", 2, 20001);
    harness.cache.setSnapshot(v3);
    await().atMost(WAIT).until(() -> client.versions(LDS).contains(v3.version()));

    assertThat(typesAndVersions(client.responses().subList(4, client.responses().size()))).containsExactly(
        "Cluster@" + v2.version(), "RouteConfiguration@" + v2.version(), "Listener@" + v3.version());
    assertThat(harness.cache.currentSnapshot()).contains(v3);
    assertThat(harness.counter(XdsMetrics.PUSHES, "Listener")).isEqualTo(2);
    assertThat(harness.counter(XdsMetrics.PUSHES, "ClusterLoadAssignment")).isEqualTo(1);
  }

  @Test
  void wildcardAnswerOmitsADeletedCluster() throws InvalidProtocolBufferException {
    harness.cache.setSnapshot(config(10001, "c1", 1, 20001));
    client.subscribe(CDS);
    awaitResponses(1);
    assertThat(names(client.responses(CDS).get(0), Cluster.class)).containsExactly("c1", "c2");

    XdsSnapshot without = snapshot(listener("l1", 10001), route("r1", "c1"), edsCluster("c1", 1),
        endpoints("c1", 20001));
    harness.cache.setSnapshot(without);
    await().atMost(WAIT).until(() -> client.responses(CDS).size() == 2);
    DiscoveryResponse last = client.responses(CDS).get(1);
    assertThat(last.getVersionInfo()).isEqualTo(without.version());
    assertThat(names(last, Cluster.class)).containsExactly("c1");
  }

  @Test
  void namedRequestWithAMissingNameIsAnsweredWithTheSubsetAndLaterWithTheNewcomer()
      throws InvalidProtocolBufferException {
    XdsSnapshot v1 = config(10001, "c1", 1, 20001);
    harness.cache.setSnapshot(v1);
    client.subscribe(RDS, "r1", "missing");
    await().atMost(Duration.ofSeconds(2)).until(() -> client.responses(RDS).size() == 1);
    assertThat(names(client.responses(RDS).get(0), RouteConfiguration.class)).containsExactly("r1");

    XdsSnapshot v2 = snapshot(listener("l1", 10001), route("r1", "c1"), route("missing", "c2"),
        edsCluster("c1", 1), edsCluster("c2"), endpoints("c1", 20001));
    harness.cache.setSnapshot(v2);
    await().atMost(WAIT).until(() -> client.responses(RDS).size() == 2);
    DiscoveryResponse second = client.responses(RDS).get(1);
    assertThat(second.getVersionInfo()).isEqualTo(v2.version());
    assertThat(names(second, RouteConfiguration.class)).containsExactly("missing", "r1");
  }

  @Test
  void watchOpenedBeforeTheFirstSnapshotIsAnsweredWhenItArrives() {
    client.subscribe(LDS);
    client.subscribe(CDS);
    // Nothing to serve yet: an empty answer here would wipe a reconnecting proxy's listeners.
    XdsSnapshot v1 = config(10001, "c1", 1, 20001);
    harness.cache.setSnapshot(v1);
    awaitResponses(2);
    assertThat(client.responses()).extracting(DiscoveryResponse::getVersionInfo)
        .containsExactly(v1.version(), v1.version());
  }
}
