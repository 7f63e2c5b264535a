package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class XdsLimitsTest {

  @Test
  void defaultsAreTheDocumentedOnes() {
    XdsLimits d = XdsServerSettings.on("127.0.0.1", 0).limits();
    assertThat(d.maxStreamsPerConnection()).isEqualTo(100);
    assertThat(d.maxInboundMessageBytes()).isEqualTo(4 * 1024 * 1024);
    assertThat(d.maxNodeIdLength()).isEqualTo(1024);
    assertThat(d.maxNamesPerStream()).isEqualTo(100_000);
    assertThat(d.maxConnectionAge()).isEqualTo(Duration.ofHours(1));
    assertThat(d.maxConnectionAgeGrace()).isEqualTo(Duration.ofMinutes(1));
    assertThat(d.maxResetsPerWindow()).isEqualTo(200);
    assertThat(d.resetWindow()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void invalidValuesAreRefusedNamingTheSetting() {
    assertThatThrownBy(() -> XdsLimits.DEFAULTS.withMaxNamesPerStream(0))
        .hasMessageContaining("maxNamesPerStream must be >= 1");
    assertThatThrownBy(() -> XdsLimits.DEFAULTS.withMaxConnectionAge(Duration.ofMinutes(-1), Duration.ofMinutes(1)))
        .hasMessageContaining("maxConnectionAge");
    assertThatThrownBy(() -> XdsLimits.DEFAULTS.withMaxResets(10, Duration.ofMillis(1500)))
        .hasMessageContaining("resetWindow must be whole seconds");
    assertThat(XdsLimits.DEFAULTS.withMaxConnectionAge(Duration.ZERO, Duration.ofSeconds(1)).maxConnectionAge())
        .isZero();
  }

  @Test
  void clientTextLosesControlCharactersAndIsCappedWithoutSplittingACharacter() {
    assertThat(ClientText.sanitise("a\nb\tc\u0085d\u2029e", 100)).isEqualTo("a b c d e");
    assertThat(ClientText.sanitise("abcdef", 3)).isEqualTo("abc...(6 chars)");
    assertThat(ClientText.sanitise("ab\uD83D\uDE00z", 3)).isEqualTo("ab...(5 chars)");
    assertThat(ClientText.hasControl("envoy-1.ns")).isFalse();
    assertThat(ClientText.hasControl("envoy\r")).isTrue();
  }
}
