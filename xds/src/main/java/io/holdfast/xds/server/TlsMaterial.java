package io.holdfast.xds.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parsed, checked TLS material: the key, its certificate chain, the client CAs (empty for plain TLS), and
 * warnings that do not stop serving (an expired or not-yet-valid certificate: refusing to start would turn an
 * expiry into an outage of the control plane as well, and clients decide whether they accept it).
 */
record TlsMaterial(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> clientCas,
    List<String> warnings) {

  private static final byte[] CHALLENGE = "holdfast xds key check".getBytes(StandardCharsets.US_ASCII);

  TlsMaterial {
    chain = List.copyOf(chain);
    clientCas = List.copyOf(clientCas);
    warnings = List.copyOf(warnings);
  }

  /** The server's own certificate. */
  X509Certificate leaf() {
    return chain.get(0);
  }

  /** Parses {@code files}; throws {@link XdsTlsException} naming the file for anything that cannot serve. */
  static TlsMaterial parse(XdsTls tls, TlsFiles files, Instant now) {
    List<X509Certificate> chain = Pem.certificates(TlsFiles.CHAIN, tls.certificateChainFile(), files.chain);
    PrivateKey key = Pem.privateKey(TlsFiles.KEY, tls.privateKeyFile(), files.key);
    if (!matches(key, chain.get(0).getPublicKey())) {
      throw new XdsTlsException(TlsFiles.KEY, tls.privateKeyFile(), "does not match the first certificate in "
          + tls.certificateChainFile() + " (" + chain.get(0).getSubjectX500Principal() + ")");
    }
    List<X509Certificate> cas = files.clientCa
        .map(bytes -> Pem.certificates(TlsFiles.CLIENT_CA, tls.clientCaFile().orElseThrow(), bytes))
        .orElse(List.of());
    List<String> warnings = new ArrayList<>();
    validity(TlsFiles.CHAIN + " file " + tls.certificateChainFile(), chain, now, warnings);
    tls.clientCaFile().ifPresent(path -> validity(TlsFiles.CLIENT_CA + " file " + path, cas, now, warnings));
    return new TlsMaterial(key, chain, cas, warnings);
  }

  /** Proves the pair by signing with the key and verifying with the certificate's key: works for RSA and EC. */
  private static boolean matches(PrivateKey key, PublicKey certificateKey) {
    Optional<String> algorithm = switch (key.getAlgorithm()) {
      case "RSA" -> Optional.of("SHA256withRSA");
      case "EC" -> Optional.of("SHA256withECDSA");
      default -> Optional.empty();
    };
    if (algorithm.isEmpty() || !key.getAlgorithm().equals(certificateKey.getAlgorithm())) {
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
      return false;
    }
  }

  private static void validity(String where, List<X509Certificate> certificates, Instant now,
      List<String> warnings) {
    for (int i = 0; i < certificates.size(); i++) {
      X509Certificate certificate = certificates.get(i);
      String which = where + ": certificate " + (i + 1) + " (" + certificate.getSubjectX500Principal() + ")";
      if (now.isAfter(certificate.getNotAfter().toInstant())) {
        warnings.add(which + " expired at " + certificate.getNotAfter().toInstant());
      } else if (now.isBefore(certificate.getNotBefore().toInstant())) {
        warnings.add(which + " is not valid before " + certificate.getNotBefore().toInstant());
      }
    }
  }
}
