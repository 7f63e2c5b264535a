package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.testkit.ManualClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The per-node stream gauge: counts streams, stays at 0 for the retention after the last one, is bounded. */
class ProxyPresenceTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ManualClock clock = new ManualClock();
  private final ProxyPresence presence = new ProxyPresence(registry, clock);

  private Double streams(String node) {
    Gauge g = registry.find(ProxyPresence.NAME).tag("node", node).gauge();
    return g == null ? null : g.value();
  }

  @Test
  void aDisconnectedNodeReadsZeroForTheRetentionThenDisappears() {
    presence.opened("envoy-1");
    presence.opened("envoy-1");
    presence.opened("envoy-2");
    assertThat(streams("envoy-1")).isEqualTo(2.0);

    presence.closed("envoy-1");
    presence.closed("envoy-1");
    assertThat(streams("envoy-1")).isZero();

    clock.advance(ProxyPresence.RETENTION.minusSeconds(1));
    presence.closed("unknown"); // any stream event sweeps
    assertThat(streams("envoy-1")).isZero();

    clock.advance(Duration.ofSeconds(1));
    presence.closed("unknown");
    assertThat(streams("envoy-1")).isNull();
    assertThat(streams("envoy-2")).isEqualTo(1.0); // still connected: never expires
  }

  @Test
  void aNodeThatReconnectsWithinTheRetentionIsNotExpired() {
    presence.opened("envoy-1");
    presence.closed("envoy-1");
    clock.advance(Duration.ofMinutes(5));
    presence.opened("envoy-1");
    clock.advance(ProxyPresence.RETENTION);
    presence.opened("other");
    assertThat(streams("envoy-1")).isEqualTo(1.0);
  }

  @Test
  void seriesAreBoundedAndCloseRemovesThemAll() {
    for (int i = 0; i < ProxyPresence.MAX_NODES + 5; i++) {
      presence.opened("node-" + i);
    }
    assertThat(registry.find(ProxyPresence.NAME).gauges()).hasSize(ProxyPresence.MAX_NODES);
    assertThat(streams("node-" + ProxyPresence.MAX_NODES)).isNull();

    presence.close();
    assertThat(registry.find(ProxyPresence.NAME).gauges()).isEmpty();
  }
}
