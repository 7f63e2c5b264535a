package io.holdfast.server.admin;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.holdfast.server.http.DaemonThreads;
import io.holdfast.server.http.GuardedExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP server: {@code /healthz} (liveness: 200 "ok" whenever the server can answer; it never consults
 * the Kubernetes API or any supplier), {@code /readyz}, {@code /metrics} and {@code /state} from
 * {@link AdminSources}. GET and HEAD only (else 405, with {@code Allow}); any other path is 404.
 *
 * <p>Probes are never starved by slow clients or slow pages: the workers are a bounded pool
 * ({@link Limits#threads}) whose exchanges are cut after {@link Limits#headerTimeout} without complete headers and
 * after {@link Limits#exchangeTimeout} in all ({@link GuardedExecutor}); pages, {@code /metrics} and {@code /state}
 * hold at most {@link Limits#pageSlots} workers at once (beyond that 503), so the rest stay free for
 * {@code /healthz} and {@code /readyz}, which read no supplier.
 */
public final class AdminServer implements AutoCloseable {
  static final Duration DEFAULT_SUPPLIER_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

  private final HttpServer server;
  private final InetSocketAddress bound; // kept: the server cannot report it once stopped
  private final GuardedExecutor httpPool;
  private final ExecutorService supplierPool;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Bounds of the admin server's connections.
   *
   * @param threads         workers answering requests (default 16: probes keep free workers with a dozen slow
   *                        clients open, and a slow-loris needs more connections than that renewed every
   *                        {@code headerTimeout})
   * @param pageSlots       workers pages, {@code /metrics} and {@code /state} may hold at once (default 4, fewer
   *                        than {@code threads} so probes always find a worker)
   * @param headerTimeout   longest from a connection's first byte to complete headers (default 3 s: a kubelet
   *                        probe sends its request at once; the liveness probe's own timeout is 1 s by default)
   * @param exchangeTimeout longest one request holds a worker, writing its answer included (default 10 s: a
   *                        client that never reads a large {@code /state} is cut)
   */
  public record Limits(int threads, int pageSlots, Duration headerTimeout, Duration exchangeTimeout) {
    public static final Limits DEFAULTS = new Limits(16, 4, Duration.ofSeconds(3), Duration.ofSeconds(10));

    public Limits {
      if (pageSlots < 1 || threads <= pageSlots) {
        throw new IllegalArgumentException("need 1 <= pageSlots < threads, was pageSlots=" + pageSlots
            + " threads=" + threads);
      }
      Objects.requireNonNull(headerTimeout, "headerTimeout");
      Objects.requireNonNull(exchangeTimeout, "exchangeTimeout");
    }
  }

  private static final Set<String> PROBE_PATHS = Set.of("/healthz", "/readyz");

  private AdminServer(HttpServer server, GuardedExecutor httpPool, ExecutorService supplierPool) {
    this.server = server;
    this.bound = server.getAddress();
    this.httpPool = httpPool;
    this.supplierPool = supplierPool;
  }

  /**
   * Binds and starts serving. Use port 0 for an ephemeral port and read it back with {@link #port()}.
   *
   * @throws IOException if the address cannot be bound (e.g. port in use)
   */
  public static AdminServer start(InetSocketAddress address, AdminSources sources) throws IOException {
    return start(address, sources, DEFAULT_SUPPLIER_TIMEOUT, Limits.DEFAULTS);
  }

  static AdminServer start(InetSocketAddress address, AdminSources sources, Duration supplierTimeout)
      throws IOException {
    return start(address, sources, supplierTimeout, Limits.DEFAULTS);
  }

  static AdminServer start(InetSocketAddress address, AdminSources sources, Duration supplierTimeout,
      Limits limits) throws IOException {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(limits, "limits");
    GuardedExecutor httpPool = new GuardedExecutor("holdfast-admin", limits.threads(), limits.headerTimeout(),
        limits.exchangeTimeout());
    ExecutorService supplierPool = Executors.newFixedThreadPool(2, DaemonThreads.named("holdfast-admin-supplier-"));
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException | RuntimeException e) {
      httpPool.close();
      supplierPool.shutdownNow();
      throw e;
    }
    server.createContext("/", httpPool.guard(probesFirst(new AdminHandler(sources, supplierPool, supplierTimeout),
        new Semaphore(limits.pageSlots()))));
    server.setExecutor(httpPool);
    server.start();
    AdminServer admin = new AdminServer(server, httpPool, supplierPool);
    LOG.info("admin server listening address={} port={}", admin.address().getHostString(), admin.port());
    return admin;
  }

  /** The bound port (the real one when started with port 0). */
  public int port() {
    return bound.getPort();
  }

  public InetSocketAddress address() {
    return bound;
  }

  /** Stops accepting, drops open connections and stops the threads; returns within about two seconds. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    // stop(0): on JDK 17 any positive delay is waited out in full even when idle.
    server.stop(0);
    stopPool(supplierPool);
    httpPool.close();
    try {
      if (!httpPool.awaitTermination(CLOSE_WAIT)) {
        LOG.warn("admin threads still running after close waitMs={}", CLOSE_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("admin server stopped port={}", port());
  }

  /** Probes pass straight through; anything else needs a page slot, or is answered 503 at once. */
  private static HttpHandler probesFirst(HttpHandler handler, Semaphore pageSlots) {
    return exchange -> {
      if (PROBE_PATHS.contains(exchange.getRequestURI().getPath())) {
        handler.handle(exchange);
        return;
      }
      if (!pageSlots.tryAcquire()) {
        try (exchange) {
          byte[] body = "busy: too many page requests at once, retry\n".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
          exchange.getResponseHeaders().set("Retry-After", "1");
          if ("HEAD".equals(exchange.getRequestMethod())) {
            exchange.sendResponseHeaders(503, -1);
          } else {
            exchange.sendResponseHeaders(503, body.length);
            exchange.getResponseBody().write(body);
          }
        }
        return;
      }
      try {
        handler.handle(exchange);
      } finally {
        pageSlots.release();
      }
    };
  }

  private static void stopPool(ExecutorService pool) {
    pool.shutdownNow();
    try {
      if (!pool.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("admin threads still running after close waitMs={}", CLOSE_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
