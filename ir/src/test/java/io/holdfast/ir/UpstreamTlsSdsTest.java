package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The invariants of {@link UpstreamTls} with an SDS agent. */
class UpstreamTlsSdsTest {

  private static final UpstreamTls.Sds AGENT =
      new UpstreamTls.Sds("127.0.0.1", 8234, Optional.of("cert"), Optional.of("ca"));

  @Test
  void theAgentsValidationContextIsTheTrustedCa() {
    UpstreamTls tls = new UpstreamTls(Optional.empty(), UpstreamTls.Verify.TRUSTED_CA, Optional.empty(),
        Optional.empty(), List.of(), List.of(), Optional.of(AGENT));
    assertThat(tls.sds()).contains(AGENT);
    assertThatThrownBy(() -> new UpstreamTls(Optional.empty(), UpstreamTls.Verify.NONE, Optional.empty(),
        Optional.empty(), List.of(), List.of(), Optional.of(AGENT))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void agentSecretsDoNotMixWithTheClustersOwn() {
    assertThatThrownBy(() -> new UpstreamTls(Optional.empty(), UpstreamTls.Verify.TRUSTED_CA, Optional.of("ca/x"),
        Optional.empty(), List.of(), List.of(), Optional.of(AGENT))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new UpstreamTls(Optional.empty(), UpstreamTls.Verify.TRUSTED_CA, Optional.empty(),
        Optional.of("secret/x"), List.of(), List.of(), Optional.of(AGENT)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anAgentServesASecretOnAPortInRange() {
    assertThatThrownBy(() -> new UpstreamTls.Sds("127.0.0.1", 0, Optional.of("c"), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new UpstreamTls.Sds("127.0.0.1", 8234, Optional.empty(), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class);
    UpstreamTls copy = new UpstreamTls(Optional.of("a.example"), UpstreamTls.Verify.NONE).withSds(
        Optional.of(new UpstreamTls.Sds("::1", 1, Optional.of("c"), Optional.empty())))
        .withAlpnProtocols(List.of("h2"));
    assertThat(copy.sds()).isPresent();
    assertThat(copy.alpnProtocols()).containsExactly("h2");
  }
}
