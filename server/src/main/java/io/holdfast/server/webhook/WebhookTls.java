package io.holdfast.server.webhook;

import io.holdfast.xds.server.ReloadingTls;
import io.holdfast.xds.server.XdsTls;
import io.holdfast.xds.server.XdsTlsException;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The webhook's certificate and key, read and followed by the xDS server's {@link ReloadingTls} (same file
 * checks, same reload on change), behind a key manager the HTTPS server can hold from the start.
 *
 * <p>Unlike the xDS server's TLS, files that are missing or unusable at start do not stop the replica: the
 * webhook is a side door, and cert-manager may issue its Secret after the pod started (the volume is optional).
 * Until the files load, every handshake fails (the API server then applies the webhook's failure policy) and a
 * check retries every reload interval, logging a new reason once. Thread-safe.
 */
final class WebhookTls extends X509ExtendedKeyManager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WebhookTls.class);

  private final XdsTls files;
  private final ScheduledExecutorService scheduler;
  private volatile ReloadingTls loaded;
  private ScheduledFuture<?> retries; // guarded by this
  private String lastProblem; // guarded by this
  private boolean closed; // guarded by this

  WebhookTls(XdsTls files, ScheduledExecutorService scheduler) {
    this.files = Objects.requireNonNull(files, "files");
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    synchronized (this) {
      if (!tryLoad()) {
        long period = files.reloadInterval().toMillis();
        retries = scheduler.scheduleWithFixedDelay(this::retry, period, period, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** Whether a certificate is loaded (handshakes can succeed). */
  boolean isLoaded() {
    return loaded != null;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (retries != null) {
      retries.cancel(false);
    }
    if (loaded != null) {
      loaded.close();
    }
  }

  private synchronized void retry() {
    if (!closed && tryLoad()) {
      retries.cancel(false);
    }
  }

  /** Called with the lock held. */
  private boolean tryLoad() {
    try {
      loaded = ReloadingTls.builder(files).scheduler(scheduler).start();
      log.info("webhook TLS loaded certificate={} key={}", files.certificateChainFile(), files.privateKeyFile());
      return true;
    } catch (XdsTlsException e) {
      if (!e.getMessage().equals(lastProblem)) {
        log.warn("webhook TLS not loaded, TLS handshakes fail until it is; retrying every {}: {}",
            files.reloadInterval(), e.getMessage());
        lastProblem = e.getMessage();
      }
      return false;
    } catch (RuntimeException e) {
      log.warn("webhook TLS not loaded, retrying every {}", files.reloadInterval(), e);
      return false;
    }
  }

  private X509ExtendedKeyManager delegate() {
    ReloadingTls tls = loaded;
    return tls == null ? null : tls.keyManager();
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    X509ExtendedKeyManager d = delegate();
    return d == null ? null : d.chooseEngineServerAlias(keyType, issuers, engine);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    X509ExtendedKeyManager d = delegate();
    return d == null ? null : d.chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    X509ExtendedKeyManager d = delegate();
    return d == null ? null : d.getServerAliases(keyType, issuers);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    X509ExtendedKeyManager d = delegate();
    return d == null ? null : d.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    X509ExtendedKeyManager d = delegate();
    return d == null ? null : d.getPrivateKey(alias);
  }

  /** A server never acts as a TLS client. */
  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return null;
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return null;
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return null;
  }
}
