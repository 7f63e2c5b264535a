package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** A file-mode server with {@code --webhook-port}: its webhook judges against the directory it serves. */
class WebhookWiringTest {

  @TempDir
  Path dir;

  @Test
  void theServersWebhookJudgesAgainstTheConfigTheServerLoaded() throws Exception {
    Path config = Files.createDirectories(dir.resolve("config"));
    try (Stream<Path> files = Files.list(Path.of("..", "examples", "config"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
        Files.copy(f, config.resolve(f.getFileName()));
      }
    }
    var ca = WebhookFixture.writeServerCertificate(dir.resolve("tls.crt"), dir.resolve("tls.key"), false);
    ServeSettings settings = new ServeSettings(config, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT, Optional.empty(), Optional.empty(), ServeSettings.SINGLE_REPLICA, Optional.empty(),
        Optional.of(new ServeSettings.Webhook("127.0.0.1", 0, dir.resolve("tls.crt"), dir.resolve("tls.key"))));
    try (HoldfastServer server = HoldfastServer.start(settings, Clock.systemUTC())) {
      HttpClient client = WebhookFixture.client(WebhookFixture.trusting(ca));
      URI uri = URI.create("https://127.0.0.1:" + server.webhookPort().orElseThrow() + AdmissionWebhook.PATH);
      await().atMost(Duration.ofSeconds(10)).until(() -> server.statusBoard().current().isPresent());

      String known = vs("known", "echo-v1");
      String unknown = vs("unknown", "echo-v3");

      assertThat(review(client, uri, known).get("allowed").asBoolean()).isTrue();
      JsonNode denied = review(client, uri, unknown);
      assertThat(denied.get("allowed").asBoolean()).isFalse();
      assertThat(denied.path("status").path("message").asString()).contains("Upstream/demo/echo-v3 does not exist",
          "(UpstreamNotFound)");
      assertThat(server.registry().scrape()).contains("holdfast_webhook_reviews_total{outcome=\"denied\"} 1.0",
          "holdfast_webhook_reviews_total{outcome=\"allowed\"} 1.0",
          "holdfast_webhook_reviews_total{outcome=\"too_large\"} 0.0");
    }
  }

  private static String vs(String name, String upstream) {
    return WebhookFixture.create("uid-" + name, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: demo}
        spec:
          domains: [%s.test]
          routes: [{match: {prefix: /}, route: {upstream: %s}}]
        """.formatted(name, name, upstream));
  }

  private static JsonNode review(HttpClient client, URI uri, String body) throws Exception {
    HttpResponse<String> answer = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return WebhookFixture.JSON.readTree(answer.body()).get("response");
  }
}
