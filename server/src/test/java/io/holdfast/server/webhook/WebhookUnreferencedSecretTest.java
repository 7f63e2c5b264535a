package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.holdfast.election.ElectionSettings;
import io.holdfast.pki.TestCertificates;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Regression: the webhook judged against the pipeline's input, which holds only the Secrets some object already
 * names, so a new object naming an existing but so far unreferenced Secret was denied {@code SecretNotFound},
 * though the server serves it once the object exists. A Kubernetes-mode server with its webhook, on the emulated
 * API holding the Secrets: the verdict is the one the server writes on the object's status once it is created.
 */
class WebhookUnreferencedSecretTest {
  private static final String NS = "demo";
  private static final String OTHER = "other";
  private static final TestCertificates.Issued CA = TestCertificates.ca("webhook secret test CA");
  private static final String PASSWORD_HASH = sha1Base64("correct horse battery staple");
  /** The content of a Secret that is no certificate: the verdict says so without quoting it. */
  private static final String BROKEN_CONTENT = "not-a-certificate-7f3a9c";

  @TempDir
  Path dir;

  @Test
  void anObjectNamingAnExistingSecretNothingNamedYetIsJudgedAsTheServerWillJudgeIt() throws Exception {
    ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
        org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    root.addAppender(logs);
    try (MockKubeApi api = MockKubeApi.start()) {
      KubernetesClient admin = api.admin();
      installCrds(admin);
      TestCertificates.Issued web = TestCertificates.leaf(CA, "web", "web.test");
      TestCertificates.Issued shared = TestCertificates.leaf(CA, "shared", "shared.test");
      putSecret(admin, NS, "web-tls", "kubernetes.io/tls", tls(web));
      putSecret(admin, NS, "api-users", "Opaque", Map.of(".htpasswd", "alice:{SHA}" + PASSWORD_HASH + "\n"));
      putSecret(admin, OTHER, "shared-tls", "kubernetes.io/tls", tls(shared));
      putSecret(admin, OTHER, "granted-tls", "kubernetes.io/tls", tls(shared));
      putSecret(admin, NS, "broken-tls", "kubernetes.io/tls", Map.of("tls.crt", BROKEN_CONTENT,
          "tls.key", BROKEN_CONTENT));
      // A type the source never reads (it lists only kubernetes.io/tls and Opaque Secrets): not found, for both.
      putSecret(admin, NS, "basic-tls", "kubernetes.io/basic-auth", tls(web));
      apply(admin, OTHER, """
          apiVersion: gateway.networking.k8s.io/v1beta1
          kind: ReferenceGrant
          metadata: {name: demo-vs, namespace: other}
          spec:
            from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: demo}]
            to: [{group: "", kind: Secret, name: granted-tls}]
          """);
      apply(admin, NS, """
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: secure, namespace: demo}
          spec: {port: 10443, bindAddress: 127.0.0.1, ssl: true}
          """);
      apply(admin, NS, """
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: plain, namespace: demo}
          spec: {port: 10080, bindAddress: 127.0.0.1}
          """);

      var webhookCa = WebhookFixture.writeServerCertificate(dir.resolve("tls.crt"), dir.resolve("tls.key"), false);
      try (HoldfastServer holdfast = HoldfastServer.start(settings(api), Clock.systemUTC())) {
        HttpClient client = WebhookFixture.client(WebhookFixture.trusting(webhookCa));
        URI uri = URI.create("https://127.0.0.1:" + holdfast.webhookPort().orElseThrow() + AdmissionWebhook.PATH);
        await().atMost(Duration.ofSeconds(30)).until(() -> holdfast.statusBoard().current().isPresent());
        List<String> answers = new ArrayList<>();

        // The reproduction: the TLS Secret exists, nothing names it yet.
        JsonNode tlsVerdict = review(client, uri, answers, vs("web", "sslConfig: {secretRef: {name: web-tls}}"));
        assertThat(tlsVerdict.path("allowed").asBoolean()).as(tlsVerdict.toString()).isTrue();
        // A basic-auth user set in an Opaque Secret nothing names yet.
        JsonNode basicAuth = review(client, uri, answers,
            vs("guarded", "options: {security: {basicAuth: {users: {name: api-users}}}}"));
        assertThat(basicAuth.path("allowed").asBoolean()).as(basicAuth.toString()).isTrue();
        // Another namespace's Secret with a ReferenceGrant there.
        JsonNode granted = review(client, uri, answers,
            vs("granted", "sslConfig: {secretRef: {name: granted-tls, namespace: other}}"));
        assertThat(granted.path("allowed").asBoolean()).as(granted.toString()).isTrue();

        // A SecurityPolicy's basic-auth users, and a Gloo VirtualService's sslConfig.
        JsonNode policy = review(client, uri, answers, WebhookFixture.create("uid-policy", """
            apiVersion: gateway.holdfast.io/v1
            kind: SecurityPolicy
            metadata: {name: users, namespace: demo}
            spec:
              targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
              basicAuth: {users: {name: api-users}}
            """));
        assertThat(policy.path("allowed").asBoolean()).as(policy.toString()).isTrue();
        JsonNode gloo = review(client, uri, answers, WebhookFixture.create("uid-gloo", """
            apiVersion: gateway.solo.io/v1
            kind: VirtualService
            metadata: {name: gloo-web, namespace: demo}
            spec:
              sslConfig: {secretRef: {name: web-tls, namespace: demo}}
              virtualHost:
                domains: [gloo.test]
                routes: [{directResponseAction: {status: 200}}]
            """));
        assertThat(gloo.path("allowed").asBoolean()).as(gloo.toString()).isTrue();

        // A Secret that truly does not exist is still SecretNotFound.
        JsonNode missing = review(client, uri, answers, vs("missing", "sslConfig: {secretRef: {name: not-there}}"));
        assertThat(missing.path("allowed").asBoolean()).isFalse();
        assertThat(missing.path("status").path("message").asString()).contains("(SecretNotFound)");
        JsonNode policyMissing = review(client, uri, answers, WebhookFixture.create("uid-policy-missing", """
            apiVersion: gateway.holdfast.io/v1
            kind: SecurityPolicy
            metadata: {name: nobody, namespace: demo}
            spec:
              targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
              basicAuth: {users: {name: no-users}}
            """));
        assertThat(policyMissing.path("allowed").asBoolean()).isFalse();
        assertThat(policyMissing.path("status").path("message").asString()).contains("(SecretNotFound)");
        // A Secret that exists but holds no certificate is judged on its content, which the answer does not quote.
        JsonNode broken = review(client, uri, answers, vs("broken", "sslConfig: {secretRef: {name: broken-tls}}"));
        assertThat(broken.path("allowed").asBoolean()).isFalse();
        assertThat(broken.path("status").path("message").asString()).doesNotContain("SecretNotFound");
        // Nor may the webhook use a Secret the server cannot read (a type it does not list).
        JsonNode unread = review(client, uri, answers, vs("unread", "sslConfig: {secretRef: {name: basic-tls}}"));
        assertThat(unread.path("allowed").asBoolean()).isFalse();
        assertThat(unread.path("status").path("message").asString()).contains("(SecretNotFound)");
        // Another namespace's Secret without a ReferenceGrant is refused, though the source has it.
        JsonNode cross = review(client, uri, answers,
            vs("cross", "sslConfig: {secretRef: {name: shared-tls, namespace: other}}"));
        assertThat(cross.path("allowed").asBoolean()).isFalse();
        assertThat(cross.path("status").path("message").asString()).contains("(RefNotPermitted)")
            .doesNotContain("SecretNotFound");

        // No Secret content in any answer or log line: not the certificates, keys or password hash, nor their base64.
        List<String> secretText = new ArrayList<>();
        for (TestCertificates.Issued issued : List.of(web, shared)) {
          secretText.add(pemBody(issued.certificatePem()));
          secretText.add(pemBody(issued.traditionalPrivateKeyPem()));
          secretText.add(base64(issued.certificatePem()).substring(0, 40));
          secretText.add(base64(issued.traditionalPrivateKeyPem()).substring(0, 40));
        }
        secretText.add(PASSWORD_HASH);
        secretText.add(BROKEN_CONTENT);
        secretText.add(base64(BROKEN_CONTENT));
        String logged = String.join("\n", logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
        assertThat(logged).contains("admission denied uid=uid-broken");
        for (String text : secretText) {
          assertThat(answers).allSatisfy(answer -> assertThat(answer).doesNotContain(text));
          assertThat(logged).doesNotContain(text);
        }

        // The Secrets came from the source's cache: none was read by name (RBAC grants list and watch only).
        assertThat(api.requests()).noneMatch(r -> r.resourcePath().contains("/secrets/"));

        // What the server writes once the objects exist is what the webhook said.
        apply(admin, NS, vsYaml("web", "sslConfig: {secretRef: {name: web-tls}}"));
        apply(admin, NS, vsYaml("missing", "sslConfig: {secretRef: {name: not-there}}"));
        await().atMost(Duration.ofSeconds(30)).until(() -> accepted(admin, "web").isPresent()
            && accepted(admin, "missing").isPresent());
        assertThat(accepted(admin, "web").get()).containsEntry("status", "True");
        assertThat(accepted(admin, "missing").get()).containsEntry("status", "False")
            .containsEntry("reason", "SecretNotFound");
      }
    } finally {
      root.detachAppender(logs);
    }
  }

  /**
   * Regression: one {@code kubectl apply} of a Secret and the VirtualService naming it; the review arrived before the
   * Secret's watch event, so the source's cache lacked it and the review was denied SecretNotFound (applying again
   * passed). The emulated API holds back the Secrets' watch events: the webhook asks the API for the Secret (a list
   * narrowed to its name and type, within the RBAC's list and watch) and allows the object; a Secret that does not
   * exist is still SecretNotFound; each review makes a bounded number of lookups; with the API away the answer comes
   * within the check budget, a miss staying a miss; no Secret content in any answer or log.
   */
  @Test
  void aSecretAppliedWithTheObjectIsFoundBeforeItsWatchEventArrives() throws Exception {
    ch.qos.logback.classic.Logger root = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
        org.slf4j.Logger.ROOT_LOGGER_NAME);
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    root.addAppender(logs);
    try (MockKubeApi api = MockKubeApi.start(); FaultProxy proxy = FaultProxy.start("api", api.port())) {
      KubernetesClient admin = api.admin();
      installCrds(admin);
      apply(admin, NS, """
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: secure, namespace: demo}
          spec: {port: 10443, bindAddress: 127.0.0.1, ssl: true}
          """);
      var webhookCa = WebhookFixture.writeServerCertificate(dir.resolve("tls.crt"), dir.resolve("tls.key"), false);
      try (HoldfastServer holdfast = HoldfastServer.start(settings(proxy.port()), Clock.systemUTC())) {
        HttpClient client = WebhookFixture.client(WebhookFixture.trusting(webhookCa));
        URI uri = URI.create("https://127.0.0.1:" + holdfast.webhookPort().orElseThrow() + AdmissionWebhook.PATH);
        await().atMost(Duration.ofSeconds(30)).until(() -> holdfast.statusBoard().current().isPresent());
        List<String> answers = new ArrayList<>();

        api.holdWatchEvents("/secrets");
        TestCertificates.Issued late = TestCertificates.leaf(CA, "late", "late.test");
        putSecret(admin, NS, "late-tls", "kubernetes.io/tls", tls(late));
        int before = secretLookups(api);
        JsonNode verdict = review(client, uri, answers, vs("late", "sslConfig: {secretRef: {name: late-tls}}"));
        assertThat(verdict.path("allowed").asBoolean()).as(verdict.toString()).isTrue();
        assertThat(secretLookups(api) - before).as("one list, of the first type read").isEqualTo(1);

        int beforeMissing = secretLookups(api);
        JsonNode missing = review(client, uri, answers, vs("missing", "sslConfig: {secretRef: {name: never-made}}"));
        assertThat(missing.path("allowed").asBoolean()).isFalse();
        assertThat(missing.path("status").path("message").asString()).contains("(SecretNotFound)");
        assertThat(secretLookups(api) - beforeMissing).as("one list per type read, no more").isEqualTo(2);
        // Still no Secret read by name: list (narrowed by a field selector) and watch only, as RBAC grants.
        assertThat(api.requests()).noneMatch(r -> r.resourcePath().contains("/secrets/"));

        // The API away: the answer comes within the check budget (5 s), and the miss stays a miss.
        proxy.blackhole();
        putSecret(admin, NS, "later-tls", "kubernetes.io/tls", tls(late));
        long begin = System.nanoTime();
        JsonNode away = review(client, uri, answers, vs("later", "sslConfig: {secretRef: {name: later-tls}}"));
        Duration took = Duration.ofNanos(System.nanoTime() - begin);
        assertThat(away.path("allowed").asBoolean()).isFalse();
        assertThat(away.path("status").path("message").asString()).contains("(SecretNotFound)")
            .doesNotContain(CheckBudget.OVER_BUDGET);
        assertThat(took).isLessThan(io.holdfast.api.InputLimits.DEFAULT_WEBHOOK_CHECK_TIME);

        String logged = String.join("\n", logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
        for (String text : List.of(pemBody(late.certificatePem()), pemBody(late.traditionalPrivateKeyPem()),
            base64(late.certificatePem()).substring(0, 40), base64(late.traditionalPrivateKeyPem()).substring(0, 40))) {
          assertThat(answers).allSatisfy(answer -> assertThat(answer).doesNotContain(text));
          assertThat(logged).doesNotContain(text);
        }
        proxy.pass();
        api.releaseWatchEvents();
      }
    } finally {
      root.detachAppender(logs);
    }
  }

  /** Lists of Secrets narrowed to one name: the webhook's direct lookups. */
  private static int secretLookups(MockKubeApi api) {
    return (int) api.requests().stream().filter(r -> r.resourcePath().endsWith("/secrets") && !r.isWatch()
        && r.query("fieldSelector").orElse("").contains("metadata.name=")).count();
  }

  private ServeSettings settings(MockKubeApi api) {
    return settings(api.port());
  }

  private ServeSettings settings(int apiPort) {
    ElectionSettings election = ElectionSettings.builder().identity("r1").leaseNamespace("holdfast-system")
        .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
        .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
        .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
    return new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(), LogFormat.TEXT,
        Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(List.of(NS, OTHER),
        Optional.of("http://127.0.0.1:" + apiPort), Optional.empty())), election, Optional.empty(),
        Optional.of(new ServeSettings.Webhook("127.0.0.1", 0, dir.resolve("tls.crt"), dir.resolve("tls.key"))));
  }

  private static String vsYaml(String name, String tlsOrOptions) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: demo}
        spec:
          domains: [%s.test]
          routes: [{name: ok, match: {prefix: /}, directResponse: {status: 200}}]
          %s
        """.formatted(name, name, tlsOrOptions);
  }

  private static String vs(String name, String tlsOrOptions) {
    return WebhookFixture.create("uid-" + name, vsYaml(name, tlsOrOptions));
  }

  private static JsonNode review(HttpClient client, URI uri, List<String> answers, String body) throws Exception {
    HttpResponse<String> answer = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    answers.add(answer.body());
    return WebhookFixture.JSON.readTree(answer.body()).get("response");
  }

  private static void installCrds(KubernetesClient admin) throws Exception {
    for (String file : List.of("upstreams", "virtualservices", "gateways")) {
      try (InputStream in = Files.newInputStream(
          Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
        admin.apiextensions().v1().customResourceDefinitions()
            .resource(admin.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
      }
    }
    GatewayApiCrds.install(admin);
  }

  private static Map<String, String> tls(TestCertificates.Issued issued) {
    return Map.of("tls.crt", issued.certificatePem(), "tls.key", issued.traditionalPrivateKeyPem());
  }

  private static void putSecret(KubernetesClient admin, String namespace, String name, String type,
      Map<String, String> entries) {
    Map<String, String> data = new java.util.TreeMap<>();
    entries.forEach((key, value) -> data.put(key, base64(value)));
    admin.secrets().inNamespace(namespace).resource(new SecretBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withType(type).withData(data).build()).create();
  }

  private static void apply(KubernetesClient admin, String namespace, String yaml) {
    GenericKubernetesResource resource = admin.getKubernetesSerialization().unmarshal(yaml,
        GenericKubernetesResource.class);
    admin.genericKubernetesResources(resource.getApiVersion(), resource.getKind()).inNamespace(namespace)
        .resource(resource).create();
  }

  /** The VirtualService's Accepted condition as the server wrote it, if it has yet. */
  private static Optional<Map<String, String>> accepted(KubernetesClient admin, String name) {
    GenericKubernetesResource r = admin.genericKubernetesResources("gateway.holdfast.io/v1", "VirtualService")
        .inNamespace(NS).withName(name).get();
    if (r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("conditions") instanceof List<?> conditions)) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> c instanceof Map<?, ?> m && "Accepted".equals(m.get("type")))
        .map(c -> {
          Map<String, String> condition = new java.util.TreeMap<>();
          ((Map<?, ?>) c).forEach((k, v) -> condition.put(String.valueOf(k), String.valueOf(v)));
          return condition;
        }).findFirst();
  }

  /** A line from the middle of a PEM block's base64 body. */
  private static String pemBody(String pem) {
    String[] lines = pem.split("\n");
    return lines[lines.length / 2];
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String sha1Base64(String password) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
          .digest(password.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
