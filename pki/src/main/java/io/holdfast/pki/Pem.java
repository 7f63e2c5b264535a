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

/**
 * Reads certificates and private keys from PEM text with BouncyCastle's parser: certificate chains, and unencrypted
 * keys in every form issuers write (PKCS#8 {@code PRIVATE KEY}, PKCS#1 {@code RSA PRIVATE KEY} as cert-manager and
 * {@code kubectl create secret tls} often hold, SEC1 {@code EC PRIVATE KEY}, with or without an {@code EC PARAMETERS}
 * block). Keys and certificates come out as JDK objects made by the JDK's own providers (no provider is
 * registered). Errors are {@link PemException}s that never quote the text. Stateless and thread-safe.
 */
public final class Pem {

  private Pem() {
  }

  /** Every certificate in {@code text}, in order (a chain: leaf first); at least one. */
  public static List<X509Certificate> certificates(String text) {
    List<Object> objects = objects(text);
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    List<X509Certificate> certificates = new ArrayList<>();
    for (Object object : objects) {
      if (object instanceof X509CertificateHolder holder) {
        try {
          certificates.add(converter.getCertificate(holder));
        } catch (CertificateException e) {
          throw new PemException("certificate " + (certificates.size() + 1) + " is not a valid X.509 certificate");
        }
      }
    }
    if (certificates.isEmpty()) {
      throw new PemException(objects.isEmpty() ? "not PEM (no -----BEGIN CERTIFICATE----- block)"
          : "holds no CERTIFICATE block, only " + describe(objects));
    }
    return List.copyOf(certificates);
  }

  /** The one unencrypted private key in {@code text} (PKCS#8, PKCS#1 RSA or SEC1 EC). */
  public static PrivateKey privateKey(String text) {
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
    try {
      return new JcaPEMKeyConverter().getPrivateKey(keys.get(0));
    } catch (PEMException e) {
      // The cause's message could describe key bytes; say only what kind of key it claims to be.
      String oid = keys.get(0).getPrivateKeyAlgorithm().getAlgorithm().getId();
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
