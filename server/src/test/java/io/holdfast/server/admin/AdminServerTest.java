package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class AdminServerTest {
  private static final InetSocketAddress LOOPBACK_ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final AtomicBoolean ready = new AtomicBoolean();
  private final AtomicReference<String> reason = new AtomicReference<>("no valid snapshot yet");
  private final AtomicReference<Supplier<Map<String, Object>>> state =
      new AtomicReference<>(() -> Map.of("mode", "file"));
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AdminSources sources =
      new AdminSources(ready::get, reason::get, registry, () -> state.get().get());
  private AdminServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
        .timeout(Duration.ofSeconds(5))
        .method(method, HttpRequest.BodyPublishers.noBody())
        .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send("GET", path);
  }

  private void start() throws IOException {
    server = AdminServer.start(LOOPBACK_ANY_PORT, sources);
  }

  @Test
  void bindsAnEphemeralPortOnLoopback() throws IOException {
    start();

    assertThat(server.port()).isPositive();
    assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
  }

  @Test
  void healthzIsOkEvenWhenEverythingElseIsBroken() throws Exception {
    state.set(() -> {
      throw new IllegalStateException("kubernetes API unreachable");
    });
    start();

    HttpResponse<String> response = get("/healthz");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("ok\n");
    assertThat(response.headers().firstValue("Content-Type")).contains("text/plain; charset=utf-8");
    assertThat(get("/readyz").statusCode()).isEqualTo(503);
  }

  @Test
  void readyzFollowsTheSupplier() throws Exception {
    start();

    HttpResponse<String> notReady = get("/readyz");
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(notReady.body()).isEqualTo("not ready: no valid snapshot yet\n");

    ready.set(true);
    HttpResponse<String> isReady = get("/readyz");
    assertThat(isReady.statusCode()).isEqualTo(200);
    assertThat(isReady.body()).isEqualTo("ready\n");

    ready.set(false);
    reason.set(null);
    assertThat(get("/readyz").body()).isEqualTo("not ready: no reason given\n");
  }

  @Test
  void metricsAreThePrometheusTextOfTheRegistry() throws Exception {
    registry.counter("holdfast.test.events", "kind", "edit").increment(3);
    start();

    HttpResponse<String> response = get("/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("text/plain; version=0.0.4"));
    assertThat(response.body())
        .contains("# TYPE holdfast_test_events_total counter")
        .contains("holdfast_test_events_total{kind=\"edit\"} 3.0");
  }

  @Test
  void stateIsSortedJson() throws Exception {
    Map<String, Object> snapshot = new LinkedHashMap<>();
    snapshot.put("version", "abc123");
    snapshot.put("leader", true);
    snapshot.put("clusters", List.of("a", "b"));
    snapshot.put("appliedAt", Instant.parse("2026-12-02T10:15:30Z"));
    state.set(() -> snapshot);
    start();

    HttpResponse<String> response = get("/state");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
    @SuppressWarnings("unchecked")
    Map<String, Object> parsed = JsonMapper.builder().build().readValue(response.body(), Map.class);
    assertThat(parsed).containsOnlyKeys("appliedAt", "clusters", "leader", "version")
        .containsEntry("appliedAt", "2026-12-02T10:15:30Z")
        .containsEntry("leader", true)
        .containsEntry("clusters", List.of("a", "b"));
    assertThat(response.body().indexOf("appliedAt")).isLessThan(response.body().indexOf("version"));
  }

  @Test
  void throwingSupplierGives500AndTheServerKeepsServing() throws Exception {
    state.set(() -> {
      throw new IllegalStateException("boom\nwith a second line");
    });
    start();

    HttpResponse<String> failed = get("/state");
    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body()).isEqualTo("/state failed: IllegalStateException: boom with a second line\n");

    state.set(() -> Map.of("ok", 1));
    assertThat(get("/state").statusCode()).isEqualTo(200);
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
  }

  @Test
  void throwingReadinessSupplierGives500() throws Exception {
    server = AdminServer.start(LOOPBACK_ANY_PORT, new AdminSources(() -> {
      throw new IllegalStateException("no elector");
    }, reason::get, registry, Map::of));

    HttpResponse<String> response = get("/readyz");

    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.body()).contains("/readyz failed: IllegalStateException: no elector");
  }

  @Test
  void hangingSupplierTimesOutAndLivenessStillAnswers() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    state.set(() -> {
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Map.of();
    });
    server = AdminServer.start(LOOPBACK_ANY_PORT, sources, Duration.ofMillis(200));
    try {
      HttpResponse<String> hung = get("/state");
      assertThat(hung.statusCode()).isEqualTo(500);
      assertThat(hung.body()).isEqualTo("/state timed out after 200 ms\n");
      assertThat(get("/healthz").statusCode()).isEqualTo(200);
    } finally {
      release.countDown();
    }
  }

  @Test
  void unknownPathsAre404() throws Exception {
    start();

    assertThat(get("/healthz/extra").statusCode()).isEqualTo(404);
    assertThat(get("/nope").body()).contains("/healthz /readyz /metrics /state");
  }

  @Test
  void theStatusPageShowsTheStateEscaped() throws Exception {
    start();
    state.set(() -> Map.of("role", "leader", "identity", "<pod-1>",
        "config", Map.of("version", "abc123", "resources", Map.of("VirtualService/demo/echo",
            Map.of("state", "REJECTED", "problems", java.util.List.of("spec.routes[0]: no such upstream (UpstreamNotFound)"))))));

    HttpResponse<String> page = get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
    assertThat(page.body()).contains("<td id=\"role\" class=\"ok\">Leader</td>", "&lt;pod-1&gt;",
        "VirtualService/demo/echo", "<td class=\"bad verdict\">Rejected</td>", "UpstreamNotFound")
        .doesNotContain("<pod-1>");
  }

  @Test
  void onlyGetAndHeadAreAllowed() throws Exception {
    start();

    HttpResponse<String> post = send("POST", "/healthz");
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");
    assertThat(send("DELETE", "/state").statusCode()).isEqualTo(405);

    HttpResponse<String> head = send("HEAD", "/healthz");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
  }

  @Test
  void closeStopsPromptlyAndRefusesFurtherRequests() throws Exception {
    start();
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    int port = server.port();

    long started = System.nanoTime();
    server.close();

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
    assertThat(server.port()).isEqualTo(port);
    assertThatIOException().isThrownBy(() -> get("/healthz"));
    server.close(); // idempotent
  }

  @Test
  void portInUseIsABindError() throws Exception {
    start();

    assertThatExceptionOfType(BindException.class).isThrownBy(
        () -> AdminServer.start(new InetSocketAddress("127.0.0.1", server.port()), sources));
  }
}
