package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServeSettingsTest {
  @TempDir
  Path tmp;

  private ServeSettings withXdsAddress(String address) {
    return new ServeSettings(tmp, address, 18000, "127.0.0.1", 9091, Optional.empty(), LogFormat.TEXT);
  }

  @ParameterizedTest
  @ValueSource(strings = {"127.0.0.1", "0.0.0.0", "::", "::1", "[::1]", "fe80::1", "localhost",
    "holdfast.holdfast-system.svc", "a-b.c1", "127.255.255.254"})
  void acceptsLiteralsAndHostNames(String address) {
    assertThat(withXdsAddress(address).xdsAddress()).isEqualTo(address);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "256.0.0.1", "10.1", "1.2.3.4.5", "-host", "host-", "a..b", "a_b",
    "[localhost]", "1:2:3:4:5:6:7:8:9", "::1]", "http://x"})
  void rejectsMalformedAddresses(String address) {
    assertThatIllegalArgumentException().isThrownBy(() -> withXdsAddress(address))
        .withMessageStartingWith("--xds-address must be an IP address or host name");
  }

  @Test
  void socketAddressesStripIpv6Brackets() {
    ServeSettings settings =
        new ServeSettings(tmp, "[::1]", 0, "127.0.0.1", 0, Optional.empty(), LogFormat.JSON);

    InetSocketAddress xds = settings.xdsSocketAddress();
    assertThat(xds.getAddress().isLoopbackAddress()).isTrue();
    assertThat(xds.getPort()).isZero();
    assertThat(settings.adminSocketAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
  }

  @Test
  void bothPortsZeroIsAllowed() {
    ServeSettings settings = new ServeSettings(tmp, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT);
    assertThat(settings.xdsPort()).isEqualTo(settings.adminPort());
  }

  @Test
  void logFormatParsesCaseInsensitively() {
    assertThat(LogFormat.parse(" Json ")).isEqualTo(LogFormat.JSON);
    assertThat(LogFormat.TEXT.flagValue()).isEqualTo("text");
    assertThatIllegalArgumentException().isThrownBy(() -> LogFormat.parse(null))
        .withMessage("expected text or json, got 'null'");
  }
}
