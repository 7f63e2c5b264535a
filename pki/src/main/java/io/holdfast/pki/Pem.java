package io.holdfast.pki;

import java.io.IOException;
import java.io.StringReader;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * Reads certificates and private keys from PEM text with BouncyCastle's parser: certificate chains, and unencrypted
 * keys in every form issuers write (PKCS#8 {@code PRIVATE KEY}, PKCS#1 {@code RSA PRIVATE KEY} as cert-manager and
 * {@code kubectl create secret tls} often hold, SEC1 {@code EC PRIVATE KEY}, with or without an {@code EC PARAMETERS}
 * block). {@link #servingChain} and {@link #servingKey} also refuse what Envoy would not serve with (see
 * {@link KeyTypes}): the front ends check every certificate and key users name through them. Keys and certificates
 * come out as JDK objects made by the JDK's own providers (no provider is
 * registered). Errors are {@link PemException}s that never quote the text. Stateless and thread-safe.
 */
public final class Pem {

  /** The labels OpenSSL and Envoy read as a certificate. */
  private static final java.util.Set<String> CERTIFICATE_LABELS = java.util.Set.of("CERTIFICATE", "X509 CERTIFICATE");

  private Pem() {
  }

  /**
   * Every certificate in {@code text}, in order (a chain: leaf first); at least one. Other blocks are skipped, as
   * TLS libraries reading a certificate file skip them: for Holdfast's own TLS files, never for material given to
   * Envoy ({@link #caBundle}, {@link #servingChain}).
   */
  public static List<X509Certificate> certificates(String text) {
    return convert(holders(text, false));
  }

  /**
   * A CA bundle to give Envoy: {@link #certificates}, with nothing but {@code CERTIFICATE} blocks. Envoy passes
   * the text on as it is (a private key in it would be shown in its config dump), so any other block is refused,
   * named by its label.
   */
  public static List<X509Certificate> caBundle(String text) {
    return convert(holders(text, true));
  }

  /**
   * A certificate chain for Envoy to serve: only {@code CERTIFICATE} blocks (a private key in it would be served in
   * {@code certificate_chain} and shown in Envoy's config dump), and the first (leaf) certificate with a key type
   * Envoy loads (RSA of 2048 bits or more, ECDSA on P-256, P-384 or P-521).
   */
  public static List<X509Certificate> servingChain(String text) {
    List<X509CertificateHolder> holders = holders(text, true);
    KeyTypes.problem(holders.get(0).getSubjectPublicKeyInfo()).ifPresent(problem -> {
      throw new PemException("certificate 1 (the leaf) has " + problem);
    });
    return convert(holders);
  }

  private static List<X509CertificateHolder> holders(String text, boolean onlyCertificates) {
    List<PemObject> blocks = blocks(text);
    if (blocks.isEmpty()) {
      throw new PemException("not PEM (no -----BEGIN CERTIFICATE----- block)");
    }
    List<X509CertificateHolder> holders = new ArrayList<>();
    List<String> others = new ArrayList<>();
    for (int i = 0; i < blocks.size(); i++) {
      PemObject block = blocks.get(i);
      if (!CERTIFICATE_LABELS.contains(block.getType())) {
        others.add("block " + (i + 1) + " is " + label(block.getType()));
        continue;
      }
      try {
        holders.add(new X509CertificateHolder(block.getContent()));
      } catch (IOException | RuntimeException e) {
        throw new PemException("certificate " + (holders.size() + 1) + " (block " + (i + 1)
            + ") is not a valid X.509 certificate");
      }
    }
    if (holders.isEmpty()) {
      throw new PemException("holds no CERTIFICATE block, only " + blocks.stream().map(b -> labelName(b.getType()))
          .distinct().toList());
    }
    if (onlyCertificates && !others.isEmpty()) {
      throw new PemException(String.join(", ", others) + ": a certificate chain or CA bundle may hold only"
          + " CERTIFICATE blocks (Envoy would pass the rest on as part of the chain)");
    }
    return holders;
  }

  private static List<X509Certificate> convert(List<X509CertificateHolder> holders) {
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    List<X509Certificate> certificates = new ArrayList<>();
    for (X509CertificateHolder holder : holders) {
      try {
        certificates.add(converter.getCertificate(holder));
      } catch (CertificateException | RuntimeException e) {
        throw new PemException("certificate " + (certificates.size() + 1) + " is not a valid X.509 certificate");
      }
    }
    return List.copyOf(certificates);
  }

