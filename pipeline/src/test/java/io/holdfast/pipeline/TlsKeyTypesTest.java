package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Condition;
import io.holdfast.ir.SectionStatus;
import io.holdfast.pki.OpensslPems;
import io.holdfast.pki.TestCertificates;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS material Envoy would refuse (RSA under 2048 bits, keys other than RSA and ECDSA P-256/P-384/P-521, anything
 * but certificates in a chain) gets {@code InvalidCertificate} through the whole verdict path, from
 * {@code kubernetes.io/tls} Secret documents to both front ends: a Holdfast VirtualService's {@code sslConfig} and
 * a Gateway API listener's {@code certificateRefs}. What Envoy serves with is accepted. Keys come from the JDK and
 * BouncyCastle, and from the openssl command.
 */
class TlsKeyTypesTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("pipeline key types CA");
  private static final ResourceKey WEB = ResourceKey.virtualService("default", "web");
  private static final ResourceKey EDGE = new ResourceKey(GatewayApiFrontEnd.GROUP, "Gateway", "default", "edge");
  private static final String ENVOY_LOADS = "Envoy loads only RSA keys of 2048 bits or more and ECDSA keys on"
      + " P-256, P-384 or P-521";

  @TempDir
  Path directory;

  /** The verdicts of both front ends on one certificate and key. */
  private record Verdicts(ResourceStatus virtualService, SectionStatus listener) {

    Condition resolvedRefs() {
      return listener.conditions().stream().filter(c -> c.type().equals("ResolvedRefs")).findFirst().orElseThrow();
    }
  }

  private static String secret(String name, String certificatePem, String keyPem) {
    Base64.Encoder base64 = Base64.getEncoder();
    return """
        apiVersion: v1
        kind: Secret
        metadata: {name: %s, namespace: default}
        type: kubernetes.io/tls
        data:
          tls.crt: %s
          tls.key: %s
        """.formatted(name, base64.encodeToString(certificatePem.getBytes(StandardCharsets.US_ASCII)),
        base64.encodeToString(keyPem.getBytes(StandardCharsets.US_ASCII)));
  }

  private static Verdicts check(String certificatePem, String keyPem) {
    return check(certificatePem, keyPem, "");
  }

  /** @param clientCa the text of the VirtualService's client CA bundle (Secret clients, ca.crt); none if empty */
  private static Verdicts check(String certificatePem, String keyPem, String clientCa) {
    String documents = String.join("---\n", List.of(
        """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
        """,
        """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: https}
        spec: {port: 8443, ssl: true}
        """,
        """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [a.test]
          sslConfig: {secretRef: {name: web-tls}%s}
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """.formatted(clientCa.isEmpty() ? "" : ", clientCa: {secretRef: {name: clients}}"),
        """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: holdfast}
        spec: {controllerName: %s}
        """.formatted(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME),
        """
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: edge, namespace: default}
        spec:
          gatewayClassName: holdfast
          listeners:                     # the http listener keeps the Gateway accepted when https is refused
          - name: http
            port: 9080
            protocol: HTTP
          - name: https
            port: 9443
            protocol: HTTPS
            hostname: a.test
            tls: {certificateRefs: [{name: edge-tls}]}
        """,
        secret("web-tls", certificatePem, keyPem),
        secret("edge-tls", certificatePem, keyPem)));
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("tls.yaml", documents)),
        Map.of());
    assertThat(loaded.errors()).isEmpty();
    GatewayConfig config = loaded.config();
    assertThat(config.secrets()).hasSize(2);
    if (!clientCa.isEmpty()) {
      config = config.toBuilder().secret(TlsSecretData.secretKey("default", "clients"),
          new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.CA_CRT, clientCa)))).build();
    }
    ConfigCheck.Result result = new ConfigCheck().run(config);
    SectionStatus listener = result.objectStatus(EDGE).orElseThrow().sections().stream()
        .filter(s -> s.name().equals("https")).findFirst().orElseThrow();
    return new Verdicts(result.statuses().get(WEB), listener);
  }

  private static Verdicts check(KeyPair keys) {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "a.test", keys, Instant.now().minusSeconds(60),
        TestCertificates.LIFETIME, "a.test");
    return check(leaf.certificatePem() + CA.certificatePem(), leaf.privateKeyPem());
  }

  private static void assertServed(Verdicts verdicts, String what) {
    assertThat(verdicts.virtualService().isServed()).as(what + ": " + verdicts.virtualService()).isTrue();
    assertThat(verdicts.virtualService().problems()).as(what).isEmpty();
    assertThat(verdicts.resolvedRefs().status()).as(what + ": " + verdicts.listener()).isEqualTo(
        Condition.Status.TRUE);
  }

  /** Both front ends refuse, naming the entry and {@code problem}, with InvalidCertificate / InvalidCertificateRef. */
  private static void assertRefused(Verdicts verdicts, String problem) {
    assertThat(verdicts.virtualService().isServed()).as(problem).isFalse();
    assertThat(verdicts.virtualService().problems()).as(problem).anySatisfy(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.INVALID_CERTIFICATE);
      assertThat(p.field()).isEqualTo("spec.sslConfig.secretRef");
      assertThat(p.message()).startsWith("Secret default/web-tls entry tls.").contains(problem);
    });
    Condition resolved = verdicts.resolvedRefs();
    assertThat(resolved.status()).as(problem).isEqualTo(Condition.Status.FALSE);
    assertThat(resolved.reason()).isEqualTo("InvalidCertificateRef");
    assertThat(resolved.message()).contains("Secret default/edge-tls").contains(problem);
  }

  @Test
  void keysEnvoyServesWithAreAcceptedByBothFrontEnds() {
    assertServed(check(TestCertificates.rsa(2048)), "RSA 2048");
    assertServed(check(TestCertificates.ec("secp256r1")), "P-256");
    assertServed(check(TestCertificates.ec("secp384r1")), "P-384");
    assertServed(check(TestCertificates.ec("secp521r1")), "P-521");
  }

  @Test
  void keysEnvoyRefusesAreInvalidCertificatesInBothFrontEnds() {
    assertRefused(check(TestCertificates.rsa(1024)), "an RSA key of 1024 bits; " + ENVOY_LOADS);
    assertRefused(check(TestCertificates.ec("secp256k1")), "an ECDSA key on curve secp256k1; " + ENVOY_LOADS);
    assertRefused(check(TestCertificates.ed25519()), "an Ed25519 key; " + ENVOY_LOADS);
  }

  /** The leaf is checked as well as the key: a chain whose leaf has a refused key is refused for the chain. */
  @Test
  void theLeafKeyTypeIsCheckedOnItsOwn() {
    TestCertificates.Issued weak = TestCertificates.leaf(CA, "a.test", TestCertificates.rsa(1024),
        Instant.now().minusSeconds(60), TestCertificates.LIFETIME, "a.test");
    TestCertificates.Issued good = TestCertificates.leaf(CA, "a.test", "a.test");
    Verdicts verdicts = check(weak.certificatePem(), good.privateKeyPem());
    assertRefused(verdicts, "certificate 1 (the leaf) has an RSA key of 1024 bits");
  }

  /**
   * A private key in the file named as the chain would be served in certificate_chain: refused, and no
   * status quotes it.
   */
  @Test
  void aPrivateKeyInsideTheChainIsRefusedWithoutEchoingIt() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "a.test", "a.test");
    String key = leaf.privateKeyPem();
    Verdicts verdicts = check(leaf.certificatePem() + key, key);
    assertRefused(verdicts, "block 2 is a PRIVATE KEY block: a certificate chain or CA bundle may hold only"
        + " CERTIFICATE blocks");
    String body = key.substring(key.indexOf('\n') + 1, key.indexOf('\n') + 40);
    assertThat(verdicts.virtualService().problems()).extracting(Problem::message)
        .allSatisfy(m -> assertThat(m).doesNotContain(body));
    assertThat(verdicts.resolvedRefs().message()).doesNotContain(body);
  }

  /** A client CA bundle goes to Envoy as it is too: a key in it is refused the same way. */
  @Test
  void aPrivateKeyInsideAClientCaBundleIsRefused() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "a.test", "a.test");
    String chain = leaf.certificatePem() + CA.certificatePem();
    assertThat(check(chain, leaf.privateKeyPem(), CA.certificatePem()).virtualService().isServed()).isTrue();

    ResourceStatus refused = check(chain, leaf.privateKeyPem(), CA.certificatePem() + leaf.privateKeyPem())
        .virtualService();
    assertThat(refused.isServed()).isFalse();
    assertThat(refused.problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.INVALID_CERTIFICATE);
      assertThat(p.field()).isEqualTo("spec.sslConfig.clientCa");
      assertThat(p.message()).isEqualTo("Secret default/clients entry ca.crt: block 2 is a PRIVATE KEY block: a"
          + " certificate chain or CA bundle may hold only CERTIFICATE blocks (Envoy would pass the rest on as part"
          + " of the chain)");
    });
  }

  @Test
  void opensslMadeKeysGetTheSameVerdicts() {
    OpensslPems openssl = OpensslPems.in(directory);
    for (OpensslPems.Pair pair : List.of(openssl.rsa(2048), openssl.ec("prime256v1"), openssl.ec("secp384r1"),
        openssl.ec("secp521r1"))) {
      assertServed(check(pair.certificatePem(), pair.keyPem()), pair.name());
    }
    assertRefused(check(openssl.rsa(1024)), "an RSA key of 1024 bits; " + ENVOY_LOADS);
    assertRefused(check(openssl.ec("secp256k1")), "an ECDSA key on curve secp256k1; " + ENVOY_LOADS);
    assertRefused(check(openssl.ed25519()), "an Ed25519 key; " + ENVOY_LOADS);
    OpensslPems.Pair combined = openssl.ec("prime256v1");
    assertRefused(check(combined.certificatePem() + combined.keyPem(), combined.keyPem()),
        "block 2 is an EC PARAMETERS block, block 3 is an EC PRIVATE KEY block");
  }

  private static Verdicts check(OpensslPems.Pair pair) {
    return check(pair.certificatePem(), pair.keyPem());
  }
}
