package io.holdfast.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ProxyIdentityTest {

  @Test
  void theSpiffeIdIsTrustDomainThenProxyThenName() {
    assertThat(ProxyIdentity.of("gateway-proxy").spiffeId())
        .hasToString("spiffe://holdfast.local/proxy/gateway-proxy");
    assertThat(new ProxyIdentity("prod.example", "ns/gw").spiffeId()).hasToString("spiffe://prod.example/proxy/ns/gw");
  }

  @Test
  void aNameOf253CharactersIsTheLongestAccepted() {
    assertThat(ProxyIdentity.of("a".repeat(253)).proxyName()).hasSize(253);
    assertThatThrownBy(() -> ProxyIdentity.of("a".repeat(254))).hasMessage(
        "proxy name is 254 characters long, over 253");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a b", "a\nb", "/a", "a/", "a//b", "a/../b", "./a", "a%2Fb", "a?b", "é"})
  void namesThatAreNotSpiffePathsAreRefused(String name) {
    assertThatThrownBy(() -> ProxyIdentity.of(name)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("proxy name ").hasMessageNotContaining("\n");
  }

  @Test
  void aControlCharacterIsNamedAndNotEchoed() {
    assertThatThrownBy(() -> ProxyIdentity.of("a\nforged")).hasMessage("proxy name 'a?forged' has a control character");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Holdfast.local", "a/b", "a:1", "x y"})
  void badTrustDomainsAreRefused(String domain) {
    assertThatThrownBy(() -> new ProxyIdentity(domain, "p")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("trust domain ");
  }
}
