package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.IrBuilder;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class GlooStatusTest {

  @Test
  void statusesAreWrittenInGloosShapePerControllerNamespace() {
    String yaml = HelloWorldTest.PETSTORE + """
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: lambda, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [lambda.example.test]
            routes:
            - routeAction:
                single:
                  upstream: {name: petstore}
                  destinationSpec: {aws: {logicalName: fn}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: grpc-visible, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [grpc.example.test]
            routes:
            - redirectAction: {hostRedirect: elsewhere.example.test}
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));

    JsonNode accepted = GlooStatus.body(GlooFixtures.virtualService(result, "gloo-system", "default"),
        "holdfast-system").path("namespacedStatuses").path("statuses").path("holdfast-system");
    assertThat(accepted.path("state").asString()).isEqualTo("Accepted");
    assertThat(accepted.path("reportedBy").asString()).isEqualTo("holdfast");
    assertThat(accepted.has("reason")).isFalse();

    JsonNode rejected = GlooStatus.body(GlooFixtures.virtualService(result, "gloo-system", "lambda"),
        "holdfast-system").path("namespacedStatuses").path("statuses").path("holdfast-system");
    assertThat(rejected.path("state").asString()).isEqualTo("Rejected");
    assertThat(rejected.path("reason").asString())
        .contains("spec.virtualHost.routes[0].routeAction.single.destinationSpec", "UnsupportedGlooFeature");

    JsonNode warned = GlooStatus.body(GlooFixtures.virtualService(result, "gloo-system", "grpc-visible"),
        "holdfast-system").path("namespacedStatuses").path("statuses").path("holdfast-system");
    assertThat(warned.path("state").asString()).isEqualTo("Warning");
    assertThat(warned.path("warnings").get(0).asString()).contains("spec.virtualHost.routes[0]");
  }
}
