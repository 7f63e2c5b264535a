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

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Responses written from shared encoded parts parse back to exactly the message the builder path
 * (java-control-plane's {@code makeResponse} / {@code makeDeltaResponse}) produced, and the shared parts are
 * the same instances for every stream.
 */
class EncodedTest {

  private static final IndexedSnapshot V1 = IndexedSnapshot.of(snapshot(listener("l1", 10001),
      listener("l2", 10002), route("r1", "c1"), edsCluster("c1"), edsCluster("c2"), endpoints("c1", 8080),
      endpoints("c2", 8081)), null);

  static Stream<Arguments> questions() {
    return Stream.of(
        Arguments.of(LDS, List.of()),
        Arguments.of(CDS, List.of("*")),
        Arguments.of(EDS, List.of("c2", "c1")),
        Arguments.of(EDS, List.of("c1", "missing")),
        Arguments.of(RDS, List.of("missing")),
        Arguments.of(RDS, List.of()));
  }

  @ParameterizedTest
  @MethodSource("questions")
  void sotwBytesParseToTheBuilderPathsResponse(String type, List<String> names) throws Exception {
    SotwPlan plan = V1.sotwPlan(SotwQuestion.of(type, names));
    DiscoveryResponse built = DiscoveryResponse.newBuilder().setNonce("17").setVersionInfo(V1.version())
        .addAllResources(plan.resources()).setTypeUrl(type).build();

    Encoded encoded = Encoded.sotw(plan, "17");

    assertThat(DiscoveryResponse.parseFrom(encoded.toByteArray())).isEqualTo(built);
    assertThat(DiscoveryResponse.parseFrom(drained(encoded))).isEqualTo(built);
    assertThat(DiscoveryResponse.parseFrom(Encoded.MARSHALLER.stream(encoded).readAllBytes())).isEqualTo(built);
    assertThat(encoded.length()).isEqualTo(built.getSerializedSize());
  }

  @Test
  void streamsAskingTheSameQuestionShareOneEncodedBody() {
    // Two streams' requests: equal names, distinct lists.
    SotwPlan first = V1.sotwPlan(SotwQuestion.of(EDS, new ArrayList<>(List.of("c1", "c2"))));
    SotwPlan second = V1.sotwPlan(SotwQuestion.of(EDS, new ArrayList<>(List.of("c1", "c2"))));

    Encoded a = Encoded.sotw(first, "0");
    Encoded b = Encoded.sotw(second, "5");

    assertThat(a.parts().get(0)).isSameAs(b.parts().get(0));
    assertThat(a.parts().get(1)).isNotEqualTo(b.parts().get(1));
  }

  @Test
  void deltaBytesParseToTheBuilderPathsResponse() throws Exception {
    var plan = new DeltaTypeState.Plan(Map.of("c1", V1.packed(EDS, "c1"), "c2", V1.packed(EDS, "c2")),
        List.of("gone-1", "gone-2"));
    List<byte[]> entries = List.of(V1.packed(EDS, "c1").deltaEntry(), V1.packed(EDS, "c2").deltaEntry());
    DeltaDiscoveryResponse built = DeltaDiscoveryResponse.newBuilder().setTypeUrl(EDS)
        .setSystemVersionInfo(V1.version()).setNonce("3")
        .addResources(resource(V1, EDS, "c1")).addResources(resource(V1, EDS, "c2"))
        .addAllRemovedResources(plan.removed()).build();

    Encoded encoded = Encoded.delta(EDS, V1.version(), "3", entries, plan.removed());

    assertThat(DeltaDiscoveryResponse.parseFrom(encoded.toByteArray())).isEqualTo(built);
    assertThat(DeltaDiscoveryResponse.parseFrom(drained(encoded))).isEqualTo(built);
    assertThat(DeltaDiscoveryResponse.parseFrom(Encoded.delta(EDS, "v9", "4", List.of(), List.of("x"))
        .toByteArray())).isEqualTo(DeltaDiscoveryResponse.newBuilder().setTypeUrl(EDS).setSystemVersionInfo("v9")
        .setNonce("4").addRemovedResources("x").build());
  }

  @Test
  void deltaEntriesAreEncodedOncePerPackedResourceAndKeptByLaterSnapshots() {
    IndexedSnapshot v2 = IndexedSnapshot.of(snapshot(listener("l1", 10001), listener("l2", 10002),
        route("r1", "c1"), edsCluster("c1"), edsCluster("c2"), endpoints("c1", 8080), endpoints("c2", 9090)), V1);

    assertThat(V1.packed(EDS, "c1").deltaEntry()).isSameAs(V1.packed(EDS, "c1").deltaEntry());
    assertThat(v2.packed(EDS, "c1").deltaEntry()).as("unchanged resource").isSameAs(V1.packed(EDS, "c1").deltaEntry());
    assertThat(v2.packed(EDS, "c2").deltaEntry()).as("changed resource").isNotSameAs(V1.packed(EDS, "c2").deltaEntry());
  }

  private static Resource resource(IndexedSnapshot snapshot, String type, String name) {
    IndexedSnapshot.Packed packed = snapshot.packed(type, name);
    return Resource.newBuilder().setName(name).setVersion(packed.version()).setResource(packed.any()).build();
  }

  /** What gRPC does with the stream: asks its length, then drains it into its buffer. */
  private static byte[] drained(Encoded encoded) throws Exception {
    InputStream stream = Encoded.MARSHALLER.stream(encoded);
    assertThat(stream).isInstanceOf(KnownLength.class).isInstanceOf(Drainable.class);
    int length = stream.available();
    var out = new ByteArrayOutputStream();
    assertThat(((Drainable) stream).drainTo(out)).isEqualTo(length);
    assertThat(stream.available()).isZero();
    assertThat(out.size()).isEqualTo(length);
    return out.toByteArray();
  }
}
