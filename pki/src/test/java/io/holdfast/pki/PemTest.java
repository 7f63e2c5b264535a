package io.holdfast.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PemTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("pem test CA");

  @Test
  void readsAChainLeafFirst() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "leaf", "a.test");
    assertThat(Pem.certificates(leaf.certificatePem() + CA.certificatePem()))
        .containsExactly(leaf.certificate(), CA.certificate());
  }

  @Test
  void readsPkcs1RsaKeysAsCertManagerWritesThem() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "rsa", TestCertificates.rsa(),
        Instant.now(), Duration.ofHours(1));
    String pem = leaf.traditionalPrivateKeyPem();
    assertThat(pem).startsWith("-----BEGIN RSA PRIVATE KEY-----");
    PrivateKey key = Pem.privateKey(pem);
    assertThat(key.getEncoded()).isEqualTo(leaf.keys().getPrivate().getEncoded());
    assertThat(Keys.matches(key, leaf.certificate().getPublicKey())).isTrue();
  }

  @Test
  void readsSec1EcKeysWithOrWithoutParameters() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "ec", "a.test");
    String pem = leaf.traditionalPrivateKeyPem();
    assertThat(pem).startsWith("-----BEGIN EC PRIVATE KEY-----");
    assertThat(Keys.matches(Pem.privateKey(pem), leaf.certificate().getPublicKey())).isTrue();
    // openssl ecparam -genkey writes the curve first.
    String withParameters = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n" + pem;
    assertThat(Keys.matches(Pem.privateKey(withParameters), leaf.certificate().getPublicKey())).isTrue();
  }

  @Test
  void readsPkcs8Keys() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "p8", "a.test");
    assertThat(leaf.privateKeyPem()).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(Pem.privateKey(leaf.privateKeyPem()).getEncoded()).isEqualTo(leaf.keys().getPrivate().getEncoded());
  }

  @Test
  void aKeyOfAnotherPairDoesNotMatch() {
    TestCertificates.Issued a = TestCertificates.leaf(CA, "a", "a.test");
    TestCertificates.Issued b = TestCertificates.leaf(CA, "b", "b.test");
    assertThat(Keys.matches(Pem.privateKey(a.privateKeyPem()), b.certificate().getPublicKey())).isFalse();
    TestCertificates.Issued rsa = TestCertificates.leaf(CA, "rsa", TestCertificates.rsa(), Instant.now(),
        Duration.ofHours(1));
    assertThat(Keys.matches(Pem.privateKey(rsa.privateKeyPem()), a.certificate().getPublicKey())).isFalse();
  }

  @Test
  void errorsSayWhatTheTextHoldsWithoutQuotingIt() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "leaf", "a.test");
    String key = leaf.privateKeyPem();
    assertThatThrownBy(() -> Pem.certificates(key)).isInstanceOf(PemException.class)
        .hasMessage("holds no CERTIFICATE block, only [PRIVATE KEY]");
    assertThatThrownBy(() -> Pem.privateKey(leaf.certificatePem())).isInstanceOf(PemException.class)
        .hasMessage("holds no private key, only [CERTIFICATE]");
    assertThatThrownBy(() -> Pem.certificates("hello")).hasMessageContaining("not PEM");
    assertThatThrownBy(() -> Pem.privateKey(key + key)).hasMessage("holds 2 private keys, expected one");
    String body = key.substring(key.indexOf('\n') + 1, key.indexOf("-----END"));
    String corrupt = "-----BEGIN PRIVATE KEY-----\n" + body.substring(0, 40) + "!!\n-----END PRIVATE KEY-----\n";
    assertThatThrownBy(() -> Pem.privateKey(corrupt)).isInstanceOf(PemException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(body.substring(0, 20)));
  }

  @Test
  void validityProblems() {
    TestCertificates.Issued leaf = TestCertificates.leaf(CA, "leaf", TestCertificates.ec(),
        Instant.parse("2030-01-01T00:00:00Z"), Duration.ofDays(10));
    assertThat(Keys.validityProblem(leaf.certificate(), Instant.parse("2030-01-05T00:00:00Z"))).isEmpty();
    assertThat(Keys.validityProblem(leaf.certificate(), Instant.parse("2030-02-01T00:00:00Z")))
        .contains("expired at 2030-01-11T00:00:00Z");
    assertThat(Keys.validityProblem(leaf.certificate(), Instant.parse("2029-12-01T00:00:00Z")))
        .contains("is not valid before 2030-01-01T00:00:00Z");
  }
}
