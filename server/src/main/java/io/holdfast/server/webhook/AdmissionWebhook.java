package io.holdfast.server.webhook;

import com.sun.net.httpserver.HttpsServer;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.server.http.DaemonThreads;
import io.holdfast.server.http.GuardedExecutor;
import io.holdfast.xds.server.XdsTls;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validating admission webhook: {@code POST /validate} over HTTPS answers {@code AdmissionReview} v1 for the
 * Holdfast kinds (see {@link AdmissionCheck} for the judgement). Every replica serves it, leader or not: the
 * judgement reads only the replica's own view and writes nothing.
 *
 * <p>Bounds: a body larger than {@link Builder#maxRequestBytes} (default 3 MiB, the API server's own limit on an
 * object) is refused with 413 without being read; a request not answered within {@link Builder#requestTimeout}
 * (default 10 s, the API server's default webhook timeout) has its connection closed; one check over its
 * wall-clock or CPU budget ({@link InputLimits#webhookCheckTime()}, {@link InputLimits#webhookCheckCpuTime()}) is
 * denied and its answering thread freed ({@link CheckBudget}). The certificate follows
 * its files ({@link WebhookTls}).
 *
 * <p>Slow clients: connections are read by {@link Builder#connectionThreads} workers (default 16), and one that
 * has not completed its TLS handshake and request headers within {@link Builder#headerTimeout} (default 5 s) is
 * closed ({@link GuardedExecutor}), so a few clients that open connections and stall cannot hold the workers the
 * API server's reviews need. At most {@link Builder#threads} checks run at once; further reviews wait for one up
 * to the request timeout. TLS 1.2 is limited to ECDHE with AEAD suites ({@link WebhookCiphers}).
 */
public final class AdmissionWebhook implements AutoCloseable {
  public static final String PATH = "/validate";
  public static final int DEFAULT_MAX_REQUEST_BYTES = 3 * 1024 * 1024;
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  /** The API server completes a handshake and sends its headers at once; 5 s leaves room for a loaded node. */
  public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(5);
  /** Workers reading connections: enough that a dozen stalled clients leave room for the API server's calls. */
  public static final int DEFAULT_CONNECTION_THREADS = 16;
  /** See {@link #boundJdkHttpServerTimes()}. */
  static final Duration JDK_EXCHANGE_BOUND = Duration.ofSeconds(30);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);
  private static final Logger log = LoggerFactory.getLogger(AdmissionWebhook.class);

  private final HttpsServer server;
  private final InetSocketAddress bound;
  private final GuardedExecutor httpPool;
  private final ScheduledExecutorService timer;
  private final WebhookTls tls;
  private final CheckBudget budget;
  private final AtomicBoolean closed = new AtomicBoolean();

  private AdmissionWebhook(HttpsServer server, GuardedExecutor httpPool, ScheduledExecutorService timer,
      WebhookTls tls, CheckBudget budget) {
    this.budget = budget;
    this.server = server;
    this.bound = server.getAddress();
    this.httpPool = httpPool;
    this.timer = timer;
    this.tls = tls;
  }

  /**
   * @param tls  the webhook's certificate and key files (client CA unused: the API server is not asked for one)
   * @param view the replica's current input config, e.g. {@code ConfigPipeline::currentInput}
   */
  public static Builder builder(InetSocketAddress address, XdsTls tls, Supplier<Optional<GatewayConfig>> view) {
    return new Builder(address, tls, view);
  }

  /**
   * Bounds every exchange of the JDK's HTTP servers (this webhook's and the admin server's) unless the operator
   * set them: {@code sun.net.httpserver.maxReqTime} and {@code maxRspTime}, 30 s each, the API server's longest
   * webhook timeout. They cover what {@link Builder#requestTimeout} cannot reach: the TLS handshake and headers
   * before a handler runs, and the JDK draining an unread body after an answer (a 413, a client that stops
   * sending). The JDK reads them once, when its first HTTP server starts: call this first thing in {@code main}.
   */
  public static void boundJdkHttpServerTimes() {
    for (String property : new String[] {"sun.net.httpserver.maxReqTime", "sun.net.httpserver.maxRspTime"}) {
      if (System.getProperty(property) == null) {
        System.setProperty(property, Long.toString(JDK_EXCHANGE_BOUND.toSeconds()));
      }
    }
  }

  /** The bound port (the real one when started with port 0). */
  public int port() {
    return bound.getPort();
  }

  /** Whether a certificate is loaded, so TLS handshakes can succeed. */
  public boolean tlsLoaded() {
    return tls.isLoaded();
  }

  /** Stops accepting, drops open connections, stops the threads and the certificate checks. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    server.stop(0);
    tls.close();
    budget.close();
    httpPool.close();
    try {
      if (!httpPool.awaitTermination(CLOSE_WAIT)) {
        log.warn("admission webhook threads still running after close waitMs={}", CLOSE_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stop(timer);
    log.info("admission webhook stopped port={}", port());
  }

  private static void stop(ExecutorService pool) {
    pool.shutdownNow();
    try {
      if (!pool.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("admission webhook threads still running after close waitMs={}", CLOSE_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Options of an {@link AdmissionWebhook}; optional ones have stated defaults. */
  public static final class Builder {
    private final InetSocketAddress address;
    private final XdsTls tls;
    private final Supplier<Optional<GatewayConfig>> view;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private int threads = 4;
    private int connectionThreads = DEFAULT_CONNECTION_THREADS;
    private Duration headerTimeout = DEFAULT_HEADER_TIMEOUT;
    private MeterRegistry registry = new SimpleMeterRegistry();
    private PipelineSettings pipelineSettings = PipelineSettings.DEFAULTS;
    private SecretSource secrets = SecretSource.NONE;

    private Builder(InetSocketAddress address, XdsTls tls, Supplier<Optional<GatewayConfig>> view) {
      this.address = Objects.requireNonNull(address, "address");
      this.tls = Objects.requireNonNull(tls, "tls");
      this.view = Objects.requireNonNull(view, "view");
    }

    /** Longest time from a request's headers to its answer; default 10 s; > 0. */
    public Builder requestTimeout(Duration value) {
      Objects.requireNonNull(value, "requestTimeout");
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be > 0, was " + value);
      }
      requestTimeout = value;
      return this;
    }

    /** Largest request body accepted; default 3 MiB; >= 1. */
    public Builder maxRequestBytes(int value) {
      if (value < 1 || value == Integer.MAX_VALUE) {
        throw new IllegalArgumentException("maxRequestBytes must be in 1.." + (Integer.MAX_VALUE - 1) + ", was "
            + value);
      }
      maxRequestBytes = value;
      return this;
    }

    /** Workers reading connections (TLS handshake, headers, body); default 16; >= {@link #threads}. */
    public Builder connectionThreads(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("connectionThreads must be >= 1, was " + value);
      }
      connectionThreads = value;
      return this;
    }

    /** Longest from a connection's first byte to complete request headers, TLS handshake included; default 5 s. */
    public Builder headerTimeout(Duration value) {
      Objects.requireNonNull(value, "headerTimeout");
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("headerTimeout must be > 0, was " + value);
      }
      headerTimeout = value;
      return this;
    }

    /** Checks run at once; default 4. */
    public Builder threads(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("threads must be >= 1, was " + value);
      }
      threads = value;
      return this;
    }

    /**
     * The bounds checks keep to, the check budgets included: the same settings with {@code value} as their limits
     * (default {@link InputLimits#DEFAULTS}).
     */
    public Builder limits(InputLimits value) {
      pipelineSettings = pipelineSettings.withLimits(Objects.requireNonNull(value, "limits"));
      return this;
    }

    /**
     * The settings objects are judged with: the server's own ({@code ServeSettings.pipeline()}), so an object is
     * admitted exactly when the server would accept it; default {@link PipelineSettings#DEFAULTS}.
     */
    public Builder pipelineSettings(PipelineSettings value) {
      pipelineSettings = Objects.requireNonNull(value, "pipelineSettings");
      return this;
    }

    /**
     * Where the Secrets a reviewed object names come from when the view lacks them (the view holds only those some
     * object already names); default {@link SecretSource#NONE}, for a view that holds every readable Secret.
     */
    public Builder secrets(SecretSource value) {
      secrets = Objects.requireNonNull(value, "secrets");
      return this;
    }

    /** Where {@code holdfast_webhook_reviews_total} goes; default a private registry. */
    public Builder meterRegistry(MeterRegistry value) {
      registry = Objects.requireNonNull(value, "registry");
      return this;
    }

    /**
     * Binds and starts serving; use port 0 for an ephemeral port. Certificate files that cannot be used yet do
     * not fail the start (see {@link WebhookTls}).
     *
     * @throws IOException if the address cannot be bound
     */
    public AdmissionWebhook start() throws IOException {
      ScheduledExecutorService timer =
          Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("holdfast-webhook-timer-"));
      // A handler holds its worker at most requestTimeout; the exchange bound only backs that up (a stuck write).
      GuardedExecutor httpPool = new GuardedExecutor("holdfast-webhook", Math.max(connectionThreads, threads),
          headerTimeout, requestTimeout.plus(headerTimeout));
      WebhookTls keys = null;
      CheckBudget budget = new CheckBudget(pipelineSettings.limits().webhookCheckTime(),
          pipelineSettings.limits().webhookCheckCpuTime(), threads,
          DaemonThreads.named("holdfast-webhook-check-"));
      try {
        keys = new WebhookTls(tls, timer);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {keys}, null, null);
        HttpsServer server = HttpsServer.create(address, 0);
        server.setHttpsConfigurator(new WebhookCiphers(context));
        server.createContext("/", httpPool.guard(new AdmissionHandler(new AdmissionCheck(view, secrets, pipelineSettings), budget,
            new Semaphore(threads), timer, requestTimeout, maxRequestBytes, new WebhookMetrics(registry))));
        server.setExecutor(httpPool);
        server.start();
        AdmissionWebhook webhook = new AdmissionWebhook(server, httpPool, timer, keys, budget);
        log.info("admission webhook listening address={} port={} path={} tlsLoaded={} requestTimeout={}"
            + " maxRequestBytes={}", address.getHostString(), webhook.port(), PATH, keys.isLoaded(), requestTimeout,
            maxRequestBytes);
        return webhook;
      } catch (IOException | GeneralSecurityException | RuntimeException e) {
        if (keys != null) {
          keys.close();
        }
        httpPool.close();
        timer.shutdownNow();
        budget.close();
        if (e instanceof IOException io) {
          throw io;
        }
        if (e instanceof GeneralSecurityException) {
          throw new IllegalStateException("the JDK has no TLS SSLContext", e);
        }
        throw (RuntimeException) e;
      }
    }
  }
}
