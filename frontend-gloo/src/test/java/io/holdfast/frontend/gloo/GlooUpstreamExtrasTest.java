package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.LoadBalancing;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A Gloo Upstream's ringHashConfig and sslConfig.alpnProtocols read into Holdfast's Upstream. */
class GlooUpstreamExtrasTest {

  private static Upstream upstream(String spec) {
    GlooReading reading = GlooReading.of(GlooFixtures.load("""
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 198.51.100.7, port: 8443}]}
        """ + spec.indent(2)));
    assertThat(reading.rejected()).isEmpty();
    return reading.holdfastConfig().upstreams().get(0);
  }

  @Test
  void ringHashConfigSizesTheRingAsGlooWritesIt() {
    // Gloo's protobuf JSON writes the uint64 sizes as strings.
    Upstream upstream = upstream("""
        loadBalancerConfig:
          ringHash:
            ringHashConfig: {maximumRingSize: "200", minimumRingSize: "10"}
        """);
    assertThat(upstream.loadBalancing()).isEqualTo(LoadBalancing.RING_HASH);
    assertThat(upstream.options().ringHash())
        .contains(new UpstreamOptions.RingHash(Optional.of(10L), Optional.of(200L)));
    assertThat(upstream("loadBalancerConfig: {ringHash: {}}").options().ringHash()).isEmpty();
  }

  @Test
  void sslConfigAlpnProtocolsAreOffered() {
    Upstream upstream = upstream("sslConfig: {sni: app.example, alpnProtocols: [istio, h2]}");
    assertThat(upstream.options().tls().orElseThrow().alpnProtocols()).containsExactly("istio", "h2");
  }
}
