package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.CDS;
import static io.holdfast.xds.server.Fixtures.EDS;
import static io.holdfast.xds.server.Fixtures.RDS;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.endpoints;
import static io.holdfast.xds.server.Fixtures.route;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resources are serialized once per version and the bytes shared, never across types or versions. */
class IndexedSnapshotTest {

  @Test
  void eachResourceIsPackedUnderItsOwnTypeWithItsOwnBytes() throws Exception {
    Cluster cluster = edsCluster("same-name");
    ClusterLoadAssignment cla = endpoints("same-name", 8080);
    IndexedSnapshot indexed = IndexedSnapshot.of(snapshot(cluster, cla), null);

    Any packedCluster = indexed.packed(CDS, "same-name").any();
    Any packedCla = indexed.packed(EDS, "same-name").any();
    assertThat(packedCluster.getTypeUrl()).isEqualTo(CDS);
    assertThat(packedCla.getTypeUrl()).isEqualTo(EDS);
    assertThat(packedCluster.unpack(Cluster.class)).isEqualTo(cluster);
    assertThat(packedCla.unpack(ClusterLoadAssignment.class)).isEqualTo(cla);
    assertThat(packedCluster).isEqualTo(Any.pack(cluster));
    assertThat(indexed.packed(RDS, "same-name")).isNull();
    assertThat(indexed.packed(CDS, "other")).isNull();
  }

  @Test
  void unchangedResourcesKeepTheirPackedBytesAcrossSnapshotsAndChangedOnesGetNewOnes() throws Exception {
    IndexedSnapshot v1 = IndexedSnapshot.of(snapshot(edsCluster("a"), edsCluster("b"), route("r", "a")), null);
    // A new translation: equal content in new instances for "a" and "r", a change to "b".
    IndexedSnapshot v2 = IndexedSnapshot.of(snapshot(edsCluster("a"), edsCluster("b", 9), route("r", "a")), v1);

    assertThat(v2.packed(CDS, "a").any()).isSameAs(v1.packed(CDS, "a").any());
    assertThat(v2.packed(RDS, "r").any()).isSameAs(v1.packed(RDS, "r").any());
    assertThat(v2.resourceVersion(CDS, "a")).isEqualTo(v1.resourceVersion(CDS, "a"));

    assertThat(v2.packed(CDS, "b").any()).isNotSameAs(v1.packed(CDS, "b").any());
    assertThat(v2.resourceVersion(CDS, "b")).isNotEqualTo(v1.resourceVersion(CDS, "b"));
    assertThat(v2.packed(CDS, "b").any().unpack(Cluster.class)).isEqualTo(edsCluster("b", 9));
    assertThat(v1.packed(CDS, "b").any().unpack(Cluster.class)).as("the old snapshot still serves the old bytes")
        .isEqualTo(edsCluster("b"));
  }

  @Test
  void sotwAnswersShareThePackedResourcesAndDifferPerTypeAndSnapshot() throws Exception {
    IndexedSnapshot v1 = IndexedSnapshot.of(snapshot(edsCluster("a"), endpoints("a", 1), endpoints("b", 2)), null);
    IndexedSnapshot v2 = IndexedSnapshot.of(snapshot(edsCluster("a"), endpoints("a", 1), endpoints("b", 3)), v1);
    SotwQuestion eds = SotwQuestion.of(EDS, List.of("b", "a"));

    SotwPlan first = v1.sotwPlan(eds);
    assertThat(first.names()).containsExactly("a", "b");
    assertThat(first.resources()).containsExactly(v1.packed(EDS, "a").any(), v1.packed(EDS, "b").any());
    assertThat(v1.sotwPlan(SotwQuestion.of(EDS, List.of("b", "a")))).as("memo per question").isSameAs(first);

    SotwPlan second = v2.sotwPlan(eds);
    assertThat(second.key()).isNotEqualTo(first.key());
    assertThat(second.resources().get(0)).isSameAs(first.resources().get(0));
    assertThat(second.resources().get(1).unpack(ClusterLoadAssignment.class)).isEqualTo(endpoints("b", 3));

    SotwPlan clusters = v1.sotwPlan(SotwQuestion.of(CDS, List.of("b", "a")));
    assertThat(clusters.names()).containsExactly("a");
    assertThat(clusters.resources()).allSatisfy(any -> assertThat(any.getTypeUrl()).isEqualTo(CDS));
  }

  @Test
  void questionsAreInternedByTypeAndNames() {
    SotwQuestion q = SotwQuestion.of(EDS, List.of("x", "y"));
    assertThat(SotwQuestion.of(EDS, new java.util.ArrayList<>(List.of("x", "y")))).isSameAs(q);
    assertThat(SotwQuestion.of(RDS, List.of("x", "y"))).isNotEqualTo(q);
    assertThat(SotwQuestion.of(EDS, List.of("y", "x"))).isNotEqualTo(q);
  }
}
