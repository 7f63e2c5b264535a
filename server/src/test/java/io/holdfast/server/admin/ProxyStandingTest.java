package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.NackEvent;
import io.holdfast.xds.server.ProxyStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ProxyStandingTest {
  private static final String LDS = "type.googleapis.com/envoy.config.listener.v3.Listener";
  private static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";

  private static ProxyStatus proxy(String node, Map<String, String> acked, String nackedVersion, String type) {
    return new ProxyStatus(node, 1, new TreeMap<>(acked), Optional.ofNullable(nackedVersion)
        .map(v -> new NackEvent(node, type, v, List.of(), "bad", Instant.EPOCH)));
  }

  @Test
  void onlyANackOfTheCurrentVersionNotAckedSinceCounts() {
    List<ProxyStatus> proxies = List.of(
        proxy("nacks-now", Map.of(CDS, "v2", LDS, "v1"), "v2", LDS),
        proxy("nacked-an-older-version", Map.of(CDS, "v2", LDS, "v2"), "v1", LDS),
        proxy("acked-it-since", Map.of(LDS, "v2"), "v2", LDS),
        proxy("nacks-clusters", Map.of(), "v2", CDS),
        proxy("never-nacked", Map.of(LDS, "v2"), null, LDS));

    ProxyStanding standing = ProxyStanding.of(proxies, Optional.of("v2"));

    assertThat(standing.nacking()).containsExactly("nacks-now", "nacks-clusters");
    assertThat(standing.nackingByType()).isEqualTo(Map.of("Listener", 1, "Cluster", 1));
    assertThat(ProxyStanding.of(proxies, Optional.empty()).nacking()).as("nothing served, nothing rejected")
        .isEmpty();
  }
}
