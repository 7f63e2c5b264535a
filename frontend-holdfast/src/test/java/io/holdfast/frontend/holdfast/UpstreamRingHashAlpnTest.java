package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.IrBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An Upstream's ring size bounds ({@code spec.ringHash}) and ALPN protocols ({@code spec.tls.alpnProtocols}). */
class UpstreamRingHashAlpnTest {

  private static final ResourceKey BACKEND = ResourceKey.upstream("default", "backend");

  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC));

  private static String upstream(String spec) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: backend}
        spec:
          static:
            hosts: [{address: 127.0.0.1, port: 8443}]
        """ + spec.indent(2);
  }

  private IrBuilder.Result lower(String upstream) {
    IrBuilder builder = new IrBuilder();
    frontEnd.lower(TestManifests.config(upstream, TestManifests.virtualService("web", "web.example", "backend"),
        TestManifests.gateway("public", 10080)), builder);
    return builder.build();
  }

  private static List<Problem> problems(IrBuilder.Result result) {
    return ResourceStatus.of(result.statuses().get(BACKEND)).problems();
  }

  private static Optional<Cluster> cluster(IrBuilder.Result result) {
    return result.ir().clusters().stream().filter(c -> c.origin().object().equals(BACKEND)).findFirst();
  }

  @Test
  void ringSizeBoundsReachTheCluster() {
    IrBuilder.Result result = lower(upstream("""
        loadBalancing: RING_HASH
        ringHash: {minimumRingSize: 10, maximumRingSize: 8388608}
        """));

    assertThat(problems(result)).isEmpty();
    assertThat(cluster(result).orElseThrow().ringHash())
        .contains(new Cluster.RingHash(Optional.of(10L), Optional.of(8_388_608L)));
  }

  @Test
  void ringSizesOutOfEnvoysRangeOrInvertedOrWithoutRingHashAreRejected() {
    assertThat(problems(lower(upstream("""
        loadBalancing: RING_HASH
        ringHash: {minimumRingSize: 0, maximumRingSize: 8388609}
        """)))).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.ringHash.minimumRingSize", Reasons.INVALID_RING_HASH),
        tuple("spec.ringHash.maximumRingSize", Reasons.INVALID_RING_HASH));
    // The default minimum (1024) is above a written maximum of 100.
    IrBuilder.Result inverted = lower(upstream("""
        loadBalancing: RING_HASH
        ringHash: {maximumRingSize: 100}
        """));
    assertThat(problems(inverted)).extracting(Problem::reason).containsExactly(Reasons.INVALID_RING_HASH);
    assertThat(problems(inverted).get(0).message()).contains("defaults to 1024");
    assertThat(cluster(inverted)).isEmpty();
    assertThat(problems(lower(upstream("ringHash: {minimumRingSize: 10}"))))
        .extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.ringHash", Reasons.INVALID_RING_HASH));
  }

  @Test
  void alpnProtocolsReachTheClusterTls() {
    IrBuilder.Result result = lower(upstream("""
        http2: true
        tls: {sni: backend.example, verify: NONE, alpnProtocols: [istio, h2]}
        """));

    // Only the gRPC clients' warning (web.example is a gRPC domain): the protocols are fine.
    assertThat(problems(result)).extracting(Problem::reason).containsExactly(Reasons.GRPC_INCOMPATIBLE);
    assertThat(cluster(result).orElseThrow().tls().orElseThrow().alpnProtocols()).containsExactly("istio", "h2");
  }

  @Test
  void emptyOrSpacedOrTooManyAlpnProtocolsAreRejected() {
    assertThat(problems(lower(upstream("tls: {sni: backend.example, verify: NONE, alpnProtocols: ['', 'h 2']}"))))
        .extracting(Problem::field, Problem::reason).containsExactly(
            tuple("spec.tls.alpnProtocols[0]", Reasons.INVALID_UPSTREAM_TLS),
            tuple("spec.tls.alpnProtocols[1]", Reasons.INVALID_UPSTREAM_TLS));
    assertThat(problems(lower(upstream("tls: {sni: backend.example, verify: NONE, alpnProtocols: [a, b, c, d, e,"
        + " f, g, h, i]}")))).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.tls.alpnProtocols", Reasons.INVALID_UPSTREAM_TLS));
  }
}
