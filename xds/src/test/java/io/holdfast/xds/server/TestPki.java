package io.holdfast.xds.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throwaway certificates made at test time with the JDK alone: keys from {@link KeyPairGenerator}, X.509 v3
 * certificates from a few lines of DER written here and signed with {@link Signature}. No files are checked in,
 * no keytool or openssl process runs, no BouncyCastle (not on the classpath) and no {@code sun.security.x509}
 * (not exported on 17). Leaf certificates name {@code localhost} and {@code 127.0.0.1}, so host name checks pass
 * for loopback clients.
 */
final class TestPki {

  private static final AtomicLong SERIALS = new AtomicLong(0x1000);
  private static final Duration LIFETIME = Duration.ofDays(1);

  private TestPki() {
  }

  /** A key pair and the certificate for it. */
  record Issued(KeyPair keys, X509Certificate certificate, byte[] subject) {

    BigInteger serial() {
      return certificate.getSerialNumber();
    }

    String certificatePem() {
      return pem("CERTIFICATE", encoded());
    }

    /** The private key as unencrypted PKCS#8, which is what the JDK encodes private keys as. */
    String privateKeyPem() {
      return pem("PRIVATE KEY", keys.getPrivate().getEncoded());
    }

    /** Writes the certificate (chain {@code this}) to {@code certificate} and the key to {@code key}. */
    void write(Path certificate, Path key) {
      writeString(certificate, certificatePem());
      writeString(key, privateKeyPem());
    }

    private byte[] encoded() {
      try {
        return certificate.getEncoded();
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A self-signed CA with an EC P-256 key. */
  static Issued ca(String commonName) {
    KeyPair keys = ec();
    byte[] name = name(commonName);
    return new Issued(keys, sign(keys, name, keys, name, true, Instant.now().minusSeconds(60), LIFETIME), name);
  }

  /** A leaf certificate for loopback, issued by {@code ca}, with an EC P-256 key and a fresh serial. */
  static Issued leaf(Issued ca, String commonName) {
    return leaf(ca, commonName, ec(), Instant.now().minusSeconds(60), LIFETIME);
  }

  static Issued leaf(Issued ca, String commonName, KeyPair keys, Instant notBefore, Duration lifetime) {
    byte[] name = name(commonName);
    return new Issued(keys, sign(keys, name, ca.keys(), ca.subject(), false, notBefore, lifetime), name);
  }

  static KeyPair ec() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static KeyPair rsa() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

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

  private static X509Certificate sign(KeyPair subjectKeys, byte[] subject, KeyPair issuerKeys, byte[] issuer,
      boolean ca, Instant notBefore, Duration lifetime) {
    boolean rsaIssuer = issuerKeys.getPrivate().getAlgorithm().equals("RSA");
    // sha256WithRSAEncryption takes an explicit NULL parameter; ecdsa-with-SHA256 takes none.
    byte[] algorithm = rsaIssuer
        ? seq(oid("1.2.840.113549.1.1.11"), new byte[] {0x05, 0x00})
        : seq(oid("1.2.840.10045.4.3.2"));
    byte[] extensions = ca
        ? seq(extension("2.5.29.19", true, seq(bool(true))))
        : seq(extension("2.5.29.19", true, seq()),
            extension("2.5.29.17", false, seq(
                tlv(0x82, "localhost".getBytes(StandardCharsets.US_ASCII)),
                tlv(0x87, new byte[] {127, 0, 0, 1}))));
    byte[] tbs = seq(
        tlv(0xA0, integer(BigInteger.TWO)),
        integer(BigInteger.valueOf(SERIALS.incrementAndGet())),
        algorithm,
        issuer,
        seq(time(notBefore), time(notBefore.plus(lifetime))),
        subject,
        subjectKeys.getPublic().getEncoded(),
        tlv(0xA3, extensions));
    try {
      Signature signer = Signature.getInstance(rsaIssuer ? "SHA256withRSA" : "SHA256withECDSA");
      signer.initSign(issuerKeys.getPrivate());
      signer.update(tbs);
      byte[] der = seq(tbs, algorithm, bitString(signer.sign()));
      return (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  // --- DER, just the parts a certificate needs ---

  private static byte[] name(String commonName) {
    return seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0C, commonName.getBytes(StandardCharsets.UTF_8)))));
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical ? seq(oid(oid), bool(true), tlv(0x04, value)) : seq(oid(oid), tlv(0x04, value));
  }

  private static byte[] time(Instant instant) {
    // RFC 5280: UTCTime through 2049, GeneralizedTime after.
    var utc = instant.atOffset(ZoneOffset.UTC);
    return utc.getYear() < 2050
        ? tlv(0x17, DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").format(utc).getBytes(StandardCharsets.US_ASCII))
        : tlv(0x18, DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").format(utc)
            .getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] integer(BigInteger value) {
    return tlv(0x02, value.toByteArray());
  }

  private static byte[] bool(boolean value) {
    return tlv(0x01, new byte[] {(byte) (value ? 0xFF : 0x00)});
  }

  private static byte[] bitString(byte[] bits) {
    byte[] content = new byte[bits.length + 1]; // leading 0: no unused bits
    System.arraycopy(bits, 0, content, 1, bits.length);
    return tlv(0x03, content);
  }

  private static byte[] oid(String dotted) {
    String[] arcs = dotted.split("\\.");
    var out = new ByteArrayOutputStream();
    out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
    for (int i = 2; i < arcs.length; i++) {
      long arc = Long.parseLong(arcs[i]);
      int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
      for (int g = groups - 1; g >= 0; g--) {
        out.write((int) ((arc >>> (7 * g)) & 0x7F) | (g > 0 ? 0x80 : 0));
      }
    }
    return tlv(0x06, out.toByteArray());
  }

  private static byte[] seq(byte[]... parts) {
    return tlv(0x30, parts);
  }

  private static byte[] tlv(int tag, byte[]... parts) {
    var content = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      content.writeBytes(part);
    }
    int length = content.size();
    var out = new ByteArrayOutputStream();
    out.write(tag);
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int b = bytes - 1; b >= 0; b--) {
        out.write(length >>> (8 * b));
      }
    }
    out.writeBytes(content.toByteArray());
    return out.toByteArray();
  }
}
