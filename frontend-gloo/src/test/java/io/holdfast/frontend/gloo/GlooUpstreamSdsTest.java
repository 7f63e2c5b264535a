package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A Gloo Upstream's sslConfig.sds (Istio's agent) read into Holdfast's {@code tls.sds}. */
class GlooUpstreamSdsTest {

  private static GlooReading read(String ssl) {
    return GlooReading.of(GlooFixtures.load("""
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          kube: {serviceName: httpbin, serviceNamespace: httpbin, servicePort: 8000}
          sslConfig:
        """ + ssl.indent(4)));
  }

  private static Upstream upstream(String ssl) {
    GlooReading reading = read(ssl);
    assertThat(reading.rejected()).isEmpty();
    return reading.holdfastConfig().upstreams().get(0);
  }

  @Test
  void istioAgentCertificateAndValidationContextAreFetchedFromTargetUri() {
    UpstreamOptions.Tls tls = upstream("""
        alpnProtocols: [istio]
        sds:
          certificatesSecretName: istio_server_cert
          clusterName: gateway_proxy_sds
          targetUri: 127.0.0.1:8234
          validationContextName: istio_validation_context
        """).options().tls().orElseThrow();
    assertThat(tls.sds()).contains(new UpstreamOptions.Sds("127.0.0.1:8234", Optional.of("istio_server_cert"),
        Optional.of("istio_validation_context")));
    assertThat(tls.effectiveVerify()).isEqualTo(UpstreamOptions.TlsVerify.CA);
    assertThat(tls.clientCertificate()).isEmpty();
    assertThat(tls.trustedCa()).isEmpty();
    assertThat(tls.alpnProtocols()).isEqualTo(List.of("istio"));
  }

  @Test
  void withoutValidationContextTheCertificateIsNotVerifiedAndOneWayTlsDropsTheCertificate() {
    UpstreamOptions.Tls tls = upstream("""
        oneWayTls: true
        sds: {targetUri: 127.0.0.1:8234, certificatesSecretName: cert}
        """).options().tls().orElseThrow();
    assertThat(tls.effectiveVerify()).isEqualTo(UpstreamOptions.TlsVerify.NONE);
    assertThat(tls.sds()).contains(new UpstreamOptions.Sds("127.0.0.1:8234", Optional.empty(), Optional.empty()));
  }

  @Test
  void sdsWithoutTargetUriOrWithCallCredentialsIsNotRead() {
    assertThat(read("sds: {certificatesSecretName: cert}").rejected()).isNotEmpty();
    assertThat(read("sds: {targetUri: 127.0.0.1:8234, certificatesSecretName: cert,"
        + " callCredentials: {fileCredentialSource: {tokenFileName: /t, header: h}}}").rejected()).isNotEmpty();
  }
}
