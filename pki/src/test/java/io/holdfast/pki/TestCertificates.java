package io.holdfast.pki;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Throwaway certificates made at test time with BouncyCastle: nothing is checked in. Keys come from the JDK; PEM
 * comes out in every form a test needs (PKCS#8, or the traditional PKCS#1 RSA and SEC1 EC forms cert-manager and
 * OpenSSL write).
 */
public final class TestCertificates {

  private static final java.security.Provider BOUNCY_CASTLE =
      new org.bouncycastle.jce.provider.BouncyCastleProvider();
  private static final AtomicLong SERIALS = new AtomicLong(0x1000);
  public static final Duration LIFETIME = Duration.ofDays(1);

  private TestCertificates() {
  }

  /** A key pair and the certificate for it. */
  public record Issued(KeyPair keys, X509Certificate certificate) {

    public X500Name subject() {
      return X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
    }

    public String certificatePem() {
      return pem(certificate);
    }

    /** The key as unencrypted PKCS#8 ({@code BEGIN PRIVATE KEY}). */
    public String privateKeyPem() {
      try {
        return pem(new JcaPKCS8Generator(keys.getPrivate(), null).generate());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The key in OpenSSL's traditional form: PKCS#1 {@code RSA PRIVATE KEY} or SEC1 {@code EC PRIVATE KEY}. */
    public String traditionalPrivateKeyPem() {
      if (!keys.getPrivate().getAlgorithm().equals("EC")) {
        return pem(keys.getPrivate());
      }
      // The JDK's PKCS#8 keeps the curve outside the SEC1 structure; OpenSSL's SEC1 names it inside: do the same.
      PrivateKeyInfo info = PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
      try {
        ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
        int orderBits = ((java.security.interfaces.ECKey) keys.getPrivate()).getParams().getOrder().bitLength();
        ECPrivateKey sec1 = new ECPrivateKey(orderBits, inner.getKey(),
            SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded()).getPublicKeyData(),
            info.getPrivateKeyAlgorithm().getParameters());
        return pem(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A self-signed CA with an EC P-256 key, valid from a minute ago for {@link #LIFETIME}. */
  public static Issued ca(String commonName) {
    KeyPair keys = ec();
    return new Issued(keys, sign(keys, new X500Name("CN=" + commonName), keys, new X500Name("CN=" + commonName),
        true, List.of(), Instant.now().minusSeconds(60), LIFETIME));
  }

  /** A leaf for {@code dnsNames} (and 127.0.0.1) issued by {@code ca}, with an EC P-256 key. */
  public static Issued leaf(Issued ca, String commonName, String... dnsNames) {
    return leaf(ca, commonName, ec(), Instant.now().minusSeconds(60), LIFETIME, dnsNames);
  }

  public static Issued leaf(Issued ca, String commonName, KeyPair keys, Instant notBefore, Duration lifetime,
      String... dnsNames) {
    return new Issued(keys, sign(keys, new X500Name("CN=" + commonName), ca.keys(), ca.subject(), false,
        List.of(dnsNames), notBefore, lifetime));
  }

  public static KeyPair ec() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static KeyPair rsa() {
    return rsa(2048);
  }

  public static KeyPair rsa(int bits) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(bits);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * An EC key pair on {@code curve} (a SEC name: secp256r1, secp384r1, secp521r1, secp256k1), generated by
   * BouncyCastle's provider (an instance, never registered): the JDK no longer generates every curve.
   */
  public static KeyPair ec(String curve) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", BOUNCY_CASTLE);
      generator.initialize(new ECGenParameterSpec(curve));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  public static KeyPair ed25519() {
    try {
      return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Any object BouncyCastle's PEM writer knows (certificates, keys, PKCS#8 objects) as PEM text. */
  public static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static X509Certificate sign(KeyPair subjectKeys, X500Name subject, KeyPair issuerKeys, X500Name issuer,
      boolean ca, List<String> dnsNames, Instant notBefore, Duration lifetime) {
    try {
      JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
          BigInteger.valueOf(SERIALS.incrementAndGet()), Date.from(notBefore), Date.from(notBefore.plus(lifetime)),
          subject, subjectKeys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
      if (!ca) {
        List<GeneralName> names = new ArrayList<>();
        names.add(new GeneralName(GeneralName.dNSName, "localhost"));
        dnsNames.forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
        names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        builder.addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(names.toArray(GeneralName[]::new)));
      }
      String algorithm = issuerKeys.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
      org.bouncycastle.cert.X509CertificateHolder holder =
          builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKeys.getPrivate()));
      try {
        return new JcaX509CertificateConverter().getCertificate(holder);
      } catch (java.security.cert.CertificateException e) {
        // A subject key the JDK cannot read (secp256k1): BouncyCastle's provider can.
        return new JcaX509CertificateConverter().setProvider(BOUNCY_CASTLE).getCertificate(holder);
      }
    } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
