package io.holdfast.pki;

import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.edec.EdECObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.pkcs.RSAPrivateKey;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X962Parameters;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

/**
 * The key types Envoy serves a certificate with: RSA of {@value #MIN_RSA_BITS} bits or more, and ECDSA on P-256,
 * P-384 or P-521. Envoy refuses the whole TLS context otherwise (its TLS context checks the leaf's key: "only RSA
 * certificates with 2048-bit or larger keys are supported", "only P-256, P-384 or P-521 ECDSA certificates are
 * supported", "only RSA and ECDSA certificates are supported"), so the listener a Holdfast config asked for would
 * never come up. Judged on the DER structures, before the JDK reads the key: the JDK cannot read some keys at
 * all (secp256k1), and the answer must name the type rather than say "unreadable". Messages name the type and
 * size, never key material. Stateless and thread-safe.
 */
final class KeyTypes {

  /** Envoy's floor for RSA keys (BoringSSL-based builds and FIPS alike). */
  static final int MIN_RSA_BITS = 2048;
  static final String ENVOY_LOADS = "Envoy loads only RSA keys of " + MIN_RSA_BITS
      + " bits or more and ECDSA keys on P-256, P-384 or P-521";

  private static final Map<ASN1ObjectIdentifier, String> CURVES = Map.of(
      SECObjectIdentifiers.secp256r1, "P-256",
      SECObjectIdentifiers.secp384r1, "P-384",
      SECObjectIdentifiers.secp521r1, "P-521");

  private static final Map<String, String> OTHER_TYPES = Map.of(
      EdECObjectIdentifiers.id_Ed25519.getId(), "an Ed25519",
      EdECObjectIdentifiers.id_Ed448.getId(), "an Ed448",
      EdECObjectIdentifiers.id_X25519.getId(), "an X25519",
      EdECObjectIdentifiers.id_X448.getId(), "an X448",
      PKCSObjectIdentifiers.id_RSASSA_PSS.getId(), "an RSASSA-PSS",
      X9ObjectIdentifiers.id_dsa.getId(), "a DSA");

  private KeyTypes() {
  }

  /** Why Envoy would not serve with the public key of a certificate, or empty if it would. */
  static Optional<String> problem(SubjectPublicKeyInfo key) {
    return problem(key.getAlgorithm(), () -> org.bouncycastle.asn1.pkcs.RSAPublicKey.getInstance(
        key.parsePublicKey()).getModulus());
  }

  /** Why Envoy would not serve with a private key, or empty if it would. */
  static Optional<String> problem(PrivateKeyInfo key) {
    return problem(key.getPrivateKeyAlgorithm(), () -> RSAPrivateKey.getInstance(key.parsePrivateKey())
        .getModulus());
  }

  private interface Modulus {
    BigInteger read() throws java.io.IOException;
  }

  private static Optional<String> problem(AlgorithmIdentifier algorithm, Modulus modulus) {
    ASN1ObjectIdentifier oid = algorithm.getAlgorithm();
    if (oid.equals(PKCSObjectIdentifiers.rsaEncryption)) {
      int bits;
      try {
        bits = modulus.read().bitLength();
      } catch (java.io.IOException | RuntimeException e) {
        return Optional.of("an RSA key that cannot be read");
      }
      return bits >= MIN_RSA_BITS ? Optional.empty()
          : Optional.of("an RSA key of " + bits + " bits; " + ENVOY_LOADS);
    }
    if (oid.equals(X9ObjectIdentifiers.id_ecPublicKey)) {
      return curveProblem(algorithm.getParameters());
    }
    return Optional.of(OTHER_TYPES.getOrDefault(oid.getId(), "a key of algorithm " + oid.getId()) + " key; "
        + ENVOY_LOADS);
  }

  private static Optional<String> curveProblem(ASN1Encodable parameters) {
    X962Parameters curve;
    try {
      curve = parameters == null ? null : X962Parameters.getInstance(parameters);
    } catch (RuntimeException e) {
      curve = null;
    }
    if (curve == null || !curve.isNamedCurve()) {
      return Optional.of("an ECDSA key without a named curve (" + (curve == null ? "no curve given"
          : "explicit curve parameters") + "); " + ENVOY_LOADS);
    }
    ASN1ObjectIdentifier named = ASN1ObjectIdentifier.getInstance(curve.getParameters());
    if (CURVES.containsKey(named)) {
      return Optional.empty();
    }
    String name = ECNamedCurveTable.getName(named);
    return Optional.of("an ECDSA key on curve " + (name == null ? named.getId() : name) + "; " + ENVOY_LOADS);
  }
}
