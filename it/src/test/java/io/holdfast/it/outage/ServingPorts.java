package io.holdfast.it.outage;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ports a Holdfast process bound, read from its {@code holdfast serving xds=HOST:P admin=HOST:Q} log line.
 * The suite starts every server on port 0 and learns its ports this way: no port is picked in advance and left
 * free for someone else to take, and the line only appears once both servers listen.
 */
record ServingPorts(int xds, int admin) {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
  private static final Pattern SERVING = Pattern.compile("holdfast serving xds=\\S+:(\\d+) admin=\\S+:(\\d+)");

  static Optional<ServingPorts> parse(String log) {
    Matcher m = SERVING.matcher(log);
    return m.find() ? Optional.of(new ServingPorts(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))))
        : Optional.empty();
  }

  /** {@code GET /readyz} on the admin port answers 200: a snapshot is being served. */
  boolean ready() {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin + "/readyz"))
          .timeout(Duration.ofMillis(800)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Waits for {@code process} to log its ports; fails early, with its log, if it exits first. */
  static ServingPorts awaitListening(ManagedProcess process, Duration bound) {
    await(process + " listening").atMost(bound).pollInterval(Duration.ofMillis(100))
        .until(() -> parse(process.logText()).isPresent() || !process.isAlive());
    return parse(process.logText()).orElseThrow(() -> new IllegalStateException(process + " exited before"
        + " serving: " + process.logText()));
  }
}
