package io.holdfast.pki;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Makes the certificates of Holdfast's xDS mTLS: a self-signed CA, the xDS server's certificate and one client
 * certificate per proxy ({@link ProxyIdentity}), all with ECDSA P-256 keys (the JDK generates them; Envoy, grpc-java
 * and OpenSSL all take them) signed with SHA-256. Leaves carry what verifiers check: basic constraints, key usage
 * {@code digitalSignature}, one extended key usage (server or client auth), key identifiers, and the names in the
 * subject alternative name. The CA may only sign leaves (path length 0). Thread-safe.
 */
public final class CertificateIssuer {

  private static final String SIGNATURE = "SHA256withECDSA";
  private static final SecureRandom RANDOM = new SecureRandom();
  /** RFC 5280 allows serials up to 20 octets; 127 random bits are unique without any bookkeeping. */
  private static final int SERIAL_BITS = 127;
  /** RFC 5280's upper bound on a common name (ub-common-name); BouncyCastle refuses longer ones. */
  public static final int MAX_COMMON_NAME_LENGTH = 64;

  private final IssuedCertificate ca;
  private final X500Name caSubject;

  private CertificateIssuer(IssuedCertificate ca) {
    this.ca = Objects.requireNonNull(ca, "ca");
    this.caSubject = X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded());
  }

  /** An issuer signing with {@code ca}'s key (a CA from {@link #newCa}, or one read back from its files). */
  public static CertificateIssuer signingWith(IssuedCertificate ca) {
    return new CertificateIssuer(ca);
  }

  /** A new self-signed CA named {@code commonName}, valid from {@code notBefore} for {@code validity}. */
  public static IssuedCertificate newCa(String commonName, Instant notBefore, Duration validity) {
    KeyPair keys = newKeyPair();
    X500Name subject = commonName(commonName);
    try {
      JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = builder(subject, subject, keys, notBefore, validity)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(keys.getPublic()));
      return new IssuedCertificate(keys, sign(builder, keys));
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a CA certificate: " + e.getMessage(), e);
    }
  }

  public IssuedCertificate ca() {
    return ca;
  }

  /**
   * The xDS server's certificate: {@code dnsNames} and {@code ipAddresses} (at least one name in all) as subject
   * alternative names, extended key usage server auth.
   */
  public IssuedCertificate server(String commonName, List<String> dnsNames, List<InetAddress> ipAddresses,
      Instant notBefore, Duration validity) {
    List<GeneralName> names = new ArrayList<>();
    dnsNames.forEach(name -> names.add(new GeneralName(GeneralName.dNSName, name)));
    ipAddresses.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip.getHostAddress())));
    if (names.isEmpty()) {
      throw new IllegalArgumentException("a server certificate needs at least one DNS name or IP address");
    }
    return leaf(commonName, names, KeyPurposeId.id_kp_serverAuth, notBefore, validity);
  }

  /**
   * A proxy's client certificate: its SPIFFE ID as the one URI SAN, extended key usage client auth, and its name as
   * common name when it fits one ({@value #MAX_COMMON_NAME_LENGTH} characters). A longer name is never cut to fit:
   * a cut name could be another proxy's, so such a certificate has an empty subject and only the URI SAN names it.
   */
  public IssuedCertificate proxy(ProxyIdentity identity, Instant notBefore, Duration validity) {
    URI id = identity.spiffeId();
    String name = identity.proxyName();
    return leaf(name.length() <= MAX_COMMON_NAME_LENGTH ? name : null,
        List.of(new GeneralName(GeneralName.uniformResourceIdentifier, id.toString())),
        KeyPurposeId.id_kp_clientAuth, notBefore, validity);
  }

  /** @param commonName null for an empty subject, which makes the subject alternative name critical (RFC 5280) */
  private IssuedCertificate leaf(String commonName, List<GeneralName> names, KeyPurposeId purpose, Instant notBefore,
      Duration validity) {
    KeyPair keys = newKeyPair();
    X500Name subject = commonName == null ? new X500Name(new org.bouncycastle.asn1.x500.RDN[0])
        : commonName(commonName);
    try {
      JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = builder(caSubject, subject, keys, notBefore, validity)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
          .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose))
          .addExtension(Extension.subjectAlternativeName, commonName == null,
              new GeneralNames(names.toArray(GeneralName[]::new)))
          .addExtension(Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(keys.getPublic()))
          .addExtension(Extension.authorityKeyIdentifier, false,
              utils.createAuthorityKeyIdentifier(ca.certificate()));
      return new IssuedCertificate(keys, sign(builder, ca.keys()));
    } catch (CertIOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a certificate for " + names + ": " + e.getMessage(), e);
    }
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys, Instant notBefore,
      Duration validity) {
    if (validity.isNegative() || validity.isZero()) {
      throw new IllegalArgumentException("validity must be positive, got " + validity);
    }
    BigInteger serial = new BigInteger(SERIAL_BITS, RANDOM).setBit(0);
    return new JcaX509v3CertificateBuilder(issuer, serial, Date.from(notBefore), Date.from(notBefore.plus(validity)),
        subject, keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer) {
    try {
      X509CertificateHolder holder = builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer.getPrivate()));
      return new JcaX509CertificateConverter().getCertificate(holder);
    } catch (OperatorCreationException | CertificateException e) {
      throw new IllegalStateException("cannot sign a certificate: " + e.getMessage(), e);
    }
  }

  private static X500Name commonName(String commonName) {
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName).build();
  }

  private static KeyPair newKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK cannot generate P-256 keys: " + e.getMessage(), e);
    }
  }
}
