package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.IrBuilder;
import org.junit.jupiter.api.Test;
import io.holdfast.frontend.holdfast.ResourceStatus;

class GlooStatusTest {

  @Test
  void verdictsAreAcceptedWarningOrRejectedWithGloosFieldPaths() {
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

    ResourceStatus accepted = ResourceStatus.of(GlooFixtures.virtualService(result, "gloo-system", "default"));
    assertThat(accepted.state()).isEqualTo(ResourceStatus.State.ACCEPTED);

    ResourceStatus rejected = ResourceStatus.of(GlooFixtures.virtualService(result, "gloo-system", "lambda"));
    assertThat(rejected.state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(rejected.problems()).anySatisfy(p -> {
      assertThat(p.field()).isEqualTo("spec.virtualHost.routes[0].routeAction.single.destinationSpec");
      assertThat(p.reason()).isEqualTo("UnsupportedGlooFeature");
    });

    // Findings of Holdfast's validation are given back in Gloo's paths (spec.virtualHost.routes, not spec.routes).
    ResourceStatus warned = ResourceStatus.of(GlooFixtures.virtualService(result, "gloo-system", "grpc-visible"));
    assertThat(warned.state()).isEqualTo(ResourceStatus.State.WARNING);
    assertThat(warned.problems()).allSatisfy(p -> assertThat(p.field()).startsWith("spec.virtualHost.routes[0]"));
  }
}
