package io.holdfast.server.admin;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP server: {@code /healthz} (liveness: 200 "ok" whenever the server can answer; it never consults
 * the Kubernetes API or any supplier), {@code /readyz}, {@code /metrics} and {@code /state} from
 * {@link AdminSources}. GET and HEAD only (else 405, with {@code Allow}); any other path is 404.
 */
public final class AdminServer implements AutoCloseable {
  static final Duration DEFAULT_SUPPLIER_TIMEOUT = Duration.ofSeconds(2);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

  private final HttpServer server;
  private final InetSocketAddress bound; // kept: the server cannot report it once stopped
  private final ExecutorService httpPool;
  private final ExecutorService supplierPool;
  private final AtomicBoolean closed = new AtomicBoolean();

  private AdminServer(HttpServer server, ExecutorService httpPool, ExecutorService supplierPool) {
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
    return start(address, sources, DEFAULT_SUPPLIER_TIMEOUT);
  }

  static AdminServer start(InetSocketAddress address, AdminSources sources, Duration supplierTimeout)
      throws IOException {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(sources, "sources");
    ExecutorService httpPool = Executors.newFixedThreadPool(2, daemonThreads("holdfast-admin-http-"));
    ExecutorService supplierPool = Executors.newFixedThreadPool(2, daemonThreads("holdfast-admin-supplier-"));
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException | RuntimeException e) {
      httpPool.shutdownNow();
      supplierPool.shutdownNow();
      throw e;
    }
    server.createContext("/", new AdminHandler(sources, supplierPool, supplierTimeout));
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
    stopPool(httpPool);
    LOG.info("admin server stopped port={}", port());
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

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
