package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static io.holdfast.frontend.gatewayapi.Fixtures.config;
import static io.holdfast.frontend.gatewayapi.Fixtures.lower;
import static io.holdfast.frontend.gatewayapi.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.ir.Condition;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** GatewayClass conformance intents: Holdfast accepts the classes naming its controller, and only those. */
class GatewayClassConformanceTest {

  private static final ResourceKey CLASS = new ResourceKey(Fixtures.GROUP, "GatewayClass", "", "holdfast");

  @Test
  void gatewayClassObservedGenerationBump() {
    ObjectNode body = (ObjectNode) TestManifests.tree(Fixtures.CLASS);
    for (long generation : new long[] {1, 2}) {
      ((ObjectNode) body.get("metadata")).put("generation", generation);
      GatewayConfig config = GatewayConfig.builder().add(new ApiObject(CLASS, generation, body)).build();
      ObjectStatus status = status(lower(config), CLASS);
      assertThat(status.observedGeneration()).isEqualTo(generation);
      assertThat(status.conditions()).extracting(Condition::observedGeneration).containsOnly(generation);
      assertCondition(status.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
      assertCondition(status.conditions(), "SupportedVersion", Condition.Status.TRUE, "SupportedVersion");
    }
  }

  @Test
  void gatewayClassOfAnotherControllerGetsNoStatusAndItsGatewaysAreNotProgrammed() {
    IrBuilder.Result result = lower(config("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: other}
        spec:
          controllerName: example.test/other-controller
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: foreign, namespace: infra}
        spec:
          gatewayClassName: other
          listeners:
            - {name: http, port: 8080, protocol: HTTP}
        """));
    assertThat(result.statuses()).isEmpty();
    assertThat(result.ir().listeners()).isEmpty();
  }

  @Test
  void gatewayClassWithParametersIsNotAccepted() {
    IrBuilder.Result result = lower(config("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: holdfast}
        spec:
          controllerName: holdfast.io/gateway-controller
          parametersRef: {group: example.test, kind: Params, name: p}
        """, Fixtures.gateway("infra", "edge", "- {name: http, port: 8080, protocol: HTTP}")));
    assertCondition(status(result, CLASS).conditions(), Condition.ACCEPTED, Condition.Status.FALSE,
        "InvalidParameters");
    assertThat(result.statuses()).doesNotContainKey(Fixtures.gatewayKey("infra", "edge"));
  }
}
