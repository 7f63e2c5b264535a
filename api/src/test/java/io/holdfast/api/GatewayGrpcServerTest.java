package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code spec.grpcServer} is read, defaults to false, and survives every rebuild of the Gateway. */
class GatewayGrpcServerTest {

  private static Gateway gateway(String extra) {
    return TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: grpc}
        spec:
          port: 50051
        """ + extra).gateways().get(0);
  }

  @Test
  void grpcServerIsReadAndDefaultsToFalse() {
    assertThat(gateway("  grpcServer: true\n").grpcServer()).isTrue();
    assertThat(gateway("").grpcServer()).isFalse();
  }

  /** Regression guard: rebuilding through a shorter constructor would serve the listener to Envoy instead. */
  @Test
  void withMetadataAndWithSelectionKeepIt() {
    Gateway grpc = gateway("  grpcServer: true\n");
    assertThat(grpc.withMetadata(Metadata.of("other", "grpc")).grpcServer()).isTrue();
    assertThat(grpc.withSelection(new VirtualServiceSelection.AllInNamespace()).grpcServer()).isTrue();
  }
}
