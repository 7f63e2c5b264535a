package io.holdfast.xds.server;

import io.holdfast.pki.Keys;
import io.holdfast.pki.Pem;
import io.holdfast.pki.PemException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Parsed, checked TLS material: the key, its certificate chain, the client CAs (empty for plain TLS), and
 * warnings that do not stop serving (an expired or not-yet-valid certificate: refusing to start would turn an
 * expiry into an outage of the control plane as well, and clients decide whether they accept it).
 */
record TlsMaterial(PrivateKey key, List<X509Certificate> chain, List<X509Certificate> clientCas,
    List<String> warnings) {

  TlsMaterial {
    chain = List.copyOf(chain);
    clientCas = List.copyOf(clientCas);
    warnings = List.copyOf(warnings);
  }

  /** The server's own certificate. */
  X509Certificate leaf() {
    return chain.get(0);
  }

  /**
   * Parses {@code files} (any PEM key form {@link Pem} reads); throws {@link XdsTlsException} naming the file for
   * anything that cannot serve.
   */
  static TlsMaterial parse(XdsTls tls, TlsFiles files, Instant now) {
    List<X509Certificate> chain = certificates(TlsFiles.CHAIN, tls.certificateChainFile(), files.chain);
    PrivateKey key;
    try {
      key = Pem.privateKey(ascii(files.key));
    } catch (PemException e) {
      throw new XdsTlsException(TlsFiles.KEY, tls.privateKeyFile(), e.getMessage());
    }
    if (!Keys.matches(key, chain.get(0).getPublicKey())) {
      throw new XdsTlsException(TlsFiles.KEY, tls.privateKeyFile(), "does not match the first certificate in "
          + tls.certificateChainFile() + " (" + chain.get(0).getSubjectX500Principal() + ")");
    }
    List<X509Certificate> cas = files.clientCa
        .map(bytes -> certificates(TlsFiles.CLIENT_CA, tls.clientCaFile().orElseThrow(), bytes))
        .orElse(List.of());
    List<String> warnings = new ArrayList<>();
    validity(TlsFiles.CHAIN + " file " + tls.certificateChainFile(), chain, now, warnings);
    tls.clientCaFile().ifPresent(path -> validity(TlsFiles.CLIENT_CA + " file " + path, cas, now, warnings));
    return new TlsMaterial(key, chain, cas, warnings);
  }

  private static List<X509Certificate> certificates(String role, Path path, byte[] bytes) {
    try {
      return Pem.certificates(ascii(bytes));
    } catch (PemException e) {
      throw new XdsTlsException(role, path, e.getMessage());
    }
  }

  /** PEM is ASCII; any other byte is not PEM, and decoding it as ISO-8859-1 keeps it from looking like PEM. */
  private static String ascii(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  private static void validity(String where, List<X509Certificate> certificates, Instant now,
      List<String> warnings) {
    for (int i = 0; i < certificates.size(); i++) {
      X509Certificate certificate = certificates.get(i);
      String which = where + ": certificate " + (i + 1) + " (" + certificate.getSubjectX500Principal() + ")";
      Keys.validityProblem(certificate, now).ifPresent(problem -> warnings.add(which + " " + problem));
    }
  }
}
