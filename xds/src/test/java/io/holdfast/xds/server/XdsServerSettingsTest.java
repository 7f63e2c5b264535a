package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class XdsServerSettingsTest {

  @Test
  void rejectsOutOfRangeValuesNamingTheSetting() {
    assertThatThrownBy(() -> XdsServerSettings.on("127.0.0.1", 65536))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
    assertThatThrownBy(() -> XdsServerSettings.on("127.0.0.1", -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port");
    assertThatThrownBy(() -> XdsServerSettings.on("127.0.0.1", 0).withDrainTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("drainTimeout");
  }

  @Test
  void defaults() {
    var settings = XdsServerSettings.allInterfaces(18000);
    assertThat(settings.bindHost()).isEmpty();
    assertThat(settings.drainTimeout()).isEqualTo(XdsServerSettings.DEFAULT_DRAIN);
  }

  @Test
  void portIsBoundAndReported() {
    var cache = new XdsCache();
    try (XdsServer server = XdsServer.builder(cache, XdsServerSettings.on("127.0.0.1", 0),
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry()).start()) {
      assertThat(server.port()).isPositive();
      assertThat(cache.currentSnapshot()).isEmpty();
    }
  }
}
