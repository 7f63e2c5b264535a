package io.holdfast.xds.server;

import static io.holdfast.xds.server.DeltaTestClient.names;
import static io.holdfast.xds.server.Fixtures.CDS;
import static io.holdfast.xds.server.Fixtures.EDS;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.endpoints;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Delta xDS over real gRPC: only changed resources, removals for absent names, NACKs, initial versions. */
class DeltaServingTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ServerHarness harness = new ServerHarness();
  private final DeltaTestClient client = new DeltaTestClient(harness.port(), "delta-1");

  @AfterEach
  void tearDown() {
    client.close();
    harness.close();
  }

  @Test
  void namedSubscriptionGetsRemovalForAbsentNamesAndOnlyChangedResources() {
    harness.cache.setSnapshot(snapshot(endpoints("c1", 20001), endpoints("c2", 20001)));
    client.subscribe(EDS, List.of("c1", "never"), Map.of());
    await().atMost(WAIT).until(() -> client.responses(EDS).size() == 1);
    DeltaDiscoveryResponse first = client.responses(EDS).get(0);
    assertThat(names(first)).containsExactly("c1");
    assertThat(first.getRemovedResourcesList()).containsExactly("never");

    // c2 changes but is not subscribed; c1 is unchanged: nothing to send. Then the marker changes c1.
    harness.cache.setSnapshot(snapshot(endpoints("c1", 20001), endpoints("c2", 20002)));
    XdsSnapshot v3 = snapshot(endpoints("c1", 20003), endpoints("c2", 20002));
    harness.cache.setSnapshot(v3);
    await().atMost(WAIT).until(() -> client.responses(EDS).size() >= 2);
    DeltaDiscoveryResponse second = client.responses(EDS).get(1);
    assertThat(second.getSystemVersionInfo()).isEqualTo(v3.version());
    assertThat(names(second)).containsExactly("c1");
    assertThat(second.getRemovedResourcesList()).as("'never' was already reported").isEmpty();

    XdsSnapshot v4 = snapshot(endpoints("c2", 20002));
    harness.cache.setSnapshot(v4);
    await().atMost(WAIT).until(() -> client.responses(EDS).size() >= 3);
    DeltaDiscoveryResponse third = client.responses(EDS).get(2);
    assertThat(third.getResourcesList()).isEmpty();
    assertThat(third.getRemovedResourcesList()).containsExactly("c1");
    assertThat(client.responses(EDS)).hasSize(3);
  }

  @Test
  void wildcardSendsChangedResourcesWithTheirVersionsAndRemovals() {
    harness.cache.setSnapshot(snapshot(edsCluster("a"), edsCluster("b")));
    client.subscribe(CDS, List.of(), Map.of());
    await().atMost(WAIT).until(() -> client.responses(CDS).size() == 1);
    assertThat(names(client.responses(CDS).get(0))).containsExactly("a", "b");

    harness.cache.setSnapshot(snapshot(edsCluster("a", 7), edsCluster("b")));
    await().atMost(WAIT).until(() -> client.responses(CDS).size() == 2);
    Resource changed = client.responses(CDS).get(1).getResources(0);
    assertThat(client.responses(CDS).get(1).getResourcesCount()).isEqualTo(1);
    assertThat(changed.getName()).isEqualTo("a");
    assertThat(changed.getVersion()).isEqualTo(Hashes.of(edsCluster("a", 7)));

    harness.cache.setSnapshot(snapshot(edsCluster("a", 7)));
    await().atMost(WAIT).until(() -> client.responses(CDS).size() == 3);
    assertThat(client.responses(CDS).get(2).getRemovedResourcesList()).containsExactly("b");
  }

  @Test
  void nackedVersionIsNotResent() {
    XdsSnapshot v1 = snapshot(edsCluster("a"), endpoints("a", 20001));
    harness.cache.setSnapshot(v1);
    client.nackWhen(r -> r.getTypeUrl().equals(CDS) && r.getSystemVersionInfo().equals(v1.version()));
    client.subscribe(CDS, List.of(), Map.of());
    await().atMost(WAIT).until(() -> harness.nacks.size() == 1);
    // Marker on the same stream: once EDS is answered, the NACK has been fully handled.
    client.subscribe(EDS, List.of("a"), Map.of());
    await().atMost(WAIT).until(() -> client.responses(EDS).size() == 1);

    XdsSnapshot v2 = snapshot(edsCluster("a", 3), endpoints("a", 20001));
    harness.cache.setSnapshot(v2);
    await().atMost(WAIT).until(() -> client.responses(CDS).size() >= 2);
    assertThat(client.responses(CDS)).extracting(DeltaDiscoveryResponse::getSystemVersionInfo)
        .containsExactly(v1.version(), v2.version());
    assertThat(harness.nacks).singleElement().satisfies(event -> {
      assertThat(event.rejectedVersion()).isEqualTo(v1.version());
      assertThat(event.resourceNames()).containsExactly("a");
      assertThat(event.nodeId()).isEqualTo("delta-1");
    });
    assertThat(harness.counter(XdsMetrics.NACKS, "Cluster")).isEqualTo(1);
  }

  @Test
  void reconnectWithInitialVersionsGetsOnlyWhatChangedMeanwhile() {
    harness.cache.setSnapshot(snapshot(edsCluster("a"), edsCluster("b")));
    client.subscribe(CDS, List.of(), Map.of());
    await().atMost(WAIT).until(() -> client.responses(CDS).size() == 1);
    Map<String, String> held = client.responses(CDS).get(0).getResourcesList().stream()
        .collect(Collectors.toMap(Resource::getName, Resource::getVersion));

    // While "disconnected", b changes and c appears; a is unchanged.
    harness.cache.setSnapshot(snapshot(edsCluster("a"), edsCluster("b", 4), edsCluster("c")));
    try (DeltaTestClient again = new DeltaTestClient(harness.port(), "delta-1")) {
      again.subscribe(CDS, List.of(), Map.of("a", held.get("a"), "b", held.get("b"), "gone", "x"));
      await().atMost(WAIT).until(() -> again.responses(CDS).size() == 1);
      DeltaDiscoveryResponse first = again.responses(CDS).get(0);
      assertThat(names(first)).containsExactly("b", "c");
      assertThat(first.getRemovedResourcesList()).containsExactly("gone");
    }
  }
}
