package io.holdfast.pki;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Optional;

/** Checks on a key and its certificate. Stateless and thread-safe. */
public final class Keys {

  private static final byte[] CHALLENGE = "holdfast key check".getBytes(StandardCharsets.US_ASCII);

  private Keys() {
  }

  /**
   * Whether {@code key} is the private half of {@code certificateKey}: proven by signing with one and verifying
   * with the other, which works for RSA, EC and EdDSA alike.
   */
  public static boolean matches(PrivateKey key, PublicKey certificateKey) {
    Optional<String> algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> Optional.of("SHA256withRSA");
      case "EC" -> Optional.of("SHA256withECDSA");
      case "Ed25519", "Ed448", "EdDSA" -> Optional.of(key.getAlgorithm());
      default -> Optional.empty();
    };
    if (algorithm.isEmpty()) {
      return false;
    }
    try {
      Signature signer = Signature.getInstance(algorithm.get());
      signer.initSign(key);
      signer.update(CHALLENGE);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm.get());
      verifier.initVerify(certificateKey);
      verifier.update(CHALLENGE);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false; // another algorithm than the certificate's, or a key the signature rejects: no match
    }
  }

  /** Why {@code certificate} is not valid at {@code now} (expired, not yet valid), or empty if it is. */
  public static Optional<String> validityProblem(X509Certificate certificate, Instant now) {
    Instant notAfter = certificate.getNotAfter().toInstant();
    Instant notBefore = certificate.getNotBefore().toInstant();
    if (now.isAfter(notAfter)) {
      return Optional.of("expired at " + notAfter);
    }
    if (now.isBefore(notBefore)) {
      return Optional.of("is not valid before " + notBefore);
    }
    return Optional.empty();
  }
}
