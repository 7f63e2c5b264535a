package io.holdfast.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;

/**
 * What {@link CertificateIssuer} makes is accepted by the JDK's PKIX trust manager for the purpose it was made for
 * and nothing else, reads back with {@link Pem}, and carries the names of the contract. OpenSSL's view of the same
 * certificates: {@link OpensslIssuedCertificatesTest}.
 */
class CertificateIssuerTest {
  private static final Instant NOW = Instant.now().minusSeconds(60);
  private static final Duration DAY = Duration.ofDays(1);

  private final IssuedCertificate ca = CertificateIssuer.newCa("Holdfast xDS CA", NOW, Duration.ofDays(3650));
  private final CertificateIssuer issuer = CertificateIssuer.signingWith(ca);

  private static X509TrustManager trusting(X509Certificate... roots) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    for (int i = 0; i < roots.length; i++) {
      store.setCertificateEntry("ca" + i, roots[i]);
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
    factory.init(store);
    return (X509TrustManager) factory.getTrustManagers()[0];
  }

  @Test
  void theCaIsAnEcP256RootThatMaySignOnlyLeaves() {
    X509Certificate root = ca.certificate();
    assertThat(root.getBasicConstraints()).isZero();
    assertThat(root.getSubjectX500Principal()).isEqualTo(root.getIssuerX500Principal());
    assertThat(root.getPublicKey().getAlgorithm()).isEqualTo("EC");
    assertThat(root.getNotAfter().toInstant()).isEqualTo(NOW.plus(Duration.ofDays(3650)).truncatedTo(
        java.time.temporal.ChronoUnit.SECONDS));
    assertThat(KeyTypes.problem(org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(
        root.getPublicKey().getEncoded()))).isEmpty();
  }

  @Test
  void theServerCertificateIsTrustedForServerAuthOnly() throws Exception {
    IssuedCertificate server = issuer.server("holdfast-xds", List.of("holdfast-xds.holdfast-system.svc"),
        List.of(InetAddress.getByName("127.0.0.1")), NOW, DAY);
    X509TrustManager trust = trusting(ca.certificate());
    X509Certificate[] chain = {server.certificate()};

    trust.checkServerTrusted(chain, "ECDHE_ECDSA");
    assertThatThrownBy(() -> trust.checkClientTrusted(chain, "EC")).isInstanceOf(CertificateException.class);
    assertThat(server.certificate().getSubjectAlternativeNames()).containsExactlyInAnyOrder(
        List.of(2, "holdfast-xds.holdfast-system.svc"), List.of(7, "127.0.0.1"));
    assertThat(server.certificate().getBasicConstraints()).isEqualTo(-1);
  }

  @Test
  void aProxyCertificateCarriesItsSpiffeIdAndNameAndIsTrustedForClientAuthOnly() throws Exception {
    IssuedCertificate proxy = issuer.proxy(new ProxyIdentity("example.org", "team-a/edge"), NOW, DAY);
    X509TrustManager trust = trusting(ca.certificate());
    X509Certificate[] chain = {proxy.certificate()};

    trust.checkClientTrusted(chain, "EC");
    assertThatThrownBy(() -> trust.checkServerTrusted(chain, "ECDHE_ECDSA"))
        .isInstanceOf(CertificateException.class);
    assertThat(proxy.certificate().getSubjectAlternativeNames())
        .containsExactly(List.of(6, "spiffe://example.org/proxy/team-a/edge"));
    assertThat(proxy.certificate().getSubjectX500Principal().getName()).isEqualTo("CN=team-a/edge");
  }

  @Test
  void aNameLongerThanACommonNameLeavesTheSubjectEmptyRatherThanCutIt() throws Exception {
    String name = "n".repeat(65);
    X509Certificate proxy = issuer.proxy(ProxyIdentity.of(name), NOW, DAY).certificate();

    assertThat(proxy.getSubjectX500Principal().getName()).isEmpty();
    assertThat(proxy.getCriticalExtensionOIDs()).contains("2.5.29.17");
    assertThat(proxy.getSubjectAlternativeNames()).containsExactly(List.of(6, "spiffe://holdfast.local/proxy/" + name));
    trusting(ca.certificate()).checkClientTrusted(new X509Certificate[] {proxy}, "EC");
    assertThat(issuer.proxy(ProxyIdentity.of("n".repeat(64)), NOW, DAY).certificate().getSubjectX500Principal()
        .getName()).isEqualTo("CN=" + "n".repeat(64));
  }

  @Test
  void aCertificateFromAnotherCaIsNotTrusted() throws Exception {
    CertificateIssuer other = CertificateIssuer.signingWith(CertificateIssuer.newCa("Holdfast xDS CA", NOW, DAY));
    X509Certificate[] chain = {other.proxy(ProxyIdentity.of("gateway-proxy"), NOW, DAY).certificate()};

    assertThatThrownBy(() -> trusting(ca.certificate()).checkClientTrusted(chain, "EC"))
        .isInstanceOf(CertificateException.class);
  }

  @Test
  void anExpiredCertificateIsNotTrusted() throws Exception {
    X509Certificate[] chain = {issuer.proxy(ProxyIdentity.of("gateway-proxy"), NOW.minus(Duration.ofDays(3)), DAY)
        .certificate()};

    assertThatThrownBy(() -> trusting(ca.certificate()).checkClientTrusted(chain, "EC"))
        .isInstanceOf(CertificateException.class);
  }

  @Test
  void pemOutputReadsBackWithPemAsAMatchingPkcs8Key() {
    IssuedCertificate proxy = issuer.proxy(ProxyIdentity.of("gateway-proxy"), NOW, DAY);

    assertThat(proxy.privateKeyPem()).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(Pem.servingChain(proxy.certificatePem())).containsExactly(proxy.certificate());
    var key = Pem.servingKey(proxy.privateKeyPem());
    assertThat(key.getEncoded()).isEqualTo(proxy.keys().getPrivate().getEncoded());
    assertThat(Keys.matches(key, proxy.certificate().getPublicKey())).isTrue();
    assertThat(Pem.caBundle(ca.certificatePem())).containsExactly(ca.certificate());
  }

  @Test
  void serialNumbersDiffer() {
    assertThat(issuer.proxy(ProxyIdentity.of("a"), NOW, DAY).certificate().getSerialNumber())
        .isNotEqualTo(issuer.proxy(ProxyIdentity.of("a"), NOW, DAY).certificate().getSerialNumber());
  }

  @Test
  void aServerCertificateWithoutNamesOrAnEmptyValidityIsRefused() {
    assertThatThrownBy(() -> issuer.server("s", List.of(), List.of(), NOW, DAY))
        .hasMessageContaining("at least one DNS name or IP address");
    assertThatThrownBy(() -> issuer.proxy(ProxyIdentity.of("a"), NOW, Duration.ZERO))
        .hasMessageContaining("validity must be positive");
  }
}
