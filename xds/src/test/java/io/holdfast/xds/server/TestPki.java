package io.holdfast.xds.server;

import io.holdfast.pki.TestCertificates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * Throwaway certificates for the xDS server's TLS tests, made at test time by the pki module's
 * {@link TestCertificates} (BouncyCastle); no files are checked in. Leaf certificates name {@code localhost} and
 * {@code 127.0.0.1}, so host name checks pass for loopback clients.
 */
final class TestPki {

  private static final Duration LIFETIME = TestCertificates.LIFETIME;

  private TestPki() {
  }

  /** A key pair and the certificate for it. */
  record Issued(TestCertificates.Issued issued) {

    KeyPair keys() {
      return issued.keys();
    }

    X509Certificate certificate() {
      return issued.certificate();
    }

    BigInteger serial() {
      return certificate().getSerialNumber();
    }

    String certificatePem() {
      return issued.certificatePem();
    }

    /** The private key as unencrypted PKCS#8. */
    String privateKeyPem() {
      return issued.privateKeyPem();
    }

    /** PKCS#1 for RSA keys, SEC1 for EC keys (OpenSSL's traditional forms). */
    String traditionalPrivateKeyPem() {
      return issued.traditionalPrivateKeyPem();
    }

    /** Writes the certificate (chain {@code this}) to {@code certificate} and the key to {@code key}. */
    void write(Path certificate, Path key) {
      writeString(certificate, certificatePem());
      writeString(key, privateKeyPem());
    }
  }

  /** A self-signed CA with an EC P-256 key. */
  static Issued ca(String commonName) {
    return new Issued(TestCertificates.ca(commonName));
  }

  /** A leaf certificate for loopback, issued by {@code ca}, with an EC P-256 key and a fresh serial. */
  static Issued leaf(Issued ca, String commonName) {
    return leaf(ca, commonName, ec(), Instant.now().minusSeconds(60), LIFETIME);
  }

  static Issued leaf(Issued ca, String commonName, KeyPair keys, Instant notBefore, Duration lifetime) {
    return new Issued(TestCertificates.leaf(ca.issued(), commonName, keys, notBefore, lifetime));
  }

  static KeyPair ec() {
    return TestCertificates.ec();
  }

  static KeyPair rsa() {
    return TestCertificates.rsa();
  }

  /** Arbitrary bytes as a PEM block, for tests of what the reader makes of wrong content. */
  static String pem(String label, byte[] der) {
    return "-----BEGIN " + label + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + label + "-----\n";
  }

  static void writeString(Path path, String text) {
    try {
      Files.writeString(path, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
