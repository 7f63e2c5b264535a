package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.server.http.SlowClients;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 24: slow clients and slow pages must not starve the probes. */
class AdminSlowClientTest {
  private static final InetSocketAddress LOOPBACK_ANY_PORT = new InetSocketAddress("127.0.0.1", 0);
  /** Well under the kubelet's default probe timeout of 1 s. */
  private static final Duration PROBE_BOUND = Duration.ofMillis(900);
  private static final int PROBES = 20;

  private final CountDownLatch stateReleased = new CountDownLatch(1);
  private final AdminSources sources = new AdminSources(() -> true, () -> "", new PrometheusMeterRegistry(
      PrometheusConfig.DEFAULT), this::slowState);
  private AdminServer server;
  private final ExecutorService clients = Executors.newFixedThreadPool(8);

  private Map<String, Object> slowState() {
    try {
      stateReleased.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return Map.of("mode", "file");
  }

  @AfterEach
  void stop() throws InterruptedException {
    stateReleased.countDown();
    clients.shutdownNow();
    assertThat(clients.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    if (server != null) {
      server.close();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8})
  void slowHeaderClientsLeaveEveryProbeAnswered(int slow) throws IOException {
    server = AdminServer.start(LOOPBACK_ANY_PORT, sources);
    try (SlowClients loris = SlowClients.open(server.port(), slow, SlowClients.partialRequest("/state"))) {
      for (int i = 0; i < PROBES; i++) {
        String path = i % 2 == 0 ? "/healthz" : "/readyz";
        assertThat(SlowClients.get(server.port(), path, PROBE_BOUND)).as("probe %d %s", i, path)
            .startsWith("HTTP/1.1 200");
      }
      assertThat(loris.closedByServer()).as("slow clients still open within the header timeout").isZero();
    }
  }

  @Test
  void moreSlowClientsThanWorkersAreCutAfterTheHeaderTimeout() throws IOException {
    server = AdminServer.start(LOOPBACK_ANY_PORT, sources, AdminServer.DEFAULT_SUPPLIER_TIMEOUT,
        new AdminServer.Limits(3, 1, Duration.ofMillis(300), Duration.ofSeconds(5)));
    try (SlowClients loris = SlowClients.open(server.port(), 8, SlowClients.partialRequest("/metrics"))) {
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
          .until(() -> loris.closedByServer() == 8);
      for (int i = 0; i < PROBES; i++) {
        assertThat(SlowClients.get(server.port(), "/healthz", PROBE_BOUND)).startsWith("HTTP/1.1 200");
      }
    }
  }

  @Test
  void aClientThatNeverReadsALargeAnswerIsCutAfterTheExchangeTimeout() throws IOException {
    String big = "x".repeat(32 << 20); // more than loopback's socket buffers hold
    AdminSources large = new AdminSources(() -> true, () -> "", new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        () -> Map.of("big", big));
    server = AdminServer.start(LOOPBACK_ANY_PORT, large, AdminServer.DEFAULT_SUPPLIER_TIMEOUT,
        new AdminServer.Limits(3, 1, Duration.ofSeconds(3), Duration.ofMillis(1500)));
    try (java.net.Socket reader = new java.net.Socket("127.0.0.1", server.port())) {
      reader.setReceiveBufferSize(4096);
      reader.getOutputStream().write("GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
          .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      reader.getOutputStream().flush();
      // its one page slot is held while the answer is stuck, and freed by the cut
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
          .until(() -> SlowClients.get(server.port(), "/readyz", PROBE_BOUND).startsWith("HTTP/1.1 200")
              && SlowClients.get(server.port(), "/metrics", Duration.ofSeconds(2)).startsWith("HTTP/1.1 503"));
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
          .until(() -> SlowClients.get(server.port(), "/metrics", Duration.ofSeconds(2)).startsWith("HTTP/1.1 200"));
    }
  }

  @Test
  void slowPagesHoldOnlyThePageSlotsAndProbesStillAnswer() throws Exception {
    server = AdminServer.start(LOOPBACK_ANY_PORT, sources);
    int slots = AdminServer.Limits.DEFAULTS.pageSlots();
    List<Future<String>> pages = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      pages.add(clients.submit(() -> SlowClients.get(server.port(), "/state", Duration.ofSeconds(10))));
    }
    // All slots taken once an extra page request is turned away. Until the slow pages hold every slot, a /metrics
    // request takes a free one and is rendered, which on a loaded machine (the first scrape loads and compiles
    // Micrometer's code) can outlast this poll's 2 s read bound: that try says "not yet", not "failed".
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
        .ignoreExceptionsInstanceOf(java.net.SocketTimeoutException.class)
        .until(() -> SlowClients.get(server.port(), "/metrics", Duration.ofSeconds(2)).startsWith("HTTP/1.1 503"));
    for (int i = 0; i < PROBES; i++) {
      assertThat(SlowClients.get(server.port(), "/healthz", PROBE_BOUND)).startsWith("HTTP/1.1 200");
    }
    stateReleased.countDown();
    for (Future<String> page : pages) {
      assertThat(page.get(10, TimeUnit.SECONDS)).doesNotStartWith("HTTP/1.1 503");
    }
    assertThat(SlowClients.get(server.port(), "/metrics", Duration.ofSeconds(2))).startsWith("HTTP/1.1 200");
  }
}
