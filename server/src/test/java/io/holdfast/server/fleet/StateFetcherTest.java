package io.holdfast.server.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class StateFetcherTest {
  private final CountDownLatch release = new CountDownLatch(1);
  private HttpServer server;

  @AfterEach
  void stop() {
    release.countDown();
    if (server != null) {
      server.stop(0);
    }
  }

  private String serve(String path, int status, String body) throws IOException {
    if (server == null) {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
      server.start();
    }
    server.createContext(path, exchange -> {
      if (body == null) {
        try {
          release.await(); // hangs until the test ends
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      byte[] bytes = (body == null ? "" : body).getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  @Test
  void eachReplicasAnswerOrFailureIsReportedInOrderWithinTheBound() throws IOException {
    // Each replica is a server of its own: the path is always /state.
    String good = serve("/state", 200, StateFixtures.kube("r1", "leader", "r1", true, "[]"));
    HttpServer first = server;
    server = null;
    String failing = serve("/state", 500, "/state failed: boom");
    HttpServer second = server;
    server = null;
    String notJson = serve("/state", 200, "<html>");
    HttpServer third = server;
    server = null;
    String hanging = serve("/state", 200, null);
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    try {
      long start = System.nanoTime();
      List<ReplicaAnswer> answers = new StateFetcher(Duration.ofSeconds(2), 2).fetch(List.of(good, failing,
          notJson, hanging, "127.0.0.1:" + closed));
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertThat(answers).extracting(ReplicaAnswer::address).containsExactly(good, failing, notJson, hanging,
          "127.0.0.1:" + closed);
      assertThat(answers.get(0).error()).as("first answer").isEmpty();
      assertThat(answers.get(0).state()).hasValueSatisfying(s -> assertThat(s.identity()).isEqualTo("r1"));
      assertThat(answers.get(1).error()).contains("HTTP 500: /state failed: boom");
      assertThat(answers.get(2).error()).hasValueSatisfying(e -> assertThat(e).startsWith("/state is not JSON"));
      assertThat(answers.get(3).error()).contains("no answer within 2000 ms");
      assertThat(answers.get(4).error()).hasValueSatisfying(e -> assertThat(e).contains("refused"));
      assertThat(took).isLessThan(Duration.ofSeconds(8));
    } finally {
      first.stop(0);
      second.stop(0);
      third.stop(0);
    }
  }
}
