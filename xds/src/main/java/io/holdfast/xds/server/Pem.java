package io.holdfast.xds.server;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** PEM decoding of certificates and PKCS#8 keys, with errors that say what the file holds instead. */
final class Pem {

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");
  private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC");

  private Pem() {
  }

  private record Block(String label, String body) {
  }

  /** Every {@code CERTIFICATE} block, in file order; at least one. */
  static List<X509Certificate> certificates(String role, Path path, byte[] bytes) {
    List<Block> blocks = blocks(bytes);
    List<X509Certificate> certificates = new ArrayList<>();
    CertificateFactory factory = x509();
    for (Block block : blocks) {
      if (!block.label().equals("CERTIFICATE")) {
        continue;
      }
      int index = certificates.size() + 1;
      byte[] der = decode(role, path, block, index);
      try {
        certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      } catch (CertificateException e) {
        throw new XdsTlsException(role, path, "certificate " + index + " is not a valid X.509 certificate ("
            + e.getMessage() + ")", e);
      }
    }
    if (certificates.isEmpty()) {
      throw new XdsTlsException(role, path, blocks.isEmpty()
          ? "not PEM (no -----BEGIN CERTIFICATE----- block)"
          : "holds no CERTIFICATE block, only " + labels(blocks));
    }
    return List.copyOf(certificates);
  }

  /** The one unencrypted PKCS#8 {@code PRIVATE KEY} block, RSA or EC. */
  static PrivateKey privateKey(String role, Path path, byte[] bytes) {
    List<Block> blocks = blocks(bytes);
    List<Block> keys = blocks.stream().filter(b -> b.label().equals("PRIVATE KEY")).toList();
    if (keys.size() > 1) {
      throw new XdsTlsException(role, path, "holds " + keys.size() + " PRIVATE KEY blocks, expected one");
    }
    if (keys.isEmpty()) {
      throw new XdsTlsException(role, path, blocks.isEmpty()
          ? "not PEM (no -----BEGIN PRIVATE KEY----- block)"
          : whyNotPkcs8(blocks));
    }
    var spec = new PKCS8EncodedKeySpec(decode(role, path, keys.get(0), 1));
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // Not this algorithm (or corrupt): try the next one; the message below covers both.
      }
    }
    throw new XdsTlsException(role, path, "PRIVATE KEY is neither an RSA nor an EC PKCS#8 key (or is corrupt)");
  }

  private static String whyNotPkcs8(List<Block> blocks) {
    List<String> labels = labels(blocks);
    String convert = "; convert it with: openssl pkcs8 -topk8 -nocrypt -in OLD -out NEW";
    if (labels.contains("RSA PRIVATE KEY")) {
      return "holds a PKCS#1 RSA PRIVATE KEY, expected PKCS#8 (BEGIN PRIVATE KEY)" + convert;
    }
    if (labels.contains("EC PRIVATE KEY")) {
      return "holds a SEC1 EC PRIVATE KEY, expected PKCS#8 (BEGIN PRIVATE KEY)" + convert;
    }
    if (labels.contains("ENCRYPTED PRIVATE KEY")) {
      return "holds an ENCRYPTED PRIVATE KEY; only unencrypted PKCS#8 keys are supported";
    }
    return "holds no PRIVATE KEY block, only " + labels;
  }

  private static List<Block> blocks(byte[] bytes) {
    Matcher matcher = BLOCK.matcher(new String(bytes, StandardCharsets.US_ASCII));
    List<Block> blocks = new ArrayList<>();
    while (matcher.find()) {
      blocks.add(new Block(matcher.group(1), matcher.group(2)));
    }
    return blocks;
  }

  private static List<String> labels(List<Block> blocks) {
    return blocks.stream().map(Block::label).distinct().toList();
  }

  private static byte[] decode(String role, Path path, Block block, int index) {
    try {
      return Base64.getMimeDecoder().decode(block.body());
    } catch (IllegalArgumentException e) {
      throw new XdsTlsException(role, path, block.label() + " block " + index + " is not valid base64", e);
    }
  }

  private static CertificateFactory x509() {
    try {
      return CertificateFactory.getInstance("X.509");
    } catch (CertificateException e) {
      throw new IllegalStateException("every JDK has an X.509 certificate factory", e);
    }
  }
}
