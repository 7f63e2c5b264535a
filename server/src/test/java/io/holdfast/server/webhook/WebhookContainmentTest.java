package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.common.WorkerFailures;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.server.HostileInputs;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The webhook judges through the same contained path as the server: a view holding an object the Gateway API
 * front end rejects outright is no reason to fail a review; an error that leaves the JVM unsound reaches the fatal
 * handler instead of silently killing a request thread; and it judges with the server's settings.
 */
class WebhookContainmentTest {
  private static final String VIRTUAL_SERVICE = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web, namespace: demo}
      spec:
        domains: [web.test]
        routes: [{match: {prefix: /}, route: {upstream: echo}}]
      """;
  private static final String UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: echo, namespace: demo}
      spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
      """;

  @TempDir
  Path dir;
  private final List<String> fatal = new CopyOnWriteArrayList<>();
  private WorkerFailures.FatalHandler previous;

  @BeforeEach
  void recordFatalErrors() {
    previous = WorkerFailures.onFatal((worker, error) -> fatal.add(worker + " " + error));
  }

  @AfterEach
  void restore() {
    WorkerFailures.onFatal(previous);
  }

  /** Regression: a review in a view holding a fully rejected HTTPRoute was answered 500 (the check threw). */
  @Test
  void aViewHoldingARejectedRouteStillJudgesOtherObjects() throws Exception {
    try (WebhookFixture webhook = WebhookFixture.start(dir, b -> b)) {
      webhook.viewOf(UPSTREAM + "---\n" + HostileInputs.INVALID_ENUM_ROUTE);

      JsonNode response = webhook.review(WebhookFixture.create("uid-1", VIRTUAL_SERVICE));

      assertThat(response.get("allowed").asBoolean()).isTrue();
      assertThat(fatal).isEmpty();
    }
  }

  @Test
  void aFatalErrorInAReviewGoesToTheFatalHandlerAndTheWebhookAnswersTheNextOne() throws Exception {
    AtomicReference<Boolean> overflow = new AtomicReference<>(true);
    GatewayConfig view = load(UPSTREAM);
    try (WebhookFixture webhook = start(() -> {
      if (overflow.get()) {
        throw new StackOverflowError("injected");
      }
      return Optional.of(view);
    }, PipelineSettings.DEFAULTS)) {
      HttpResponse<String> failed = webhook.post(WebhookFixture.create("uid-1", VIRTUAL_SERVICE)
          .getBytes(StandardCharsets.UTF_8));
      assertThat(failed.statusCode()).isEqualTo(500);
      assertThat(failed.body()).contains("StackOverflowError");
      assertThat(fatal).singleElement().asString().startsWith("webhook ").contains("StackOverflowError");

      overflow.set(false);
      assertThat(webhook.review(WebhookFixture.create("uid-2", VIRTUAL_SERVICE)).get("allowed").asBoolean())
          .isTrue();
    }
  }

  /**
   * Item 8 of issue 22: the webhook built {@code new ConfigCheck()} with the default controller name, so under
   * another {@code --gateway-controller-name} it missed the server's claims. Here a Gateway API Gateway of the
   * configured class holds port 10080, and a younger Holdfast Gateway asking for it is denied, as the server
   * would reject it; under the default settings the class is not Holdfast's and the port is free.
   */
  @Test
  void theWebhookJudgesWithTheServersPipelineSettings() throws Exception {
    GatewayConfig view = load("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: ours, creationTimestamp: "2026-01-01T00:00:00Z"}
        spec: {controllerName: example.test/gw}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: edge, namespace: infra, creationTimestamp: "2026-01-01T00:00:00Z"}
        spec:
          gatewayClassName: ours
          listeners: [{name: http, port: 10080, protocol: HTTP}]
        """);
    String gateway = """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: public, namespace: demo, creationTimestamp: "2026-06-01T00:00:00Z"}
        spec: {port: 10080}
        """;
    try (WebhookFixture server = start(() -> Optional.of(view), new PipelineSettings("example.test/gw"))) {
      JsonNode denied = server.review(WebhookFixture.create("uid-1", gateway));
      assertThat(denied.get("allowed").asBoolean()).isFalse();
      assertThat(denied.path("status").path("message").asString()).contains("DuplicateListener");
    }
    try (WebhookFixture defaults = start(() -> Optional.of(view), PipelineSettings.DEFAULTS)) {
      assertThat(defaults.review(WebhookFixture.create("uid-2", gateway)).get("allowed").asBoolean()).isTrue();
    }
  }

  private WebhookFixture start(java.util.function.Supplier<Optional<GatewayConfig>> view, PipelineSettings settings)
      throws java.io.IOException {
    Path sub = java.nio.file.Files.createTempDirectory(dir, "webhook");
    return WebhookFixture.startWithView(sub, view, b -> b.pipelineSettings(settings));
  }

  private static GatewayConfig load(String yaml) {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("view.yaml", yaml)),
        Map.of());
    assertThat(loaded.errors()).isEmpty();
    return loaded.config();
  }
}
