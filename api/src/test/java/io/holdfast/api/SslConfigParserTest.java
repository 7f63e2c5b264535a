package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SslConfigParserTest {

  private final ModelParser parser = new ModelParser();

  private GatewayResource parsed(String yaml) {
    ParseResult result = parser.parse(tree(yaml));
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    return ((ParseResult.Parsed) result).resource();
  }

  private List<Problem> problems(String yaml) {
    ParseResult result = parser.parse(tree(yaml));
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    return ((ParseResult.Invalid) result).problems();
  }

  private static String vs(String ssl) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: shop}
        spec:
          domains: [a.test]
          routes: [{match: {prefix: /}, directResponse: {status: 200}}]
        """ + ssl.indent(2);
  }

  @Test
  void secretRefWithEveryOption() {
    VirtualService vs = (VirtualService) parsed(vs("""
        sslConfig:
          secretRef: {name: web-tls}
          sniDomains: [a.test, "*.a.test"]
          minTlsVersion: TLSv1_3
          clientCa: {secretRef: {name: clients, namespace: pki}}
        """));
    SslConfig ssl = vs.sslConfig().orElseThrow();
    assertThat(ssl.certificate()).isEqualTo(new SslConfig.CertificateSource.SecretRef(ObjectRef.of("web-tls")));
    assertThat(ssl.sniDomains()).contains(List.of("a.test", "*.a.test"));
    assertThat(ssl.minTlsVersion()).isEqualTo(SslConfig.TlsVersion.TLSv1_3);
    assertThat(ssl.certificateKeys("shop")).containsExactly(ResourceKey.core("Secret", "shop", "web-tls"));
    assertThat(ssl.clientCaKeys("shop")).containsExactly(ResourceKey.core("Secret", "pki", "clients"));
    assertThat(vs.httpsRedirect()).isFalse();
  }

  @Test
  void filesGetDefaultsAndFileKeys() {
    VirtualService vs = (VirtualService) parsed(vs("""
        sslConfig:
          files: {certChain: tls/a.crt, privateKey: tls/a.key}
          clientCa: {file: tls/ca.crt}
        httpsRedirect: true
        """));
    SslConfig ssl = vs.sslConfig().orElseThrow();
    assertThat(ssl.sniDomains()).isEmpty();
    assertThat(ssl.minTlsVersion()).isEqualTo(SslConfig.TlsVersion.TLSv1_2);
    assertThat(ssl.certificateKeys("shop"))
        .containsExactly(TlsSecretData.fileKey("tls/a.crt"), TlsSecretData.fileKey("tls/a.key"));
    assertThat(ssl.clientCaKeys("shop")).containsExactly(TlsSecretData.fileKey("tls/ca.crt"));
    assertThat(vs.httpsRedirect()).isTrue();
  }

  @Test
  void explicitEmptySniDomainsAreKept() {
    VirtualService vs = (VirtualService) parsed(vs("""
        sslConfig:
          secretRef: {name: web-tls}
          sniDomains: []
        """));
    assertThat(vs.sslConfig().orElseThrow().sniDomains()).contains(List.of());
  }

  @Test
  void bothOrNeitherSourceIsAProblemWithItsPath() {
    assertThat(problems(vs("""
        sslConfig:
          secretRef: {name: web-tls}
          files: {certChain: a.crt, privateKey: a.key}
        """))).extracting(Problem::field, Problem::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.sslConfig", Reasons.CONFLICTING_FIELDS));
    assertThat(problems(vs("""
        sslConfig:
          sniDomains: [a.test]
        """))).extracting(Problem::reason).containsExactly(Reasons.MISSING_FIELD);
  }

  @Test
  void badVersionUnknownFieldAndMissingKeyAreReported() {
    assertThat(problems(vs("""
        sslConfig:
          files: {certChain: a.crt}
          minTlsVersion: TLSv1_0
          ciphers: [x]
        """))).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("spec.sslConfig.ciphers", Reasons.UNKNOWN_FIELD),
        org.assertj.core.groups.Tuple.tuple("spec.sslConfig.files.privateKey", Reasons.MISSING_FIELD),
        org.assertj.core.groups.Tuple.tuple("spec.sslConfig.minTlsVersion", Reasons.INVALID_VALUE));
  }

  @Test
  void gatewaySslFlag() {
    Gateway gateway = (Gateway) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: https}
        spec: {port: 8443, ssl: true}
        """);
    assertThat(gateway.ssl()).isTrue();
    assertThat(gateway.withSelection(new VirtualServiceSelection.Named(List.of())).ssl()).isTrue();
    assertThat(problems("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: https}
        spec: {port: 8443, ssl: "yes"}
        """)).extracting(Problem::reason).containsExactly(Reasons.WRONG_TYPE);
  }

  @Test
  void secretDataNeverPrintsItsContent() {
    TlsSecretData data = new TlsSecretData(new TreeMap<>(Map.of("tls.crt", "CERT", "tls.key", "TOPSECRETKEY")));
    assertThat(data.toString()).isEqualTo("TlsSecretData[tls.crt=4 chars, tls.key=12 chars]").doesNotContain("TOP");
    GatewayConfig config = GatewayConfig.builder().secret(TlsSecretData.secretKey("shop", "web"), data).build();
    assertThat(config.toString()).doesNotContain("TOPSECRETKEY");
    assertThat(config.toBuilder().build()).isEqualTo(config);
    assertThat(config.secretOf(TlsSecretData.secretKey("shop", "web"))).contains(data);
    assertThat(config.secretOf(TlsSecretData.fileKey("web"))).isEqualTo(Optional.empty());
  }
}
