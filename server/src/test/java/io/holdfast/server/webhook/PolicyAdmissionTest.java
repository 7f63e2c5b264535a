package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The webhook judges Holdfast's Gateway API policy kinds (SecurityPolicy, TrafficPolicy, ClientTrafficPolicy)
 * through its HTTP endpoint, as the Gateway API front end judges them in the view: a policy with an error in its own
 * spec is denied with the named reason and field; one whose target does not exist yet is admitted with a warning
 * (kubectl may apply a policy before its route); a delete is allowed.
 */
class PolicyAdmissionTest {

  private static final String VIEW = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: holdfast}
      spec: {controllerName: holdfast.io/gateway-controller}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: web}
      spec:
        gatewayClassName: holdfast
        listeners: [{name: http, port: 8080, protocol: HTTP}]
      """;

  @TempDir
  Path tmp;

  private static String policy(String kind, String name, String fields) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: %s
        metadata: {name: %s, namespace: web}
        spec:
        %s""".formatted(kind, name, fields.indent(2));
  }

  private static List<String> warnings(JsonNode response) {
    List<String> out = new ArrayList<>();
    response.path("warnings").forEach(w -> out.add(w.asString()));
    return out;
  }

  @Test
  void policiesWithSpecErrorsAreDeniedWithTheirReasons() throws IOException, InterruptedException {
    try (WebhookFixture webhook = WebhookFixture.start(tmp, b -> b)) {
      webhook.viewOf(VIEW);
      JsonNode zero = webhook.review(WebhookFixture.create("zero", policy("TrafficPolicy", "zero", """
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
          rateLimit: {local: {maxTokens: 0, fillInterval: 1s}}
          """)));
      assertThat(zero.get("allowed").asBoolean()).as("%s", zero).isFalse();
      assertThat(zero.path("status").path("message").asString()).contains("ZeroRate", "spec.rateLimit");

      JsonNode cidr = webhook.review(WebhookFixture.create("cidr", policy("SecurityPolicy", "cidr", """
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
          rbac: {rules: [{clientIp: [not-an-address]}]}
          """)));
      assertThat(cidr.get("allowed").asBoolean()).as("%s", cidr).isFalse();
      assertThat(cidr.path("status").path("message").asString()).contains("InvalidCidr");

      JsonNode als = webhook.review(WebhookFixture.create("als", policy("ClientTrafficPolicy", "als", """
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
          accessLogs: [{grpc: {backendRef: {name: nope, port: 9000}, logName: edge}}]
          """)));
      assertThat(als.get("allowed").asBoolean()).as("%s", als).isFalse();
      assertThat(als.path("status").path("message").asString())
          .contains("BackendNotFound", "spec.accessLogs[0].grpc.backendRef");
    }
  }

  @Test
  void aValidPolicyIsAdmittedAndOneWaitingForItsTargetIsWarned() throws IOException, InterruptedException {
    try (WebhookFixture webhook = WebhookFixture.start(tmp, b -> b)) {
      webhook.viewOf(VIEW);
      JsonNode good = webhook.review(WebhookFixture.create("good", policy("ClientTrafficPolicy", "good", """
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
          idleTimeout: 30s
          """)));
      assertThat(good.get("allowed").asBoolean()).as("%s", good).isTrue();
      assertThat(warnings(good)).isEmpty();

      JsonNode early = webhook.review(WebhookFixture.create("early", policy("TrafficPolicy", "early", """
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: not-yet}]
          compression: [gzip]
          """)));
      assertThat(early.get("allowed").asBoolean()).as("%s", early).isTrue();
      assertThat(warnings(early)).anySatisfy(w -> assertThat(w).contains("TargetNotFound"));

      JsonNode unused = webhook.review(WebhookFixture.create("unused", policy("SecurityPolicy", "unused", """
          rbac: {rules: [{clientIp: [192.0.2.0/24]}]}
          """)));
      assertThat(unused.get("allowed").asBoolean()).as("%s", unused).isTrue();
      assertThat(warnings(unused)).anySatisfy(w -> assertThat(w).contains("NoTargets"));

      JsonNode delete = webhook.review(WebhookFixture.reviewOf("delete", "DELETE", "gateway.holdfast.io",
          "TrafficPolicy", "web", "zero", null));
      assertThat(delete.get("allowed").asBoolean()).isTrue();
    }
  }
}
