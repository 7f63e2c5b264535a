package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Cidr;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import java.net.InetAddress;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The pieces of the tenancy rules: CIDR math, what counts as an address, and how ReferenceGrants are read. */
class TenancyRulesTest {

  @Test
  void cidrsContainTheirOwnFamilyOnly() {
    Cidr linkLocal = Cidr.parse("169.254.0.0/16");
    assertThat(linkLocal.contains(addr("169.254.169.254"))).isTrue();
    assertThat(linkLocal.contains(addr("169.255.0.1"))).isFalse();
    assertThat(linkLocal.contains(addr("::ffff:169.254.169.254"))).as("IPv4-mapped").isTrue();
    assertThat(Cidr.parse("fe80::/10").contains(addr("febf::1"))).isTrue();
    assertThat(Cidr.parse("fe80::/10").contains(addr("fec0::1"))).isFalse();
    assertThat(Cidr.parse("::/0").contains(addr("192.0.2.1"))).isFalse();
    assertThat(Cidr.parse("192.0.2.7").contains(addr("192.0.2.7"))).isTrue();
    assertThat(Cidr.parse("192.0.2.7/24")).isEqualTo(Cidr.parse("192.0.2.0/24"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "example.com/8", "192.0.2.0/33", "192.0.2.0/-1", "::/129", "192.0.2.0/x"})
  void aMalformedCidrIsRefusedNamingIt(String text) {
    assertThatThrownBy(() -> Cidr.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(
        "'" + text + "'");
  }

  @Test
  void addressesAreReadWithoutResolvingAnything() {
    assertThat(AddressRules.literal("127.0.0.1")).contains(addr("127.0.0.1"));
    assertThat(AddressRules.literal("0x7f000001")).contains(addr("127.0.0.1"));
    assertThat(AddressRules.literal("127.1")).contains(addr("127.0.0.1"));
    assertThat(AddressRules.literal("0251.0376.0251.0376")).contains(addr("169.254.169.254"));
    assertThat(AddressRules.literal("LocalHost.")).contains(addr("127.0.0.1"));
    assertThat(AddressRules.literal("api.localhost")).contains(addr("127.0.0.1"));
    assertThat(AddressRules.literal("echo.example")).isEmpty();
    assertThat(AddressRules.literal("cafe")).as("a name, not hex").isEmpty();
    assertThat(AddressRules.literal("1.2.3.4.5")).isEmpty();
    assertThat(AddressRules.literal("256.1.1.1")).isEmpty();
  }

  @Test
  void malformedReferenceGrantsGrantNothingAndNeverThrow() {
    ResourceKey vs = ResourceKey.virtualService("shop", "web");
    ResourceKey secret = TlsSecretData.secretKey("certs", "tls");
    String good = """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: g, namespace: certs}
        spec:
          from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: shop}]
          to: [{group: "", kind: Secret}]
        """;
    assertThat(Consent.of(AccessPolicy.CrossNamespaceRefs.ALLOW, config(good)).secret(vs, secret)).isEmpty();
    java.util.Map<String, Boolean> grants = new java.util.LinkedHashMap<>();
    grants.put(good.replace("from: [{", "from: {").replace("shop}]", "shop}"), false); // a mapping, not a list
    grants.put(good.replace("kind: Secret}", "kind: [Secret]}"), false);
    grants.put(good.replace("namespace: shop}", "namespace: 7}"), false);
    grants.put(good.replace("namespace: shop}", "namespace: other}"), false);
    grants.put(good.replace("to: [{group: \"\", kind: Secret}]", "to: []"), false);
    grants.put(good.replace("group: \"\", ", ""), true); // an omitted group is the core group
    grants.put(good.replace("kind: Secret}", "kind: Secret, name: tls}"), true);
    grants.put(good.replace("kind: Secret}", "kind: Secret, name: other}"), false);
    grants.forEach((grant, granted) -> assertThat(
        Consent.of(AccessPolicy.CrossNamespaceRefs.ALLOW, config(grant)).secret(vs, secret).isEmpty())
        .as(grant).isEqualTo(granted));
  }

  @Test
  void aPemFileOfTheConfigDirectoryNeedsNoGrant() {
    Consent consent = Consent.of(AccessPolicy.CrossNamespaceRefs.GRANT, config());
    assertThat(consent.secret(ResourceKey.virtualService("shop", "web"), TlsSecretData.fileKey("tls/a.crt")))
        .isEmpty();
    assertThat(consent.reference(ResourceKey.virtualService("shop", "web"), ResourceKey.upstream("shop", "up")))
        .isEmpty();
    assertThat(consent.reference(ResourceKey.virtualService("shop", "web"), ResourceKey.upstream("bank", "up")))
        .hasValueSatisfying(m -> assertThat(m).contains("--cross-namespace-refs=grant"));
  }

  @Test
  void aPortOutsideTheRangeOrReservedIsRefused() {
    var result = new Validator(Clock.systemUTC(), io.holdfast.api.InputLimits.DEFAULTS,
        AccessPolicy.FILE_DEFAULTS.withListenerPorts(2000, 3000, java.util.Set.of(2500)))
        .validate(config(io.holdfast.api.TestManifests.gateway("low", 1999),
            io.holdfast.api.TestManifests.gateway("edge", 2000), io.holdfast.api.TestManifests.gateway("res", 2500)));
    assertThat(result.status(ResourceKey.gateway("default", "low")).problems()).singleElement()
        .satisfies(p -> assertThat(p.message()).contains("outside the allowed listener range 2000-3000"))
        .extracting(io.holdfast.api.Problem::reason).isEqualTo(Reasons.PORT_NOT_PERMITTED);
    assertThat(result.status(ResourceKey.gateway("default", "res")).problems()).extracting(
        io.holdfast.api.Problem::reason).containsExactly(Reasons.PORT_NOT_PERMITTED);
    assertThat(result.status(ResourceKey.gateway("default", "edge")).problems()).extracting(
        io.holdfast.api.Problem::reason).containsExactly(Reasons.NO_VIRTUAL_SERVICES);
  }

  private static InetAddress addr(String literal) {
    return com.google.common.net.InetAddresses.forString(literal);
  }
}
