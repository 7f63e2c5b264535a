package io.holdfast.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The same verdicts as {@link KeyTypesTest} for PEM files the openssl command writes. */
class OpensslKeyTypesTest {

  @TempDir
  Path directory;

  private void servable(OpensslPems.Pair pair) {
    assertThat(Keys.matches(Pem.servingKey(pair.keyPem()),
        Pem.servingChain(pair.certificatePem()).get(0).getPublicKey())).as(pair.name()).isTrue();
  }

  private void refused(OpensslPems.Pair pair, String keyProblem) {
    assertThatThrownBy(() -> Pem.servingKey(pair.keyPem())).as(pair.name()).isInstanceOf(PemException.class)
        .hasMessageStartingWith("holds " + keyProblem + "; Envoy loads only RSA keys of 2048 bits or more");
    assertThatThrownBy(() -> Pem.servingChain(pair.certificatePem())).as(pair.name())
        .hasMessageStartingWith("certificate 1 (the leaf) has " + keyProblem + "; Envoy loads only");
  }

  @Test
  void opensslKeysEnvoyServesWithAreAccepted() {
    OpensslPems openssl = OpensslPems.in(directory);
    servable(openssl.rsa(2048));
    servable(openssl.ec("prime256v1"));
    servable(openssl.ec("secp384r1"));
    servable(openssl.ec("secp521r1"));
  }

  @Test
  void opensslKeysEnvoyRefusesAreRefusedByTypeAndSize() {
    OpensslPems openssl = OpensslPems.in(directory);
    refused(openssl.rsa(1024), "an RSA key of 1024 bits");
    refused(openssl.ec("secp256k1"), "an ECDSA key on curve secp256k1");
    refused(openssl.ed25519(), "an Ed25519 key");
  }

  @Test
  void aKeyAppendedToAnOpensslCertificateIsRefused() {
    OpensslPems.Pair pair = OpensslPems.in(directory).ec("prime256v1");
    assertThatThrownBy(() -> Pem.servingChain(pair.certificatePem() + pair.keyPem()))
        .hasMessage("block 2 is an EC PARAMETERS block, block 3 is an EC PRIVATE KEY block: a certificate chain or"
            + " CA bundle may hold only CERTIFICATE blocks (Envoy would pass the rest on as part of the chain)");
  }
}
