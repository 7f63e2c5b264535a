package io.holdfast.server.fleet;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asks replicas for {@code GET /state} over plain HTTP, at most {@code parallelism} at once, each within
 * {@code timeout} (connecting, waiting and reading together). A replica that refuses, hangs, answers an error or
 * something that is not a JSON object becomes a {@link ReplicaAnswer#failed} answer naming why; this never throws.
 */
public final class StateFetcher {
  /**
   * The most a {@code /state} body may be: it lists every resource with its problems (about 200 bytes each), so
   * 32 MiB is some 100k resources; a bigger answer is refused rather than read into memory.
   */
  public static final int MAX_STATE_BYTES = 32 << 20;
  /** Replicas asked at once unless {@code --parallel} says otherwise. */
  public static final int DEFAULT_PARALLELISM = 8;
  /** Per replica, unless {@code --timeout} says otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Duration timeout;
  private final int parallelism;

  public StateFetcher(Duration timeout, int parallelism) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("--timeout must be positive, got " + timeout);
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("--parallel must be at least 1, got " + parallelism);
    }
    this.timeout = timeout;
    this.parallelism = parallelism;
  }

  /** Every address's answer, in the order given. */
  public List<ReplicaAnswer> fetch(List<String> addresses) {
    if (addresses.isEmpty()) {
      return List.of();
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NEVER).build();
    int workers = Math.min(parallelism, addresses.size());
    ExecutorService pool = Executors.newFixedThreadPool(workers, r -> {
      Thread t = new Thread(r, "holdfast-status-fetch");
      t.setDaemon(true); // a replica that never lets go must not keep the command alive
      return t;
    });
    try {
      List<Future<ReplicaAnswer>> futures = new ArrayList<>();
      addresses.forEach(a -> futures.add(pool.submit(() -> fetch(http, a))));
      // A queued fetch starts when a worker is free: each round of fetches takes at most a timeout to the
      // headers and about one more to read the body, so all are done by this deadline unless a replica hangs.
      long rounds = (addresses.size() + workers - 1) / workers;
      long deadline = System.nanoTime() + rounds * 2 * timeout.toNanos() + TimeUnit.SECONDS.toNanos(1);
      List<ReplicaAnswer> out = new ArrayList<>();
      for (int i = 0; i < addresses.size(); i++) {
        out.add(await(futures.get(i), addresses.get(i), deadline));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Waits for one answer until {@code deadline} ({@link System#nanoTime}); a fetch still running is cancelled. */
  private ReplicaAnswer await(Future<ReplicaAnswer> future, String address, long deadline) {
    try {
      return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      return ReplicaAnswer.failed(address, "no answer within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      return ReplicaAnswer.failed(address, String.valueOf(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ReplicaAnswer.failed(address, "interrupted");
    }
  }

  private ReplicaAnswer fetch(HttpClient http, String address) {
    URI uri;
    try {
      uri = URI.create("http://" + address + "/state");
    } catch (IllegalArgumentException e) {
      return ReplicaAnswer.failed(address, "not a host:port address: " + e.getMessage());
    }
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json")
        .GET().build();
    try {
      HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream body = response.body()) {
        byte[] bytes = body.readNBytes(MAX_STATE_BYTES + 1);
        if (response.statusCode() != 200) {
          String text = new String(bytes, 0, Math.min(bytes.length, 200), java.nio.charset.StandardCharsets.UTF_8);
          return ReplicaAnswer.failed(address, "HTTP " + response.statusCode() + ": " + text.strip());
        }
        if (bytes.length > MAX_STATE_BYTES) {
          return ReplicaAnswer.failed(address, "/state is larger than " + MAX_STATE_BYTES + " bytes");
        }
        return parse(address, bytes);
      }
    } catch (java.net.http.HttpTimeoutException e) {
      return ReplicaAnswer.failed(address, "no answer within " + timeout.toMillis() + " ms");
    } catch (java.net.ConnectException e) {
      return ReplicaAnswer.failed(address, "connection refused");
    } catch (IOException e) {
      return ReplicaAnswer.failed(address, e.getClass().getSimpleName() + (e.getMessage() == null ? ""
          : ": " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ReplicaAnswer.failed(address, "interrupted");
    }
  }

  /** A {@code /state} body read as a replica's state; anything but a JSON object is a failed answer. */
  static ReplicaAnswer parse(String address, byte[] body) {
    Object tree;
    try {
      tree = JSON.readValue(body, Object.class);
    } catch (JacksonException e) {
      return ReplicaAnswer.failed(address, "/state is not JSON: " + e.getOriginalMessage());
    }
    if (!(tree instanceof Map<?, ?> map)) {
      return ReplicaAnswer.failed(address, "/state is not a JSON object");
    }
    return ReplicaAnswer.answered(address, ReplicaState.of(Objects.requireNonNull(map)));
  }
}
