package io.holdfast.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyPair;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * Key types Envoy serves with (RSA of 2048 bits or more, ECDSA on P-256, P-384, P-521) pass {@link Pem#servingChain}
 * and {@link Pem#servingKey}; every other type is refused with its name and size, for the key and for the leaf.
 */
class KeyTypesTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("key types CA");

  private static TestCertificates.Issued leaf(KeyPair keys) {
    return TestCertificates.leaf(CA, "leaf", keys, Instant.now().minusSeconds(60), TestCertificates.LIFETIME,
        "a.test");
  }

  @Test
  void keysEnvoyServesWithAreAccepted() {
    for (KeyPair keys : new KeyPair[] {TestCertificates.rsa(2048), TestCertificates.ec("secp256r1"),
        TestCertificates.ec("secp384r1"), TestCertificates.ec("secp521r1")}) {
      TestCertificates.Issued leaf = leaf(keys);
      assertThat(Pem.servingChain(leaf.certificatePem() + CA.certificatePem())).hasSize(2);
      assertThat(Keys.matches(Pem.servingKey(leaf.privateKeyPem()), leaf.certificate().getPublicKey()))
          .as(keys.getPublic().getAlgorithm()).isTrue();
      assertThat(Pem.servingKey(leaf.traditionalPrivateKeyPem()).getEncoded())
          .isEqualTo(keys.getPrivate().getEncoded());
    }
  }

  @Test
  void rsaUnder2048BitsIsRefusedForKeyAndLeaf() {
    TestCertificates.Issued leaf = leaf(TestCertificates.rsa(1024));
    assertThatThrownBy(() -> Pem.servingKey(leaf.privateKeyPem())).isInstanceOf(PemException.class)
        .hasMessage("holds an RSA key of 1024 bits; Envoy loads only RSA keys of 2048 bits or more and ECDSA keys"
            + " on P-256, P-384 or P-521");
    assertThatThrownBy(() -> Pem.servingKey(leaf.traditionalPrivateKeyPem()))
        .hasMessageStartingWith("holds an RSA key of 1024 bits");
    assertThatThrownBy(() -> Pem.servingChain(leaf.certificatePem()))
        .hasMessageStartingWith("certificate 1 (the leaf) has an RSA key of 1024 bits; Envoy loads only");
    // Still readable as plain PEM: the xDS server's own TLS and CA bundles are not Envoy's serving keys.
    assertThat(Pem.privateKey(leaf.privateKeyPem()).getAlgorithm()).isEqualTo("RSA");
  }

  @Test
  void ed25519IsRefusedForKeyAndLeaf() {
    TestCertificates.Issued leaf = leaf(TestCertificates.ed25519());
    assertThatThrownBy(() -> Pem.servingKey(leaf.privateKeyPem()))
        .hasMessageStartingWith("holds an Ed25519 key; Envoy loads only RSA keys");
    assertThatThrownBy(() -> Pem.servingChain(leaf.certificatePem()))
        .hasMessageStartingWith("certificate 1 (the leaf) has an Ed25519 key; Envoy loads only");
  }

  /** The JDK cannot even read a secp256k1 key: the answer must still name the curve. */
  @Test
  void otherCurvesAreRefusedByName() {
    TestCertificates.Issued leaf = leaf(TestCertificates.ec("secp256k1"));
    assertThatThrownBy(() -> Pem.servingKey(leaf.privateKeyPem()))
        .hasMessageStartingWith("holds an ECDSA key on curve secp256k1; Envoy loads only");
    assertThatThrownBy(() -> Pem.servingChain(leaf.certificatePem() + CA.certificatePem()))
        .hasMessageStartingWith("certificate 1 (the leaf) has an ECDSA key on curve secp256k1");
  }

  @Test
  void onlyTheLeafKeyTypeMatters() {
    TestCertificates.Issued rsaCa = TestCertificates.leaf(CA, "weak intermediate", TestCertificates.rsa(1024),
        Instant.now().minusSeconds(60), TestCertificates.LIFETIME);
    TestCertificates.Issued leaf = leaf(TestCertificates.ec("secp256r1"));
    assertThat(Pem.servingChain(leaf.certificatePem() + rsaCa.certificatePem())).hasSize(2);
  }

  /**
   * A private key in the chain would be served in certificate_chain (and shown in Envoy's config dump): any block
   * but a certificate is refused by its label, and the message quotes nothing of its content.
   */
  @Test
  void aNonCertificateBlockInAChainIsRefusedWithoutQuotingIt() {
    TestCertificates.Issued leaf = leaf(TestCertificates.ec("secp256r1"));
    String key = leaf.privateKeyPem();
    String body = key.substring(key.indexOf('\n') + 1, key.indexOf("-----END")).replace("\n", "");
    for (String chain : new String[] {leaf.certificatePem() + key, key + leaf.certificatePem(),
        leaf.certificatePem() + leaf.traditionalPrivateKeyPem()}) {
      assertThatThrownBy(() -> Pem.servingChain(chain)).isInstanceOf(PemException.class)
          .hasMessageContaining(" is a")
          .hasMessageContaining("PRIVATE KEY block: a certificate chain or CA bundle may hold only CERTIFICATE blocks")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(body.substring(0, 16)));
      assertThatThrownBy(() -> Pem.caBundle(chain)).hasMessageContaining("PRIVATE KEY block");
      // Holdfast's own TLS files are read as TLS libraries read them: other blocks skipped.
      assertThat(Pem.certificates(chain)).containsExactly(leaf.certificate());
    }
    String parameters = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n";
    assertThatThrownBy(() -> Pem.caBundle(leaf.certificatePem() + parameters))
        .hasMessageStartingWith("block 2 is an EC PARAMETERS block");
    String odd = "-----BEGIN " + body.substring(0, 30) + "-----\n"
        + Base64.getEncoder().encodeToString(new byte[] {1, 2, 3}) + "\n-----END " + body.substring(0, 30) + "-----\n";
    assertThatThrownBy(() -> Pem.caBundle(leaf.certificatePem() + odd))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(body.substring(0, 30)));
    // Text between blocks is ignored, as Envoy ignores it.
    assertThat(Pem.servingChain("# leaf\n" + leaf.certificatePem() + "\nissuer:\n" + CA.certificatePem()))
        .hasSize(2);
  }
}
