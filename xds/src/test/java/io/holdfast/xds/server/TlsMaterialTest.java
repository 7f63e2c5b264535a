package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading and checking TLS files: what loads, and that every refusal names the file and the problem. */
class TlsMaterialTest {

  private static final TestPki.Issued CA = TestPki.ca("holdfast test CA");

  @TempDir
  Path dir;

  private Path cert() {
    return dir.resolve("tls.crt");
  }

  private Path key() {
    return dir.resolve("tls.key");
  }

  private TlsMaterial load(XdsTls tls) {
    return TlsMaterial.parse(tls, TlsFiles.read(tls), Instant.now());
  }

  private XdsTls written(TestPki.Issued leaf) {
    leaf.write(cert(), key());
    return XdsTls.serverOnly(cert(), key());
  }

  @Test
  void loadsAnEcKeyWithItsChain() {
    TestPki.Issued leaf = TestPki.leaf(CA, "xds");
    TestPki.writeString(cert(), leaf.certificatePem() + CA.certificatePem());
    TestPki.writeString(key(), leaf.privateKeyPem());

    TlsMaterial material = load(XdsTls.serverOnly(cert(), key()));

    assertThat(material.chain()).containsExactly(leaf.certificate(), CA.certificate());
    assertThat(material.key().getAlgorithm()).isEqualTo("EC");
    assertThat(material.clientCas()).isEmpty();
    assertThat(material.warnings()).isEmpty();
  }

  @Test
  void loadsAnRsaKey() {
    TestPki.Issued leaf = TestPki.leaf(CA, "xds-rsa", TestPki.rsa(), Instant.now().minusSeconds(60),
        Duration.ofDays(1));

    TlsMaterial material = load(written(leaf));

    assertThat(material.key().getAlgorithm()).isEqualTo("RSA");
    assertThat(material.leaf()).isEqualTo(leaf.certificate());
  }

  @Test
  void loadsAClientCaBundle() {
    TestPki.Issued other = TestPki.ca("other CA");
    TestPki.leaf(CA, "xds").write(cert(), key());
    Path bundle = dir.resolve("ca.crt");
    TestPki.writeString(bundle, CA.certificatePem() + other.certificatePem());

    TlsMaterial material = load(XdsTls.mutual(cert(), key(), bundle));

    assertThat(material.clientCas()).containsExactly(CA.certificate(), other.certificate());
  }

  @Test
  void missingFileIsNamed() {
    TestPki.writeString(key(), TestPki.leaf(CA, "xds").privateKeyPem());

    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .isInstanceOf(XdsTlsException.class)
        .hasMessage("certificate chain file " + cert() + ": missing (no such file)")
        .satisfies(e -> assertThat(((XdsTlsException) e).file()).isEqualTo(cert()));
  }

  @Test
  void directoryInsteadOfAFileIsRefused() {
    TestPki.leaf(CA, "xds").write(cert(), key());

    assertThatThrownBy(() -> load(XdsTls.mutual(cert(), key(), dir)))
        .hasMessage("client CA file " + dir + ": is a directory, expected a PEM file");
  }

  @Test
  void nonPemCertificateIsRefused() {
    written(TestPki.leaf(CA, "xds"));
    TestPki.writeString(cert(), "just some text\n");

    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .hasMessage("certificate chain file " + cert() + ": not PEM (no -----BEGIN CERTIFICATE----- block)");
  }

  @Test
  void swappedCertificateAndKeyFilesAreExplained() {
    TestPki.Issued leaf = TestPki.leaf(CA, "xds");
    leaf.write(cert(), key());

    assertThatThrownBy(() -> load(XdsTls.serverOnly(key(), cert())))
        .hasMessage("certificate chain file " + key() + ": holds no CERTIFICATE block, only [PRIVATE KEY]");
  }

  @Test
  void corruptCertificateIsRefused() {
    written(TestPki.leaf(CA, "xds"));
    TestPki.writeString(cert(), TestPki.pem("CERTIFICATE", new byte[] {1, 2, 3, 4}));

    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .hasMessage("certificate chain file " + cert() + ": certificate 1 (block 1) is not a valid X.509 certificate");
  }

  @Test
  void loadsAPkcs1RsaKeyAsCertManagerWritesIt() {
    TestPki.Issued leaf = TestPki.leaf(CA, "xds-rsa", TestPki.rsa(), Instant.now().minusSeconds(60),
        Duration.ofDays(1));
    TestPki.writeString(cert(), leaf.certificatePem());
    TestPki.writeString(key(), leaf.traditionalPrivateKeyPem());
    assertThat(leaf.traditionalPrivateKeyPem()).startsWith("-----BEGIN RSA PRIVATE KEY-----");

    TlsMaterial material = load(XdsTls.serverOnly(cert(), key()));

    assertThat(material.key().getEncoded()).isEqualTo(leaf.keys().getPrivate().getEncoded());
  }

