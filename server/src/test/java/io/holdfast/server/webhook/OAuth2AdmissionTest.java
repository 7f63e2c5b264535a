package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.ManifestDocument;
import io.holdfast.api.ManifestReader;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pipeline.ConfigPipeline;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.xds.server.XdsCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The webhook judges an OAuth2 login's cross-namespace Secret as the server does: the VirtualService a
 * ReferenceGrant in the Secret's namespace permits is admitted, the one of a namespace without a grant is denied
 * with RefNotPermitted on both credentials, finding for finding what the pipeline publishes.
 */
class OAuth2AdmissionTest {

  private static final String CONFIG = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: idp, namespace: default}
      spec: {static: {hosts: [{address: 127.0.0.1, port: 9443}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: app, namespace: default}
      spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
      ---
      apiVersion: v1
      kind: Secret
      metadata: {name: shared-oauth, namespace: idp}
      type: Opaque
      stringData: {client-secret: admission-client-value, hmac-secret: admission-hmac-value}
      ---
      apiVersion: gateway.networking.k8s.io/v1beta1
      kind: ReferenceGrant
      metadata: {name: oauth-to-team, namespace: idp}
      spec:
        from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: team}]
        to: [{group: "", kind: Secret, name: shared-oauth}]
      ---
      %s
      ---
      %s
      """.formatted(login("team"), login("rogue"));

  private static String login(String namespace) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shared, namespace: %1$s}
        spec:
          domains: [%1$s.test]
          options:
            security:
              oauth2:
                tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp, namespace: default}
                authorizationEndpoint: https://idp.test/authorize
                clientId: %1$s
                clientSecret: {name: shared-oauth, namespace: idp}
                hmacSecret: {name: shared-oauth, namespace: idp}
          routes: [{match: {prefix: /}, route: {upstream: app, namespace: default}}]
        """.formatted(namespace).strip();
  }

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
  void theVerdictOnACrossNamespaceSecretEqualsTheServersStatus() throws Exception {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("oauth2.yaml", CONFIG)),
        Map.of());
    assertThat(loaded.errors()).isEmpty();
    StatusBoard board = new StatusBoard();
    ConfigPipeline pipeline = new ConfigPipeline(new XdsCache(), board, Clock.systemUTC(), new SimpleMeterRegistry(),
        t -> { });
    pipeline.apply(loaded.config(), List.of());
    SortedMap<ResourceKey, ResourceStatus> statuses = board.current().orElseThrow().statuses();
    webhook.view.set(pipeline.currentInput());

    ResourceStatus team = statuses.get(ResourceKey.virtualService("team", "shared"));
    ResourceStatus rogue = statuses.get(ResourceKey.virtualService("rogue", "shared"));
    assertThat(team.isServed()).isTrue();
    assertThat(rogue.isServed()).isFalse();
    assertThat(rogue.problems()).extracting(Problem::field).contains("spec.options.security.oauth2.clientSecret",
        "spec.options.security.oauth2.hmacSecret");
    assertThat(rogue.problems()).extracting(Problem::reason).contains(Reasons.REF_NOT_PERMITTED);

    for (ManifestDocument document : new ManifestReader().read("oauth2.yaml", CONFIG).documents()) {
      JsonNode tree = document.tree();
      if (!tree.path("kind").asString().equals("VirtualService")) {
        continue;
      }
      String namespace = tree.path("metadata").path("namespace").asString();
      ResourceStatus status = statuses.get(ResourceKey.virtualService(namespace, "shared"));
      JsonNode response = webhook.review(WebhookFixture.reviewOfTree("uid-" + namespace, "UPDATE",
          HoldfastKinds.GROUP, "VirtualService", namespace, "shared", tree));

      assertThat(response.get("allowed").asBoolean()).as("%s allowed", status.key()).isEqualTo(status.isServed());
      assertThat(WebhookFixture.said(response)).as("findings of %s", status.key())
          .containsExactlyElementsOf(status.problems().stream().map(Problem::toString).toList());
    }
  }
}
