package io.holdfast.xds.server;

import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.util.AdvancedTlsX509KeyManager;
import io.grpc.util.AdvancedTlsX509TrustManager;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS (or mutual TLS) server credentials for the xDS server whose certificate, key and client CAs follow their
 * files without a restart. Pass {@link #credentials()} to {@link XdsServer.Builder#credentials}.
 *
 * <p>Every {@link XdsTls#reloadInterval()} the files are read and hashed; when the bytes differ from the last
 * check they are parsed and checked, and on success installed into grpc's {@link AdvancedTlsX509KeyManager} and
 * {@link AdvancedTlsX509TrustManager}, which every new TLS handshake consults. Open connections keep the
 * session they negotiated: nothing is cut. A bad new set (torn write, key not matching, not PEM) is logged at
 * WARN once and the previous credentials stay in use; the next change is tried again.
 *
 * <p>Why not grpc's own file reloading: it enforces a one-minute minimum period, reloads only when both the key's
 * and the certificate's mtime changed (missing a Kubernetes secret swap that keeps one of them), never reloads
 * CAs alongside, and does not check that the key matches the certificate.
 *
 * <p>Thread-safe. {@link #close()} stops the checks (and the thread it owns, if no scheduler was given); close it
 * after the server.
 */
public final class ReloadingTls implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ReloadingTls.class);

  /** What one check found. */
  public enum Outcome {
    /** The files hold the same bytes as at the previous check (good or bad): nothing done. */
    UNCHANGED,
    /** New files, valid: new handshakes now use them. */
    RELOADED,
    /** New files, unusable: logged, the previous credentials stay in use. */
    REJECTED
  }

  private final XdsTls tls;
  private final Clock clock;
  private final AdvancedTlsX509KeyManager keyManager = new AdvancedTlsX509KeyManager();
  private final AdvancedTlsX509TrustManager trustManager;
  private final ServerCredentials credentials;
  private final ScheduledExecutorService ownedScheduler;
  private final ScheduledFuture<?> checks;
  private byte[] lastSeen; // guarded by this
  private volatile TlsMaterial current;

  private ReloadingTls(Builder builder) {
    this.tls = builder.tls;
    this.clock = builder.clock;
    TlsFiles files = TlsFiles.read(tls);
    TlsMaterial material = TlsMaterial.parse(tls, files, clock.instant());
    this.trustManager = tls.requiresClientCertificate() ? newTrustManager() : null;
    install(material);
    this.lastSeen = files.fingerprint();
    var credentialsBuilder = TlsServerCredentials.newBuilder().keyManager(keyManager);
    if (trustManager != null) {
      credentialsBuilder.trustManager(trustManager).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    this.credentials = credentialsBuilder.build();
    log.info("xDS TLS credentials loaded: {} clientAuth={} reloadInterval={}", describe(material),
        trustManager != null ? "required" : "none", tls.reloadInterval());
    material.warnings().forEach(w -> log.warn("xDS TLS certificate problem, serving anyway: {}", w));
    this.ownedScheduler = builder.scheduler == null ? newScheduler() : null;
    ScheduledExecutorService scheduler = builder.scheduler == null ? ownedScheduler : builder.scheduler;
    long period = tls.reloadInterval().toMillis();
    this.checks = scheduler.scheduleWithFixedDelay(this::scheduledCheck, period, period, TimeUnit.MILLISECONDS);
  }

  /** A builder; {@link Builder#start()} reads the files once and fails if they cannot serve. */
  public static Builder builder(XdsTls tls) {
    return new Builder(tls);
  }

  /** The credentials to serve with; the same object for the life of this instance. */
  public ServerCredentials credentials() {
    return credentials;
  }

  /**
   * The key manager every new handshake consults, for servers that are not gRPC's (the admission webhook's
   * HTTPS server builds a JDK {@link javax.net.ssl.SSLContext} on it): it follows the files like
   * {@link #credentials()}.
   */
  public javax.net.ssl.X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  /** The certificate new handshakes present now, read back from the key manager the handshakes consult. */
  public X509Certificate certificate() {
    // grpc's key manager ignores the key type and issuers: it has one identity (and the one before it).
    return keyManager.getCertificateChain(keyManager.chooseEngineServerAlias(null, null, null))[0];
  }

  /** Checks the files now (as the scheduled check does) and installs them if they changed and are valid. */
  public synchronized Outcome reloadNow() {
    TlsFiles files;
    byte[] seen;
    TlsMaterial material = null;
    XdsTlsException problem = null;
    try {
      files = TlsFiles.read(tls);
      seen = files.fingerprint();
      if (!Arrays.equals(seen, lastSeen)) {
        material = TlsMaterial.parse(tls, files, clock.instant());
      }
    } catch (XdsTlsException e) {
      // A read failure has no bytes to hash: remember the reason, so the same failure is reported once.
      problem = e;
      seen = TlsFiles.fingerprintOf(e.getMessage());
    }
    if (Arrays.equals(seen, lastSeen)) {
      return Outcome.UNCHANGED;
    }
    lastSeen = seen;
    if (problem != null) {
      log.warn("xDS TLS reload rejected, keeping the current credentials: reason=\"{}\" serving={}",
          problem.getMessage(), describe(current));
      return Outcome.REJECTED;
    }
    try {
      install(material);
    } catch (XdsTlsException e) {
      log.warn("xDS TLS reload rejected, keeping the current credentials: reason=\"{}\" serving={}",
          e.getMessage(), describe(current));
      return Outcome.REJECTED;
    }
    log.info("xDS TLS credentials reloaded: {}", describe(material));
    material.warnings().forEach(w -> log.warn("xDS TLS certificate problem, serving anyway: {}", w));
    return Outcome.RELOADED;
  }

  /** Stops the file checks. The credentials keep working for connections that exist. Idempotent. */
  @Override
  public void close() {
    checks.cancel(false);
    if (ownedScheduler != null) {
      ownedScheduler.shutdownNow();
    }
  }

  private void scheduledCheck() {
    try {
      reloadNow();
    } catch (RuntimeException e) {
      // An escaped exception would silently end the fixed-delay schedule: log and keep checking.
      log.warn("xDS TLS reload check failed, keeping the current credentials: error=\"{}\"", e.toString(), e);
    }
  }

  /** Trust first: if it fails nothing has changed, so the identity and the CAs never come from different sets. */
  private void install(TlsMaterial material) {
    if (trustManager != null) {
      try {
        trustManager.updateTrustCredentials(material.clientCas().toArray(X509Certificate[]::new));
      } catch (IOException | GeneralSecurityException e) {
        throw new XdsTlsException(TlsFiles.CLIENT_CA, tls.clientCaFile().orElseThrow(),
            "cannot be used as a trust store (" + e.getMessage() + ")", e);
      }
    }
    keyManager.updateIdentityCredentials(material.chain().toArray(X509Certificate[]::new), material.key());
    current = material;
  }

  private AdvancedTlsX509TrustManager newTrustManager() {
    try {
      // Certificate only: clients are identified by their chain to the CA, not by a host name.
      return AdvancedTlsX509TrustManager.newBuilder()
          .setVerification(AdvancedTlsX509TrustManager.Verification.CERTIFICATE_ONLY_VERIFICATION)
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot create the client certificate trust manager", e);
    }
  }

  private static String describe(TlsMaterial material) {
    X509Certificate leaf = material.leaf();
    return "subject=\"" + leaf.getSubjectX500Principal() + "\" serial=" + leaf.getSerialNumber().toString(16)
        + " notAfter=" + leaf.getNotAfter().toInstant() + " chainLength=" + material.chain().size()
        + " clientCas=" + material.clientCas().size();
  }

  private static ScheduledExecutorService newScheduler() {
    return Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "holdfast-xds-tls-reload");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Options of a {@link ReloadingTls}; optional ones have stated defaults. */
  public static final class Builder {

    private final XdsTls tls;
    private ScheduledExecutorService scheduler;
    private Clock clock = Clock.systemUTC();

    private Builder(XdsTls tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
    }

    /** Runs the periodic checks; default a daemon thread of its own, stopped by {@link ReloadingTls#close()}. */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** Time source for the expiry warnings; default the UTC system clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Reads and checks the files, then schedules the checks.
     *
     * @throws XdsTlsException naming the file and the problem when the files cannot serve
     */
    public ReloadingTls start() {
      return new ReloadingTls(this);
    }
  }
}
