package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Secret;
import io.holdfast.ir.UpstreamTls;
import io.holdfast.pki.TestCertificates;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Upstream TLS with a trusted CA and a client certificate: validation of the settings and the material (the
 * listeners' reasons), lowering to secrets shared with listeners, and the last good material kept.
 */
class UpstreamTlsFrontEndTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("upstream test CA");
  private static final TestCertificates.Issued CLIENT = TestCertificates.leaf(CA, "proxy", "proxy.test");
  private static final TestCertificates.Issued OTHER = TestCertificates.leaf(CA, "other", "other.test");
  private static final ResourceKey BACKEND = ResourceKey.upstream("default", "backend");
  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");

  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC));

  static String upstream(String name, String tls) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: %s}
        spec:
          static:
            hosts: [{address: backend.test, port: 8443}]
          dns: {resolution: LOGICAL}
        """.formatted(name) + ("tls: " + tls).indent(2);
  }

  private static final String WEB = TestManifests.virtualService("web", "web.test", "backend");

  private static TlsSecretData ca(String pem) {
    return new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.CA_CRT, pem)));
  }

  private static TlsSecretData tls(TestCertificates.Issued leaf, String keyPem) {
    return new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.TLS_CRT, leaf.certificatePem() + CA.certificatePem(),
        TlsSecretData.TLS_KEY, keyPem)));
  }

  private static GatewayConfig withSecrets(GatewayConfig config, Map<String, TlsSecretData> secrets) {
    GatewayConfig.Builder b = config.toBuilder();
    secrets.forEach((name, data) -> b.secret(TlsSecretData.secretKey("default", name), data));
    return b.build();
  }

  private IrBuilder.Result lower(GatewayConfig config) {
    IrBuilder builder = new IrBuilder();
    frontEnd.lower(config, builder);
    return builder.build();
  }

  private static ResourceStatus status(IrBuilder.Result result, ResourceKey key) {
    return ResourceStatus.of(result.statuses().get(key));
  }

  private static Cluster cluster(IrBuilder.Result result, ResourceKey key) {
    return result.ir().clusters().stream().filter(c -> c.origin().object().equals(key)).findFirst().orElseThrow();
  }

  private static GatewayConfig mutualTls() {
    return withSecrets(TestManifests.config(
        upstream("backend", "{trustedCa: {secretRef: {name: backend-ca}}, clientCertificate: {secretRef:"
            + " {name: proxy-client}}}"),
        WEB,
        // A listener naming the same Secrets: they become one SDS secret each, not two.
        TlsFrontEndTest.vs("https-web", "secure.test", "sslConfig: {secretRef: {name: proxy-client}, clientCa:"
            + " {secretRef: {name: backend-ca}}}", "2026-01-01T00:00:00Z"),
        TlsFrontEndTest.HTTPS_GATEWAY, TestManifests.upstream("up", 9101)),
        Map.of("backend-ca", ca(CA.certificatePem()), "proxy-client", tls(CLIENT, CLIENT.privateKeyPem())));
  }

  @Test
  void aTrustedCaAndAClientCertificateLowerToSecretsSharedWithListeners() {
    IrBuilder.Result result = lower(mutualTls());

    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isAccepted()).isTrue());
    assertThat(cluster(result, BACKEND).tls()).contains(new UpstreamTls(Optional.of("backend.test"),
        UpstreamTls.Verify.TRUSTED_CA, Optional.of("ca/secret/default/backend-ca"),
        Optional.of("secret/default/proxy-client")));
    assertThat(result.ir().secrets()).extracting(Secret::name)
        .containsExactly("ca/secret/default/backend-ca", "secret/default/proxy-client");
    assertThat(result.ir().secrets()).extracting(Secret::content).containsExactly(
        new Secret.Content.TrustedCa(CA.certificatePem()),
        new Secret.Content.CertificateAndKey(CLIENT.certificatePem() + CA.certificatePem(),
            CLIENT.privateKeyPem()));
  }

  @Test
  void pemFilesAreNamedAsForListeners() {
    GatewayConfig config = TestManifests.config(upstream("backend", "{trustedCa: {file: tls/ca.crt},"
        + " clientCertificate: {files: {certChain: tls/proxy.crt, privateKey: tls/proxy.key}}}"), WEB).toBuilder()
        .secret(TlsSecretData.fileKey("tls/ca.crt"), TlsSecretData.file(CA.certificatePem()))
        .secret(TlsSecretData.fileKey("tls/proxy.crt"), TlsSecretData.file(CLIENT.certificatePem()))
        .secret(TlsSecretData.fileKey("tls/proxy.key"), TlsSecretData.file(CLIENT.privateKeyPem()))
        .build();
    IrBuilder.Result result = lower(config);

    // Only the gRPC clients' warning (web.test is a gRPC domain): the material is fine.
    assertThat(status(result, BACKEND).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.GRPC_INCOMPATIBLE);
    assertThat(cluster(result, BACKEND).tls().orElseThrow().trustedCa()).contains("ca/file/tls/ca.crt");
    assertThat(cluster(result, BACKEND).tls().orElseThrow().clientCertificate()).contains("file/tls/proxy.crt");
    assertThat(result.ir().secrets()).extracting(Secret::name)
        .containsExactly("ca/file/tls/ca.crt", "file/tls/proxy.crt");
  }

  @Test
  void missingGarbledAndMismatchedMaterialRejectsTheUpstreamWithTheListenersReasons() {
    IrBuilder.Result result = lower(withSecrets(TestManifests.config(
        upstream("missing", "{trustedCa: {secretRef: {name: nowhere}}}"),
        upstream("garbled", "{trustedCa: {secretRef: {name: garbage}}}"),
        upstream("mismatch", "{verify: NONE, clientCertificate: {secretRef: {name: mismatched}}}"),
        upstream("backend", "{trustedCa: {secretRef: {name: backend-ca}}}"),
        TestManifests.virtualService("to-missing", "missing.test", "missing"), WEB),
        Map.of("garbage", ca("not a certificate"), "backend-ca", ca(CA.certificatePem()),
            "mismatched", tls(CLIENT, OTHER.privateKeyPem()))));

    assertThat(status(result, ResourceKey.upstream("default", "missing")).problems())
        .extracting(Problem::field, Problem::reason, Problem::message)
        .containsExactly(tuple("spec.tls.trustedCa", Reasons.SECRET_NOT_FOUND,
            "Secret default/nowhere does not exist"));
    assertThat(status(result, ResourceKey.upstream("default", "garbled")).problems()).singleElement()
        .satisfies(p -> {
          assertThat(p.reason()).isEqualTo(Reasons.INVALID_CERTIFICATE);
          assertThat(p.message()).startsWith("Secret default/garbage entry ca.crt: not PEM");
        });
    assertThat(status(result, ResourceKey.upstream("default", "mismatch")).problems()).singleElement()
        .satisfies(p -> {
          assertThat(p.field()).isEqualTo("spec.tls.clientCertificate.secretRef");
          assertThat(p.reason()).isEqualTo(Reasons.KEY_MISMATCH);
        });
    assertThat(status(result, ResourceKey.virtualService("default", "to-missing")).problems())
        .extracting(Problem::reason).contains(Reasons.UPSTREAM_REJECTED);
    // The rest is still served, and only its material is in the IR.
    assertThat(status(result, VS).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(result.ir().clusters()).extracting(c -> c.origin().object()).containsExactly(BACKEND);
    assertThat(result.ir().secrets()).extracting(Secret::name).containsExactly("ca/secret/default/backend-ca");
    assertThat(result.statuses().toString()).doesNotContain(TlsFrontEndTest.keyBody(OTHER));
  }

  @Test
  void verifyMustAgreeWithTrustedCa() {
    IrBuilder.Result result = lower(withSecrets(TestManifests.config(
        upstream("system", "{verify: SYSTEM, trustedCa: {secretRef: {name: backend-ca}}}"),
        upstream("ca-without", "{verify: CA}")), Map.of("backend-ca", ca(CA.certificatePem()))));

    assertThat(status(result, ResourceKey.upstream("default", "system")).problems())
        .extracting(Problem::field, Problem::reason).containsExactly(
            tuple("spec.tls.verify", Reasons.INVALID_UPSTREAM_TLS));
    assertThat(status(result, ResourceKey.upstream("default", "ca-without")).problems())
        .extracting(Problem::message).containsExactly(
            "verify: CA checks the backends' certificates against spec.tls.trustedCa, which is not given");
  }

  @Test
  void aCaGoneBadKeepsTheLastGoodCaServedForTheUpstreamThatHadIt() {
    GatewayConfig good = mutualTls();
    lower(good);

    GatewayConfig.Builder broken = good.toBuilder();
    broken.secret(TlsSecretData.secretKey("default", "backend-ca"), ca("garbage"));
    // A new upstream naming the same bad Secret was never accepted with the old CA: it stays rejected.
    GatewayConfig withLate = withSecrets(TestManifests.config(
        upstream("late", "{trustedCa: {secretRef: {name: backend-ca}}}"),
        TestManifests.virtualService("to-late", "late.test", "late")), Map.of());
    withLate.upstreams().forEach(broken::add);
    withLate.virtualServices().forEach(broken::add);
    IrBuilder.Result result = lower(broken.build());

    assertThat(status(result, BACKEND).state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status(result, BACKEND).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.INVALID_CERTIFICATE, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(cluster(result, BACKEND).tls().orElseThrow().trustedCa()).contains("ca/secret/default/backend-ca");
    assertThat(result.ir().secrets()).filteredOn(s -> s.name().equals("ca/secret/default/backend-ca"))
        .extracting(Secret::content).containsExactly(new Secret.Content.TrustedCa(CA.certificatePem()));
    // What routes to it falls back along with it, so it is still served.
    assertThat(status(result, VS).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.UPSTREAM_REJECTED, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(result.ir().clusters()).extracting(c -> c.origin().object()).contains(BACKEND);

    ResourceKey late = ResourceKey.upstream("default", "late");
    assertThat(status(result, late).state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status(result, late).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.INVALID_CERTIFICATE);
    assertThat(status(result, ResourceKey.virtualService("default", "to-late")).problems())
        .extracting(Problem::reason).contains(Reasons.UPSTREAM_REJECTED);
    assertThat(result.ir().clusters()).extracting(c -> c.origin().object()).doesNotContain(late);
  }
}
