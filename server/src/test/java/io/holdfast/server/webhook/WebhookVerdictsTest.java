package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.ManifestDocument;
import io.holdfast.api.ManifestReader;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pipeline.ConfigPipeline;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.xds.server.XdsCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The webhook rejects exactly what the server rejects, with the same reasons: for every document of the bundled
 * example plus a set of broken ones, the verdict of an UPDATE review (the object as the view holds it) equals the
 * status the real pipeline publishes for it, finding for finding.
 */
class WebhookVerdictsTest {

  private static final String BROKEN = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: orphan, namespace: demo}
      spec:
        domains: [orphan.test]
        routes: [{match: {prefix: /}, route: {upstream: nowhere}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: copycat, namespace: demo, labels: {expose: public}}
      spec:
        domains: [echo.test]
        routes: [{match: {prefix: /}, route: {upstream: echo-v1}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: bad-port, namespace: demo}
      spec:
        static:
          hosts: [{address: 127.0.0.1, port: 70000}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: on-bad-port, namespace: demo}
      spec:
        domains: [bad.test]
        routes: [{match: {prefix: /}, route: {upstream: bad-port}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: typo, namespace: demo}
      spec:
        domains: [typo.test]
        routes: [{match: {prefx: /}, route: {upstream: echo-v1}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: clash, namespace: demo}
      spec:
        bindAddress: 0.0.0.0
        port: 10080
        selector: {matchLabels: {expose: none}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: TcpGateway
      metadata: {name: twins, namespace: demo}
      spec:
        port: 10600
        hosts:
          - {name: same, upstream: {name: echo-v1}}
          - {name: same, upstream: {name: echo-v2}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: ignored-timeout, namespace: demo}
      spec:
        domains: [moved.test]
        routes:
          - match: {prefix: /}
            redirect: {prefixRewrite: /, responseCode: 301}
            timeout: 5s
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: shop, namespace: demo}
      spec:
        domains: [shop.test]
        routes: [{match: {prefix: /shop/}, delegate: {ref: {name: shop-routes}}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: RouteTable
      metadata: {name: shop-routes, namespace: demo}
      spec:
        routes:
          - {match: {prefix: /shop/cart}, route: {upstream: echo-v1}}
          - {match: {prefix: /admin}, route: {upstream: echo-v1}}
      """;

  @TempDir
  Path dir;
  private WebhookFixture webhook;

  @BeforeEach
  void start() throws IOException {
    webhook = WebhookFixture.start(dir, b -> b);
  }

  @AfterEach
  void stop() {
    webhook.close();
  }

  @Test
  void everyVerdictEqualsTheStatusThePipelinePublishes() throws Exception {
    Map<String, String> sources = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(Path.of("..", "examples", "config"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        sources.put(f.getFileName().toString(), Files.readString(f));
      }
    }
    sources.put("broken.yaml", BROKEN);
    ConfigLoader.Loaded loaded = new ConfigLoader().load(sources.entrySet().stream()
        .map(e -> new ConfigLoader.Source(e.getKey(), e.getValue())).toList(), Map.of());
    assertThat(loaded.errors()).isEmpty();
    GatewayConfig config = loaded.config();

    StatusBoard board = new StatusBoard();
    ConfigPipeline pipeline = new ConfigPipeline(new XdsCache(), board, Clock.systemUTC(), new SimpleMeterRegistry(),
        t -> { });
    pipeline.apply(config, List.of());
    SortedMap<ResourceKey, ResourceStatus> statuses = board.current().orElseThrow().statuses();
    webhook.view.set(pipeline.currentInput());

    List<ManifestDocument> documents = new ArrayList<>();
    sources.forEach((name, text) -> documents.addAll(new ManifestReader().read(name, text).documents()));
    TreeSet<String> reasonsSeen = new TreeSet<>();
    TreeSet<String> kindsSeen = new TreeSet<>();
    int denied = 0;
    for (ManifestDocument document : documents) {
      JsonNode tree = document.tree();
      String kind = tree.path("kind").asString();
      String namespace = tree.path("metadata").path("namespace").asString();
      String name = tree.path("metadata").path("name").asString();
      ResourceStatus status = statuses.get(new ResourceKey(kind, namespace, name));
      assertThat(status).as("server status of %s/%s/%s", kind, namespace, name).isNotNull();

      JsonNode response = webhook.review(WebhookFixture.reviewOfTree("uid-" + name, "UPDATE", HoldfastKinds.GROUP, kind,
          namespace, name, tree));

      assertThat(response.get("allowed").asBoolean()).as("%s allowed (status %s)", status.key(), status.state())
          .isEqualTo(status.isServed());
      assertThat(WebhookFixture.said(response)).as("findings of %s", status.key())
          .containsExactlyElementsOf(status.problems().stream().map(Problem::toString).toList());
      status.problems().forEach(p -> reasonsSeen.add(p.reason()));
      kindsSeen.add(kind);
      denied += status.isServed() ? 0 : 1;
    }
    // The documents exercise what they are meant to: parse errors, references, claims, warnings, every kind.
    assertThat(reasonsSeen).contains("UpstreamNotFound", "UpstreamRejected", "PortOutOfRange", "UnknownField",
        "DuplicateDomain", "DuplicateListener", "DuplicateHost", "FieldIgnored", "PrefixViolation");
    assertThat(kindsSeen).containsExactlyInAnyOrderElementsOf(
        HoldfastKinds.ALL.stream().map(HoldfastKinds.Kind::kind).toList());
    assertThat(denied).isGreaterThanOrEqualTo(7);
    assertThat(Optional.of(statuses.size())).hasValue(documents.size());
  }
}
