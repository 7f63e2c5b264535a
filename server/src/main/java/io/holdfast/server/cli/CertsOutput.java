package io.holdfast.server.cli;

import io.holdfast.pki.CertificateIssuer;
import io.holdfast.pki.IssuedCertificate;
import io.holdfast.pki.Keys;
import io.holdfast.pki.Pem;
import io.holdfast.pki.ProxyIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Makes and writes what a {@link CertsPlan} asks for. Every target is checked before anything is made, so a refusal
 * (files exist, no {@code --force}) writes nothing; each file is written to a temporary file with its final mode
 * and then moved into place, so a key is never readable by others, not even while it is written.
 */
final class CertsOutput {
  static final String CA_CERT = "ca.crt";
  static final String CA_KEY = "ca.key";
  static final String SERVER_CERT = "server.crt";
  static final String SERVER_KEY = "server.key";
  static final String SNAPSHOT_KEY = "snapshot.key";
  static final String SECRETS_FILE = "secrets.yaml";
  static final String CA_COMMON_NAME = "Holdfast xDS CA";
  static final String SERVER_COMMON_NAME = "holdfast-xds";
  /** File stems longer than this end in a hash instead: the proxy name's 253 characters exceed file name limits. */
  static final int MAX_STEM = 200;

  private static final String PRIVATE = "rw-------";
  private static final String PUBLIC = "rw-r--r--";
  private static final SecureRandom RANDOM = new SecureRandom();

  private CertsOutput() {
  }

