package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The webhook judges Gloo Edge's kinds (issue 27) as the Gloo front end does, when a cluster sends them. */
class GlooAdmissionTest {

  private static final String VIEW = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: petstore, namespace: gloo-system}
      spec:
        static: {hosts: [{addr: 127.0.0.1, port: 9101}]}
      """;

  @TempDir
  Path tmp;

  @Test
  void aGlooVirtualServiceIsAdmittedOrDeniedWithTheFieldNamed() throws IOException, InterruptedException {
    try (WebhookFixture webhook = WebhookFixture.start(tmp, b -> b)) {
      webhook.viewOf(VIEW);
      JsonNode good = webhook.review(WebhookFixture.reviewOf("good", "CREATE", "gateway.solo.io", "VirtualService",
          "gloo-system", "default", """
              apiVersion: gateway.solo.io/v1
              kind: VirtualService
              metadata: {name: default, namespace: gloo-system}
              spec:
                virtualHost:
                  routes: [{routeAction: {single: {upstream: {name: petstore}}}}]
              """));
      assertThat(good.get("allowed").asBoolean()).as("%s", good).isTrue();

      JsonNode bad = webhook.review(WebhookFixture.reviewOf("bad", "CREATE", "gateway.solo.io", "VirtualService",
          "gloo-system", "lambda", """
              apiVersion: gateway.solo.io/v1
              kind: VirtualService
              metadata: {name: lambda, namespace: gloo-system}
              spec:
                virtualHost:
                  options: {transformations: {}}
                  routes: [{routeAction: {single: {upstream: {name: petstore}}}}]
              """));
      assertThat(bad.get("allowed").asBoolean()).isFalse();
      assertThat(bad.path("status").path("message").asString())
          .contains("spec.virtualHost.options.transformations", "UnsupportedGlooFeature");
    }
  }

  /**
   * Gloo's kinds have no status subresource, so the leader writes Holdfast's status entry through the object: that
   * UPDATE must pass even for an object the webhook would refuse (its status is where the refusal is told), while
   * an UPDATE that also touches the spec is judged as any other.
   */
  @Test
  void aStatusOnlyUpdateOfARejectedGlooObjectIsAllowedAndASpecChangeIsJudged() throws IOException,
      InterruptedException {
    String rejected = """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: lambda, namespace: gloo-system, resourceVersion: "7", generation: 3}
        spec:
          virtualHost:
            options: {transformations: {}}
            routes: [{routeAction: {single: {upstream: {name: petstore}}}}]
        """;
    JsonNode old = WebhookFixture.YAML.readTree(rejected);
    ObjectNode withStatus = (ObjectNode) old.deepCopy();
    ((ObjectNode) withStatus.get("metadata")).put("generation", 4);
    withStatus.putObject("status").putObject("statuses").putObject("holdfast-system").put("state", "Rejected")
        .put("reportedBy", "holdfast");
    try (WebhookFixture webhook = WebhookFixture.start(tmp, b -> b)) {
      webhook.viewOf(VIEW);
      JsonNode statusWrite = webhook.review(WebhookFixture.reviewOfUpdate("status", "gateway.solo.io",
          "VirtualService", "gloo-system", "lambda", withStatus, old));
      assertThat(statusWrite.get("allowed").asBoolean()).as("%s", statusWrite).isTrue();

      ObjectNode specToo = withStatus.deepCopy();
      ((ObjectNode) specToo.get("spec").get("virtualHost")).putArray("domains")
          .add("shop.example.com");
      JsonNode specWrite = webhook.review(WebhookFixture.reviewOfUpdate("spec", "gateway.solo.io",
          "VirtualService", "gloo-system", "lambda", specToo, old));
      assertThat(specWrite.get("allowed").asBoolean()).as("%s", specWrite).isFalse();
      assertThat(specWrite.path("status").path("message").asString())
          .contains("spec.virtualHost.options.transformations", "UnsupportedGlooFeature");
    }
  }
}
