package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The per-node stream gauge: counts streams, stays at 0 for the retention after the last one, is bounded. */
class ProxyPresenceTest {
  /** A clock the test moves. */
  private static final class MovingClock extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final MovingClock clock = new MovingClock();
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

    clock.now = clock.now.plus(ProxyPresence.RETENTION).minusSeconds(1);
    presence.closed("unknown"); // any stream event sweeps
    assertThat(streams("envoy-1")).isZero();

    clock.now = clock.now.plusSeconds(1);
    presence.closed("unknown");
    assertThat(streams("envoy-1")).isNull();
    assertThat(streams("envoy-2")).isEqualTo(1.0); // still connected: never expires
  }

  @Test
  void aNodeThatReconnectsWithinTheRetentionIsNotExpired() {
    presence.opened("envoy-1");
    presence.closed("envoy-1");
    clock.now = clock.now.plus(Duration.ofMinutes(5));
    presence.opened("envoy-1");
    clock.now = clock.now.plus(ProxyPresence.RETENTION);
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
