package io.holdfast.it.bench.election;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches whether the emulated API keeps answering during a scenario: a GET every 100 ms straight to it (not
 * through any proxy), remembering the slowest answer. fabric8's mock server can block its only event loop for
 * up to 30 s when a watch closes while it is writing an event to it; runs with such a stall measure the mock,
 * not the electors, and are reported apart.
 */
final class ApiProbe implements AutoCloseable {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final long PERIOD_NANOS = 100_000_000L;
  private static final long MAX_RUN_NANOS = Duration.ofMinutes(10).toNanos();

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(TIMEOUT).build();
  private final HttpRequest request;
  private final AtomicLong slowestNanos = new AtomicLong();
  private final Thread thread;
  private volatile boolean stopped;

  ApiProbe(int port) {
    request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/namespaces/probe/configmaps/none"))
        .timeout(TIMEOUT).GET().build();
    thread = new Thread(this::run, "bench-api-probe-" + port);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    long end = System.nanoTime() + MAX_RUN_NANOS;
    while (!stopped && System.nanoTime() - end < 0) {
      long start = System.nanoTime();
      try {
        http.send(request, HttpResponse.BodyHandlers.discarding());
      } catch (java.io.IOException e) {
        // a time-out counts as its full duration below
      } catch (InterruptedException e) {
        return;
      }
      long took = System.nanoTime() - start;
      slowestNanos.accumulateAndGet(took, Math::max);
      LockSupport.parkNanos(Math.max(0, PERIOD_NANOS - took));
    }
  }

  /** The slowest answer so far, in milliseconds (a time-out counts as 2 s or more). */
  double slowestMs() {
    return slowestNanos.get() / 1e6;
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
  }
}
