package io.holdfast.xds.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the xDS server's TLS material lives. Plain TLS when {@code clientCaFile} is empty; mutual TLS when it is
 * set: every client must then present a certificate that chains to one of the CAs in that bundle.
 *
 * <p>This is a value: it names files and does not read them. {@link ReloadingTls.Builder#start()} reads and
 * checks them, failing with an {@link XdsTlsException} that names the file and the problem.
 *
 * @param certificateChainFile PEM, one or more {@code CERTIFICATE} blocks, the server's own certificate first
 * @param privateKeyFile       PEM, one unencrypted PKCS#8 {@code PRIVATE KEY} block, RSA or EC, matching the
 *                             first certificate
 * @param clientCaFile         PEM bundle of CA certificates that client certificates must chain to; empty means
 *                             client certificates are not asked for
 * @param reloadInterval       how often the files are checked for changes; > 0
 */
public record XdsTls(Path certificateChainFile, Path privateKeyFile, Optional<Path> clientCaFile,
    Duration reloadInterval) {

  /** Default check period: quick enough to follow a Kubernetes secret rotation, cheap (three small reads). */
  public static final Duration DEFAULT_RELOAD_INTERVAL = Duration.ofSeconds(10);

  public XdsTls {
    Objects.requireNonNull(certificateChainFile, "certificateChainFile");
    Objects.requireNonNull(privateKeyFile, "privateKeyFile");
    Objects.requireNonNull(clientCaFile, "clientCaFile");
    Objects.requireNonNull(reloadInterval, "reloadInterval");
    if (reloadInterval.isNegative() || reloadInterval.isZero()) {
      throw new IllegalArgumentException("reloadInterval must be > 0, was " + reloadInterval);
    }
  }

  /** Server-authenticated TLS: clients are not asked for a certificate. Default reload interval. */
  public static XdsTls serverOnly(Path certificateChainFile, Path privateKeyFile) {
    return new XdsTls(certificateChainFile, privateKeyFile, Optional.empty(), DEFAULT_RELOAD_INTERVAL);
  }

  /** Mutual TLS: clients must present a certificate issued by a CA in {@code clientCaFile}. */
  public static XdsTls mutual(Path certificateChainFile, Path privateKeyFile, Path clientCaFile) {
    return new XdsTls(certificateChainFile, privateKeyFile,
        Optional.of(Objects.requireNonNull(clientCaFile, "clientCaFile")), DEFAULT_RELOAD_INTERVAL);
  }

  public XdsTls withReloadInterval(Duration interval) {
    return new XdsTls(certificateChainFile, privateKeyFile, clientCaFile, interval);
  }

  /** Whether clients must present a certificate (mutual TLS). */
  public boolean requiresClientCertificate() {
    return clientCaFile.isPresent();
  }
}
