package io.holdfast.server.webhook;

import static io.holdfast.server.webhook.WebhookFixture.create;
import static io.holdfast.server.webhook.WebhookFixture.reviewOf;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The webhook over real HTTPS on loopback: verdicts, robustness, bounds. */
class AdmissionWebhookTest {

  private static final String UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: echo, namespace: demo}
      spec:
        static:
          hosts: [{address: 127.0.0.1, port: 9101}]
      """;
  private static final String VIRTUAL_SERVICE = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: shop, namespace: demo}
      spec:
        domains: [shop.test]
        routes:
          - match: {prefix: /}
            route: {upstream: echo}
      """;

  @TempDir
  Path dir;
  private final List<WebhookFixture> started = new ArrayList<>();
  private WebhookFixture webhook;

  @BeforeEach
  void start() throws IOException {
    webhook = start(b -> b);
  }

  private WebhookFixture start(UnaryOperator<AdmissionWebhook.Builder> options) throws IOException {
    Path own = dir.resolve("tls-" + started.size());
    java.nio.file.Files.createDirectories(own);
    WebhookFixture fixture = WebhookFixture.start(own, options);
    started.add(fixture);
    return fixture;
  }

  @AfterEach
  void stop() {
    started.forEach(WebhookFixture::close);
  }

  @Test
  void aValidObjectIsAllowedAndTheResponseEchoesTheUid() throws Exception {
    webhook.viewOf(UPSTREAM);

    JsonNode response = webhook.review(create("2f4c8f7e-0001", VIRTUAL_SERVICE));

    assertThat(response.get("uid").asString()).isEqualTo("2f4c8f7e-0001");
    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.has("status")).isFalse();
    assertThat(response.has("warnings")).isFalse();
  }

  @Test
  void aVirtualServiceNamingAnUpstreamTheViewLacksIsDeniedWithUpstreamNotFound() throws Exception {
    webhook.viewOf(UPSTREAM.replace("name: echo", "name: other"));

    JsonNode response = webhook.review(create("uid-missing-upstream", VIRTUAL_SERVICE));

    assertThat(response.get("uid").asString()).isEqualTo("uid-missing-upstream");
    assertThat(response.get("allowed").asBoolean()).isFalse();
    JsonNode status = response.get("status");
    assertThat(status.get("code").asInt()).isEqualTo(422);
    assertThat(status.get("message").asString())
        .startsWith("VirtualService/demo/shop is rejected: ")
        .contains("spec.routes[0].route.upstream", "(UpstreamNotFound)");
    assertThat(status.path("details").path("causes")).singleElement().satisfies(cause -> {
      assertThat(cause.get("reason").asString()).isEqualTo("UpstreamNotFound");
      assertThat(cause.get("field").asString()).isEqualTo("spec.routes[0].route.upstream");
    });
    assertThat(status.path("details").path("kind").asString()).isEqualTo("VirtualService");
  }

  @Test
  void theSameObjectIsAllowedOnceTheViewHoldsItsUpstream() throws Exception {
    webhook.viewOf(UPSTREAM.replace("name: echo", "name: other"));
    assertThat(webhook.review(create("a", VIRTUAL_SERVICE)).get("allowed").asBoolean()).isFalse();

    webhook.viewOf(UPSTREAM);

    assertThat(webhook.review(create("b", VIRTUAL_SERVICE)).get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aParseErrorIsDeniedWithItsFieldPath() throws Exception {
    webhook.viewOf(UPSTREAM);

    JsonNode response = webhook.review(create("uid-parse", VIRTUAL_SERVICE.replace("prefix: /", "prefx: /")));

    assertThat(response.get("allowed").asBoolean()).isFalse();
    assertThat(response.path("status").path("message").asString()).contains("spec.routes[0].match.prefx",
        "(UnknownField)");
    assertThat(response.path("status").path("details").path("causes")).anySatisfy(cause -> {
      assertThat(cause.get("field").asString()).isEqualTo("spec.routes[0].match.prefx");
      assertThat(cause.get("reason").asString()).isEqualTo("UnknownField");
    });
  }

  @Test
  void anUpdateReplacesTheVersionInTheViewRatherThanDuplicatingIt() throws Exception {
    webhook.viewOf(UPSTREAM + "---\n" + VIRTUAL_SERVICE);
    String update = reviewOf("uid-update", "UPDATE", "gateway.holdfast.io", "VirtualService", "demo", "shop",
        VIRTUAL_SERVICE.replace("shop.test", "shop2.test"));

    JsonNode response = webhook.review(update);

    // Judged beside its old version, it would be a DuplicateResource; replaced, it is fine.
    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
  }

  @Test
  void warningsOfTheObjectAreAdmissionWarnings() throws Exception {
    webhook.viewOf(UPSTREAM);
    String redirectWithTimeout = VIRTUAL_SERVICE.replace("route: {upstream: echo}",
        "redirect: {prefixRewrite: /, responseCode: 301}\n      timeout: 5s");

    JsonNode response = webhook.review(create("uid-warn", redirectWithTimeout));

    assertThat(response.get("allowed").asBoolean()).as(response.toString()).isTrue();
    assertThat(response.get("warnings")).anySatisfy(w -> assertThat(w.asString()).isEqualTo(
        "spec.routes[0].timeout: applies only to route and split actions; ignored here (FieldIgnored)"));
  }

  @Test
  void aDeleteIsAllowedAndWarnsAboutWhatItWouldBreak() throws Exception {
    webhook.viewOf(UPSTREAM + "---\n" + VIRTUAL_SERVICE);

    JsonNode response = webhook.review(reviewOf("uid-delete", "DELETE", "gateway.holdfast.io", "Upstream", "demo",
        "echo", null));

    assertThat(response.get("uid").asString()).isEqualTo("uid-delete");
    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings")).singleElement().satisfies(w -> assertThat(w.asString())
        .startsWith("VirtualService/demo/shop would be rejected: ").contains("(UpstreamNotFound)"));
  }

  @Test
  void aKindThatIsNotHoldfastsIsAllowedWithAWarning() throws Exception {
    webhook.viewOf(UPSTREAM);
    String deployment = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: demo}
        spec: {replicas: 1}
        """;

    JsonNode response = webhook.review(reviewOf("uid-kind", "CREATE", "apps", "Deployment", "demo", "web",
        deployment));

    assertThat(response.get("uid").asString()).isEqualTo("uid-kind");
    assertThat(response.get("allowed").asBoolean()).isTrue();
    assertThat(response.get("warnings")).singleElement().satisfies(w -> assertThat(w.asString())
        .contains("does not check apps/v1 Deployment"));
    // A Holdfast kind name in another group is not Holdfast's either.
    JsonNode other = webhook.review(reviewOf("uid-group", "CREATE", "gateway.networking.k8s.io", "Gateway", "demo",
        "web", deployment));
    assertThat(other.get("allowed").asBoolean()).isTrue();
    assertThat(other.get("warnings")).hasSize(1);
  }

  @Test
  void malformedBodiesAre400WithAClearMessage() throws Exception {
    webhook.viewOf(UPSTREAM);
    assertMalformed("{not json", "body is not JSON");
    assertMalformed("[]", "body is not a JSON object");
    assertMalformed("{\"apiVersion\":\"admission.k8s.io/v1beta1\",\"kind\":\"AdmissionReview\"}",
        "expected apiVersion admission.k8s.io/v1");
    assertMalformed(create("", VIRTUAL_SERVICE), "request.uid: missing or empty");
    assertMalformed(create("u", VIRTUAL_SERVICE).replace("\"CREATE\"", "\"PATCH\""), "request.operation");
    assertMalformed(create("u", VIRTUAL_SERVICE).replace("\"uid\":\"u\"", "\"uid\":7"),
        "request.uid: expected a string");
    assertMalformed(reviewOf("u", "CREATE", "gateway.holdfast.io", "VirtualService", "demo", "shop", null),
        "request.object: required for CREATE");
    assertMalformed(create("u", VIRTUAL_SERVICE) + " trailing", "body is not JSON");
    assertMalformed("[".repeat(10_000), "body is not JSON");
    // The webhook still answers afterwards.
    assertThat(webhook.review(create("after", VIRTUAL_SERVICE)).get("allowed").asBoolean()).isTrue();
  }

  private void assertMalformed(String body, String message) throws Exception {
    HttpResponse<String> answer = webhook.post(body.getBytes(StandardCharsets.UTF_8));
    assertThat(answer.statusCode()).as(body.length() > 80 ? body.substring(0, 80) : body).isEqualTo(400);
    assertThat(answer.body()).startsWith("malformed AdmissionReview: ").contains(message);
  }

  @Test
  void withoutAViewTheAnswerIs503SoTheFailurePolicyDecides() throws Exception {
    HttpResponse<String> answer = webhook.post(create("u", VIRTUAL_SERVICE).getBytes(StandardCharsets.UTF_8));

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.body()).contains("has not loaded its config yet");
  }

  @Test
  void otherPathsAndMethodsAreRefused() throws Exception {
    assertThat(webhook.send(HttpRequest.newBuilder(webhook.uri("/validate")).GET()).statusCode()).isEqualTo(405);
    assertThat(webhook.send(HttpRequest.newBuilder(webhook.uri("/validate")).GET()).headers()
        .firstValue("Allow")).hasValue("POST");
    assertThat(webhook.send(HttpRequest.newBuilder(webhook.uri("/mutate"))
        .POST(HttpRequest.BodyPublishers.ofString("{}"))).statusCode()).isEqualTo(404);
    assertThat(webhook.send(HttpRequest.newBuilder(webhook.uri("/validate/x"))
        .POST(HttpRequest.BodyPublishers.ofString("{}"))).statusCode()).isEqualTo(404);
  }

  @Test
  void aDeclaredOversizedBodyIs413BeforeAnyOfItIsRead() throws Exception {
    webhook.viewOf(UPSTREAM);
    try (SSLSocket socket = webhook.rawSocket()) {
      // Announces 4 MiB and sends none of it: only an answer that does not wait for the body can arrive.
      send(socket, "POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: " + (4 << 20) + "\r\n\r\n");
      String answer = readHead(socket.getInputStream());
      assertThat(answer).startsWith("HTTP/1.1 413").containsIgnoringCase(
          "X-Holdfast-Reason: request body larger than 3145728 bytes");
    }
  }

  @Test
  void anUndeclaredOversizedBodyIs413() throws Exception {
    WebhookFixture small = start(b -> b.maxRequestBytes(1024));
    small.viewOf(UPSTREAM);
    // Chunked (no Content-Length): the limit is found while reading.
    HttpResponse<String> answer = small.send(HttpRequest.newBuilder(small.uri(AdmissionWebhook.PATH))
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(new byte[4096]))));

    assertThat(answer.statusCode()).isEqualTo(413);
    assertThat(answer.headers().firstValue("X-Holdfast-Reason")).hasValue("request body larger than 1024 bytes");
    // A review just under the limit is still answered.
    String review = create("fits", VIRTUAL_SERVICE);
    assertThat(review.length()).isLessThan(1024);
    assertThat(small.review(review).get("allowed").asBoolean()).isTrue();
  }

  @Test
  void aRequestThatStallsIsCutOffAtTheRequestTimeout() throws Exception {
    WebhookFixture quick = start(b -> b.requestTimeout(Duration.ofMillis(300)));
    quick.viewOf(UPSTREAM);
    try (SSLSocket socket = quick.rawSocket()) {
      send(socket, "POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"apiVe");
      long begin = System.nanoTime();
      // No answer: the connection is closed (EOF or a reset), well before the socket's own 10 s read timeout.
      String answer;
      try {
        answer = readAll(socket.getInputStream());
      } catch (java.net.SocketException | javax.net.ssl.SSLException e) {
        answer = "";
      }
      assertThat(answer).isEmpty();
      assertThat(Duration.ofNanos(System.nanoTime() - begin)).isLessThan(Duration.ofSeconds(5));
    }
    // The webhook keeps answering others.
    assertThat(quick.review(create("next", VIRTUAL_SERVICE)).get("allowed").asBoolean()).isTrue();
  }

  @Test
  void theUidOfEveryAnswerIsTheRequestsOwn() throws Exception {
    webhook.viewOf(UPSTREAM);
    for (String uid : List.of("705ab4f5-6393-11e8-b7cc-42010a800002", "x", "ü-ñ")) {
      assertThat(webhook.review(create(uid, VIRTUAL_SERVICE)).get("uid").asString()).isEqualTo(uid);
      assertThat(webhook.review(reviewOf(uid, "CREATE", "apps", "Deployment", "demo", "d", "kind: Deployment"))
          .get("uid").asString()).isEqualTo(uid);
    }
  }

  private static void send(SSLSocket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Status line and headers: what arrives up to the blank line. */
  private static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    return head.toString();
  }

  private static String readAll(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }
}
