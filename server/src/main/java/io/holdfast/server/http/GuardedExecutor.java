package io.holdfast.server.http;

import com.sun.net.httpserver.HttpHandler;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The executor of a JDK {@code HttpServer}: a bounded pool whose exchanges are cut when they read their request
 * too slowly or run too long.
 *
 * <p>Why: on JDK 17 the server's dispatcher hands a connection to the executor as soon as its first byte
 * arrives, and the worker then reads the request line and headers (and, for HTTPS, the TLS handshake) in blocking
 * mode. A client that sends a partial request holds a worker; a few of them starve every other request, health
 * probes included. The JDK's own bound ({@code sun.net.httpserver.maxReqTime}) is JVM-global and read once, so it
 * cannot be set per server. Here a watchdog interrupts a worker still before its handler after
 * {@code headerTimeout}, or still in its exchange after {@code exchangeTimeout}: the channel is interruptible, so
 * the blocked read or write ends with {@code ClosedByInterruptException} and the JDK closes that connection.
 *
 * <p>Handlers must be wrapped by {@link #guard} so the watchdog knows when headers have been read.
 */
public final class GuardedExecutor implements Executor, AutoCloseable {
  /** How often the watchdog looks: a tenth of a second keeps the cut within that of its timeout. */
  static final Duration SWEEP_PERIOD = Duration.ofMillis(100);

  private final ExecutorService pool;
  private final ScheduledExecutorService watchdog;
  private final long headerNanos;
  private final long exchangeNanos;
  private final LongSupplier nanoClock;
  private final Set<Watched> running = ConcurrentHashMap.newKeySet();
  private final ThreadLocal<Watched> current = new ThreadLocal<>();
  private final AtomicLong cut = new AtomicLong();

  /**
   * @param threads         workers (bounded: each is a platform thread)
   * @param headerTimeout   longest time from a connection's first byte (handshake included) to its handler
   * @param exchangeTimeout longest time a worker spends on one exchange, handler and response writing included
   */
  public GuardedExecutor(String name, int threads, Duration headerTimeout, Duration exchangeTimeout) {
    this(name, threads, headerTimeout, exchangeTimeout, System::nanoTime);
  }

  GuardedExecutor(String name, int threads, Duration headerTimeout, Duration exchangeTimeout, LongSupplier nanoClock) {
    Objects.requireNonNull(name, "name");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, was " + threads);
    }
    requirePositive(headerTimeout, "headerTimeout");
    requirePositive(exchangeTimeout, "exchangeTimeout");
    this.headerNanos = headerTimeout.toNanos();
    this.exchangeNanos = exchangeTimeout.toNanos();
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.pool = Executors.newFixedThreadPool(threads, DaemonThreads.named(name + "-http-"));
    this.watchdog = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named(name + "-watchdog-"));
    long period = SWEEP_PERIOD.toMillis();
    watchdog.scheduleWithFixedDelay(this::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  private static void requirePositive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be > 0, was " + value);
    }
  }

  @Override
  public void execute(Runnable exchange) {
    pool.execute(() -> run(exchange));
  }

  /** Wraps a handler so reaching it marks the request's headers as read. */
  public HttpHandler guard(HttpHandler handler) {
    Objects.requireNonNull(handler, "handler");
    return exchange -> {
      Watched watched = current.get();
      if (watched != null) {
        watched.headersRead();
      }
      handler.handle(exchange);
    };
  }

  /** Exchanges cut so far (slow requests, stuck responses). */
  public long cutCount() {
    return cut.get();
  }

  /** Exchanges running now. */
  int runningCount() {
    return running.size();
  }

  private void run(Runnable exchange) {
    Watched watched = new Watched(Thread.currentThread(), nanoClock.getAsLong());
    running.add(watched);
    current.set(watched);
    try {
      exchange.run();
    } finally {
      watched.finish();
      running.remove(watched);
      current.remove();
      Thread.interrupted(); // a cut that raced the end of the exchange must not reach the next one
    }
  }

  void sweep() {
    long now = nanoClock.getAsLong();
    for (Watched watched : running) {
      if (watched.interruptIfLate(now, headerNanos, exchangeNanos)) {
        cut.incrementAndGet();
      }
    }
  }

  /** Stops the watchdog and interrupts the workers; the server must be stopped first. */
  @Override
  public void close() {
    watchdog.shutdownNow();
    pool.shutdownNow();
  }

  /** Waits up to {@code wait} for the workers to end; false if some still run. */
  public boolean awaitTermination(Duration wait) throws InterruptedException {
    return pool.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** One exchange on one worker; the lock keeps an interrupt from landing after the exchange ended. */
  private static final class Watched {
    private final long startedNanos;
    private Thread thread; // guarded by this; null once finished or cut
    private boolean headersRead; // guarded by this

    Watched(Thread thread, long startedNanos) {
      this.thread = thread;
      this.startedNanos = startedNanos;
    }

    synchronized void headersRead() {
      headersRead = true;
    }

    synchronized void finish() {
      thread = null;
    }

    synchronized boolean interruptIfLate(long now, long headerNanos, long exchangeNanos) {
      long age = now - startedNanos;
      if (thread == null || (headersRead ? age <= exchangeNanos : age <= headerNanos)) {
        return false;
      }
      thread.interrupt();
      thread = null; // once is enough: the blocked channel is closed
      return true;
    }
  }
}