  @Test
  void loadsASec1EcKey() {
    TestPki.Issued leaf = TestPki.leaf(CA, "xds");
    TestPki.writeString(cert(), leaf.certificatePem());
    TestPki.writeString(key(), leaf.traditionalPrivateKeyPem());
    assertThat(leaf.traditionalPrivateKeyPem()).startsWith("-----BEGIN EC PRIVATE KEY-----");

    TlsMaterial material = load(XdsTls.serverOnly(cert(), key()));

    assertThat(material.key().getAlgorithm()).isEqualTo("EC");
    assertThat(material.leaf()).isEqualTo(leaf.certificate());
  }

  @Test
  void corruptPkcs1AndEncryptedKeysAreRefused() {
    written(TestPki.leaf(CA, "xds"));
    TestPki.writeString(key(), TestPki.pem("RSA PRIVATE KEY", new byte[] {1, 2, 3}));
    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .hasMessageStartingWith("private key file " + key() + ": PEM block 1 cannot be read");

    TestPki.writeString(key(), TestPki.pem("ENCRYPTED PRIVATE KEY", new byte[] {1}));
    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .hasMessageStartingWith("private key file " + key() + ": ");
  }

  @Test
  void garbledPkcs8KeyIsRefused() {
    written(TestPki.leaf(CA, "xds"));
    TestPki.writeString(key(), TestPki.pem("PRIVATE KEY", new byte[] {0x30, 0x03, 0x02, 0x01, 0x00}));

    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .isInstanceOf(XdsTlsException.class)
        .hasMessageStartingWith("private key file " + key() + ": ");
  }

  @Test
  void keyOfAnotherCertificateIsRefused() {
    TestPki.Issued leaf = TestPki.leaf(CA, "xds");
    leaf.write(cert(), key());
    TestPki.writeString(key(), TestPki.leaf(CA, "someone-else").privateKeyPem());

    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .hasMessage("private key file " + key() + ": does not match the first certificate in " + cert()
            + " (CN=xds)");
  }

  @Test
  void rsaKeyForAnEcCertificateIsRefused() {
    TestPki.leaf(CA, "xds").write(cert(), key());
    TestPki.writeString(key(), TestPki.pem("PRIVATE KEY", TestPki.rsa().getPrivate().getEncoded()));

    assertThatThrownBy(() -> load(XdsTls.serverOnly(cert(), key())))
        .hasMessageContaining("does not match the first certificate");
  }

  @Test
  void expiredCertificateLoadsWithAWarning() {
    Instant twoDaysAgo = Instant.now().minus(Duration.ofDays(2));
    TestPki.Issued expired = TestPki.leaf(CA, "old", TestPki.ec(), twoDaysAgo, Duration.ofDays(1));

    TlsMaterial material = load(written(expired));

    assertThat(material.leaf()).isEqualTo(expired.certificate());
    assertThat(material.warnings()).singleElement().asString()
        .startsWith("certificate chain file " + cert() + ": certificate 1 (CN=old) expired at ");
  }

  @Test
  void notYetValidClientCaLoadsWithAWarning() {
    TestPki.leaf(CA, "xds").write(cert(), key());
    Path bundle = dir.resolve("ca.crt");
    TestPki.writeString(bundle, CA.certificatePem());
    XdsTls tls = XdsTls.mutual(cert(), key(), bundle);

    TlsMaterial material = TlsMaterial.parse(tls, TlsFiles.read(tls), Instant.now().minus(Duration.ofDays(1)));

    assertThat(material.warnings()).anySatisfy(w -> assertThat(w)
        .startsWith("client CA file " + bundle + ": certificate 1 (CN=holdfast test CA) is not valid before"));
  }

  @Test
  void settingsRejectANonPositiveInterval() {
    XdsTls tls = XdsTls.serverOnly(cert(), key());
    assertThat(tls.reloadInterval()).isEqualTo(XdsTls.DEFAULT_RELOAD_INTERVAL);
    assertThat(tls.requiresClientCertificate()).isFalse();
    assertThat(XdsTls.mutual(cert(), key(), dir).requiresClientCertificate()).isTrue();
    assertThatThrownBy(() -> tls.withReloadInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reloadInterval must be > 0, was PT0S");
    assertThatThrownBy(() -> new XdsTls(cert(), key(), Optional.empty(), Duration.ofSeconds(-1)))
        .hasMessageContaining("reloadInterval must be > 0");
  }

  @Test
  void fingerprintFollowsTheBytes() {
    XdsTls tls = written(TestPki.leaf(CA, "xds"));
    byte[] before = TlsFiles.read(tls).fingerprint();
    assertThat(TlsFiles.read(tls).fingerprint()).isEqualTo(before);

    TestPki.leaf(CA, "xds").write(cert(), key());

    assertThat(TlsFiles.read(tls).fingerprint()).isNotEqualTo(before);
  }
}
