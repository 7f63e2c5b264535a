package io.holdfast.it.bench.xds;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.holdfast.xds.snapshot.XdsSnapshot;
import org.junit.jupiter.api.Test;

/** The benchmark's changes must be what the report says they are. */
class BenchSnapshotsTest {

  private final BenchSnapshots snapshots = new BenchSnapshots(100, 100);

  @Test
  void baseHasAHundredClustersWithEndpoints() {
    XdsSnapshot base = snapshots.revision(0);
    assertThat(base.ofType(Resources.V3.CLUSTER_TYPE_URL)).hasSize(100);
    assertThat(base.ofType(Resources.V3.ENDPOINT_TYPE_URL)).hasSize(100);
    assertThat(base.ofType(Resources.V3.LISTENER_TYPE_URL)).hasSize(3);
    assertThat(base.ofType(Resources.V3.ROUTE_TYPE_URL)).hasSize(3);
  }

  @Test
  void consecutiveRevisionsDifferInEndpointsAndRoutesOnly() {
    for (int r = 1; r <= 3; r++) {
      assertThat(BenchSnapshots.changedTypes(snapshots.revision(r - 1), snapshots.revision(r)))
          .containsExactlyInAnyOrder(Resources.V3.ENDPOINT_TYPE_URL, Resources.V3.ROUTE_TYPE_URL);
      assertThat(snapshots.revision(r).version()).isNotEqualTo(snapshots.revision(r - 1).version());
    }
  }

  @Test
  void aRevisionIsReproducible() {
    assertThat(new BenchSnapshots(100, 100).revision(2).version()).isEqualTo(snapshots.revision(2).version());
  }
}