  /** The raw PEM blocks of {@code text}, text between them ignored (as OpenSSL and Envoy ignore it). */
  private static List<PemObject> blocks(String text) {
    List<PemObject> blocks = new ArrayList<>();
    try (PemReader reader = new PemReader(new StringReader(text))) {
      for (PemObject block = reader.readPemObject(); block != null; block = reader.readPemObject()) {
        blocks.add(block);
      }
    } catch (IOException | RuntimeException e) {
      throw new PemException("PEM block " + (blocks.size() + 1) + " cannot be read ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : firstLine(e.getMessage())) + ")");
    }
    return blocks;
  }

  /** A block's label as a message may show it: the label is the file's text, so only a plain one is echoed. */
  private static String label(String type) {
    String name = labelName(type);
    return ("AEIOU".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name + " block";
  }

  private static String labelName(String type) {
    return type != null && type.length() <= 40 && type.matches("[A-Z0-9 ]+") ? type : "(unusual label)";
  }

  /** The one unencrypted private key in {@code text} (PKCS#8, PKCS#1 RSA or SEC1 EC). */
  public static PrivateKey privateKey(String text) {
    return toKey(privateKeyInfo(text));
  }

  /**
   * As {@link #privateKey}, for a key Envoy serves with: refused, saying its type and size, unless it is RSA of
   * 2048 bits or more or ECDSA on P-256, P-384 or P-521 (judged before the JDK reads it: it cannot read some).
   */
  public static PrivateKey servingKey(String text) {
    PrivateKeyInfo info = privateKeyInfo(text);
    KeyTypes.problem(info).ifPresent(problem -> {
      throw new PemException("holds " + problem);
    });
    return toKey(info);
  }

  private static PrivateKeyInfo privateKeyInfo(String text) {
    List<Object> objects = objects(text);
    List<PrivateKeyInfo> keys = new ArrayList<>();
    for (Object object : objects) {
      if (object instanceof PEMKeyPair pair) {
        keys.add(pair.getPrivateKeyInfo());
      } else if (object instanceof PrivateKeyInfo info) {
        keys.add(info);
      } else if (object instanceof PEMEncryptedKeyPair || object instanceof PKCS8EncryptedPrivateKeyInfo) {
        throw new PemException("holds an encrypted private key; only unencrypted keys are supported");
      }
    }
    if (keys.size() != 1) {
      throw new PemException(keys.isEmpty()
          ? (objects.isEmpty() ? "not PEM (no -----BEGIN PRIVATE KEY----- block)"
              : "holds no private key, only " + describe(objects))
          : "holds " + keys.size() + " private keys, expected one");
    }
    return keys.get(0);
  }

  private static PrivateKey toKey(PrivateKeyInfo info) {
    try {
      return new JcaPEMKeyConverter().getPrivateKey(info);
    } catch (PEMException | RuntimeException e) {
      // The cause's message could describe key bytes; say only what kind of key it claims to be.
      String oid = info.getPrivateKeyAlgorithm().getAlgorithm().getId();
      String algorithm = switch (oid) {
        case "1.2.840.113549.1.1.1" -> "an RSA";
        case "1.2.840.10045.2.1" -> "an EC";
        default -> "a " + oid;
      };
      throw new PemException(algorithm + " private key that cannot be read (corrupt, or an EC key without its curve)");
    }
  }

  private static List<Object> objects(String text) {
    List<Object> objects = new ArrayList<>();
    try (PEMParser parser = new PEMParser(new StringReader(text))) {
      for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
        objects.add(object);
      }
    } catch (IOException | RuntimeException e) {
      // BouncyCastle's messages name the block and the problem (bad base64, bad structure), not the content.
      throw new PemException("PEM block " + (objects.size() + 1) + " cannot be read ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : firstLine(e.getMessage())) + ")");
    }
    return objects;
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line.length() > 120 ? line.substring(0, 120) + "..." : line;
  }

  private static String describe(List<Object> objects) {
    return objects.stream().map(o -> {
      if (o instanceof ASN1ObjectIdentifier) {
        return "EC PARAMETERS";
      }
      if (o instanceof PEMKeyPair || o instanceof PrivateKeyInfo) {
        return "PRIVATE KEY";
      }
      if (o instanceof X509CertificateHolder) {
        return "CERTIFICATE";
      }
      return o.getClass().getSimpleName();
    }).distinct().toList().toString();
  }
}
