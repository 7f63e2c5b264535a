package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import org.junit.jupiter.api.Test;

class HelloWorldTest {

  static final String PETSTORE = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: petstore, namespace: gloo-system}
      spec:
        static:
          hosts:
          - addr: 192.0.2.10
            port: 8080
      ---
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: default, namespace: gloo-system}
      spec:
        virtualHost:
          domains: ['*']
          routes:
          - matchers:
            - exact: /all-pets
            options:
              prefixRewrite: /api/pets
            routeAction:
              single:
                upstream: {name: petstore, namespace: gloo-system}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec:
        bindAddress: '::'
        bindPort: 8080
        httpGateway: {}
        useProxyProto: false
      """;

  @Test
  void petstoreIsServed() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(PETSTORE));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").isAccepted())
        .as("%s", result.statuses()).isTrue();
    assertThat(GlooFixtures.gateway(result, "gloo-system", "gateway-proxy").isAccepted()).as("%s", result.statuses()).isTrue();
    assertThat(GlooFixtures.upstream(result, "gloo-system", "petstore").isAccepted()).isTrue();
    Listener.Socket socket = (Listener.Socket) result.ir().listeners().get(0);
    assertThat(socket.port()).isEqualTo(8080);
    assertThat(socket.origin().object().group()).isEqualTo("gateway.solo.io");
    assertThat(socket.proxyNames()).containsExactly("gateway-proxy");
    assertThat(socket.virtualHosts()).singleElement()
        .satisfies(h -> assertThat(h.origin().object().kind()).isEqualTo("VirtualService"));
    assertThat(result.ir().clusters()).singleElement()
        .satisfies(c -> assertThat(c.origin().object().group()).isEqualTo("gloo.solo.io"));
  }
}