  /** Files to replace exist and {@code --force} was not given: nothing was written. */
  static final class ExistingFilesException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ExistingFilesException(String message) {
      super(message);
    }
  }

  /** A file to write: its text and whether it holds a secret (mode 0600, else 0644). */
  private record Content(String text, boolean secret) {
  }

  /**
   * Makes the CA, the certificates and the optional key and manifests, and writes them into the plan's directory.
   *
   * @return the files written, in order
   * @throws ExistingFilesException if a target exists and the plan does not force
   */
  static List<Path> write(CertsPlan plan, Instant notBefore) throws IOException {
    List<String> names = targets(plan);
    if (!plan.force()) {
      List<String> existing = names.stream().filter(n -> Files.exists(plan.outputDir().resolve(n))).toList();
      if (!existing.isEmpty()) {
        throw new ExistingFilesException("--output-dir " + plan.outputDir() + " already has " + String.join(", ",
            existing) + ": use --force to replace them, or another --output-dir");
      }
    }
    Map<String, Content> files = make(plan, notBefore);
    if (!files.keySet().equals(new LinkedHashSet<>(names))) {
      throw new IllegalStateException("made " + files.keySet() + ", planned " + names);
    }
    if (!Files.isDirectory(plan.outputDir())) {
      Files.createDirectories(plan.outputDir(), PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    }
    List<Path> written = new ArrayList<>();
    for (var e : files.entrySet()) {
      written.add(writeFile(plan.outputDir().resolve(e.getKey()), e.getValue(), plan.force()));
    }
    return written;
  }

  /** The file names the plan writes, in order. */
  static List<String> targets(CertsPlan plan) {
    List<String> out = new ArrayList<>(plan.reuseCa() ? List.of(SERVER_CERT, SERVER_KEY)
        : List.of(CA_CERT, CA_KEY, SERVER_CERT, SERVER_KEY));
    for (ProxyIdentity proxy : plan.proxies()) {
      out.add(proxyFile(proxy, ".crt"));
      out.add(proxyFile(proxy, ".key"));
    }
    if (plan.snapshotKey()) {
      out.add(SNAPSHOT_KEY);
    }
    plan.secrets().ifPresent(s -> out.add(SECRETS_FILE));
    return out;
  }

  private static Map<String, Content> make(CertsPlan plan, Instant notBefore) {
    Map<String, Content> files = new LinkedHashMap<>();
    IssuedCertificate ca;
    if (plan.reuseCa()) {
      ca = existingCa(plan.outputDir(), notBefore.plus(plan.validity()));
    } else {
      ca = CertificateIssuer.newCa(CA_COMMON_NAME, notBefore, plan.caValidity());
      files.put(CA_CERT, new Content(ca.certificatePem(), false));
      files.put(CA_KEY, new Content(ca.privateKeyPem(), true));
    }
    CertificateIssuer issuer = CertificateIssuer.signingWith(ca);
    IssuedCertificate server = issuer.server(SERVER_COMMON_NAME, plan.serverDnsNames(), plan.serverAddresses(),
        notBefore, plan.validity());
    files.put(SERVER_CERT, new Content(server.certificatePem(), false));
    files.put(SERVER_KEY, new Content(server.privateKeyPem(), true));
    Map<ProxyIdentity, IssuedCertificate> proxies = new LinkedHashMap<>();
    for (ProxyIdentity proxy : plan.proxies()) {
      IssuedCertificate issued = issuer.proxy(proxy, notBefore, plan.validity());
      proxies.put(proxy, issued);
      files.put(proxyFile(proxy, ".crt"), new Content(issued.certificatePem(), false));
      files.put(proxyFile(proxy, ".key"), new Content(issued.privateKeyPem(), true));
    }
    String snapshotKey = null;
    if (plan.snapshotKey()) {
      byte[] key = new byte[32];
      RANDOM.nextBytes(key);
      snapshotKey = Base64.getEncoder().encodeToString(key) + "\n";
      files.put(SNAPSHOT_KEY, new Content(snapshotKey, true));
    }
    if (plan.secrets().isPresent()) {
      files.put(SECRETS_FILE, new Content(CertSecrets.yaml(plan.secrets().get(), ca, server, proxies, snapshotKey),
          true));
    }
    return files;
  }

  /**
   * The CA of an earlier run, read back from {@code dir}.
   *
   * @throws IllegalArgumentException naming {@code --reuse-ca} if the files are missing or unreadable, the key is
   *     not the certificate's, the certificate is no CA, or it expires before {@code lastNotAfter}
   */
  private static IssuedCertificate existingCa(Path dir, Instant lastNotAfter) {
    X509Certificate certificate;
    PrivateKey key;
    try {
      certificate = Pem.certificates(Files.readString(dir.resolve(CA_CERT),
          StandardCharsets.US_ASCII)).get(0);
      key = Pem.privateKey(Files.readString(dir.resolve(CA_KEY), StandardCharsets.US_ASCII));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("--reuse-ca: cannot read " + dir.resolve(CA_CERT) + " and " + CA_KEY + ": "
          + (e instanceof IOException io ? io.getClass().getSimpleName() + " " + io.getMessage() : e.getMessage()));
    }
    if (!Keys.matches(key, certificate.getPublicKey())) {
      throw new IllegalArgumentException("--reuse-ca: " + CA_KEY + " is not the key of " + CA_CERT);
    }
    if (certificate.getBasicConstraints() < 0) {
      throw new IllegalArgumentException("--reuse-ca: " + CA_CERT + " is not a CA certificate");
    }
    if (certificate.getNotAfter().toInstant().isBefore(lastNotAfter)) {
      throw new IllegalArgumentException("--reuse-ca: " + CA_CERT + " expires " + certificate.getNotAfter()
          .toInstant() + ", before certificates of --validity-days would: lower it, or make a new CA");
    }
    return new IssuedCertificate(new KeyPair(certificate.getPublicKey(), key), certificate);
  }

  private static Path writeFile(Path target, Content content, boolean replace) throws IOException {
    Path temporary = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(content.secret() ? PRIVATE : PUBLIC)));
    try {
      Files.writeString(temporary, content.text(), StandardCharsets.US_ASCII);
      if (replace) {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } else {
        // No ATOMIC_MOVE here: with it, a target made since the check would be replaced silently.
        Files.move(temporary, target);
      }
    } catch (FileAlreadyExistsException e) {
      throw new ExistingFilesException("--output-dir: " + target + " appeared while writing: use --force to"
          + " replace it");
    } finally {
      Files.deleteIfExists(temporary);
    }
    return target;
  }

  static String proxyFile(ProxyIdentity proxy, String extension) {
    return "proxy-" + stem(proxy.proxyName()) + extension;
  }

  static String proxySecretName(ProxyIdentity proxy) {
    return "holdfast-proxy-" + stem(proxy.proxyName());
  }

  /**
   * The proxy name as a file name and Secret name part: lower case, every other character than a letter or digit
   * a '-', no '-' at either end, and past {@link #MAX_STEM} characters cut and ended with a hash of the name.
   */
  static String stem(String proxyName) {
    String mapped = proxyName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "-").replaceAll("^-+|-+$", "");
    if (mapped.isEmpty()) {
      mapped = "proxy";
    }
    if (mapped.length() > MAX_STEM) {
      mapped = mapped.substring(0, MAX_STEM - 9) + "-" + sha256(proxyName).substring(0, 8);
    }
    return mapped;
  }

  /**
   * @throws IllegalArgumentException naming two proxies whose names map to the same files and Secret (e.g.
   *     {@code team/edge} and {@code team-edge})
   */
  static void checkDistinctProxyFiles(List<ProxyIdentity> proxies) {
    Map<String, String> seen = new HashMap<>();
    for (ProxyIdentity proxy : proxies) {
      String other = seen.putIfAbsent(stem(proxy.proxyName()), proxy.proxyName());
      if (other != null) {
        throw new IllegalArgumentException("--proxy: '" + other + "' and '" + proxy.proxyName() + "' would share the"
            + " files " + proxyFile(proxy, ".crt/.key") + " and the Secret " + proxySecretName(proxy)
            + ": run certs once per name with its own --output-dir");
      }
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
          text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
