package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which proxy name a client certificate authenticates. */
class ProxyIdentityTest {

  private static final TestPki.Issued CA = TestPki.ca("holdfast xDS CA");

  @Test
  void theFirstSpiffeProxyIdWinsAndMayContainSlashes() {
    var certificate = ProxyCertificates.client(CA, "CN=by-cn", "spiffe://holdfast.local/workload/w",
        "spiffe://holdfast.local/proxy/shop/web", "spiffe://holdfast.local/proxy/second").certificate();
    assertThat(ProxyIdentity.of(certificate)).contains("shop/web");
  }

  @Test
  void withoutASpiffeProxyIdTheCommonNameIsTheProxy() {
    assertThat(ProxyIdentity.of(ProxyCertificates.client(CA, "O=acme,CN=gateway-proxy").certificate()))
        .contains("gateway-proxy");
    assertThat(ProxyIdentity.of(ProxyCertificates.client(CA, "CN=gateway-proxy",
        "spiffe://holdfast.local/proxy/").certificate())).contains("gateway-proxy");
  }

  @Test
  void noSpiffeProxyIdAndNoCommonNameIsNoIdentity() {
    assertThat(ProxyIdentity.of(ProxyCertificates.client(CA, "O=acme", "spiffe:///proxy/no-trust-domain")
        .certificate())).isEmpty();
  }

  @Test
  void namesWithControlCharactersOrTooLongAreNotIdentities() {
    assertThat(ProxyIdentity.valid("a\nb")).isFalse();
    assertThat(ProxyIdentity.valid("")).isFalse();
    assertThat(ProxyIdentity.valid("x".repeat(ProxyIdentity.MAX_NAME_LENGTH + 1))).isFalse();
    assertThat(ProxyIdentity.valid("default/my-gateway")).isTrue();
  }
}
