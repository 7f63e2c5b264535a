package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.IrBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Gloo Upstream's {@code kube.selector} is read one to one into Holdfast's kube target: Gloo narrows the Service's
 * endpoints to the Pods carrying every selector label (an empty selector narrows nothing), and so does Holdfast,
 * with the same xDS as the hand-written Holdfast Upstream (issue 27). The Service, its EndpointSlice and the Pods are
 * documents beside them, as file mode reads them.
 */
class GlooKubeSelectorTest {

  private static final String CLUSTER = """
      apiVersion: v1
      kind: Service
      metadata: {name: petstore, namespace: default}
      spec: {ports: [{name: http, port: 8080}]}
      ---
      apiVersion: discovery.k8s.io/v1
      kind: EndpointSlice
      metadata: {name: petstore-1, namespace: default, labels: {kubernetes.io/service-name: petstore}}
      addressType: IPv4
      ports: [{name: http, port: 8080}]
      endpoints:
      - addresses: [192.0.2.20]
        targetRef: {kind: Pod, namespace: default, name: petstore-v1}
      - addresses: [192.0.2.21]
        targetRef: {kind: Pod, namespace: default, name: petstore-v2}
      - addresses: [192.0.2.22]
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: petstore-v1, namespace: default, labels: {app: petstore, version: v1}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: petstore-v2, namespace: default, labels: {app: petstore, version: v2}}
      ---
      """;

  private static String glooUpstream(String selector) {
    return """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: default-petstore-8080, namespace: gloo-system}
        spec:
          kube:
            serviceName: petstore
            serviceNamespace: default
            servicePort: 8080
            selector: %s
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - routeAction: {single: {upstream: {name: default-petstore-8080, namespace: gloo-system}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec: {bindAddress: '::', bindPort: 8080, httpGateway: {}}
        """.formatted(selector);
  }

  private static List<String> endpoints(IrBuilder.Result result) {
    ResourceKey upstream = new ResourceKey("gloo.solo.io", "Upstream", "gloo-system", "default-petstore-8080");
    return result.ir().clusters().stream().filter(c -> c.origin().object().equals(upstream))
        .flatMap(c -> c.endpoints().stream()).map(Cluster.WeightedEndpoint::address).toList();
  }

  @Test
  void theSelectorIsReadAndNarrowsTheEndpointsToThePodsCarryingItsLabels() {
    IrBuilder.Result result =
        GlooFixtures.build(GlooFixtures.load(CLUSTER + glooUpstream("{app: petstore, version: v2}")));

    assertThat(GlooFixtures.upstream(result, "gloo-system", "default-petstore-8080").isAccepted()).isTrue();
    assertThat(GlooFixtures.upstream(result, "gloo-system", "default-petstore-8080").findings()).isEmpty();
    assertThat(endpoints(result)).containsExactly("192.0.2.21");
  }

  @Test
  void anEmptySelectorNarrowsNothingAndOneNoPodMatchesLeavesNoEndpoint() {
    assertThat(endpoints(GlooFixtures.build(GlooFixtures.load(CLUSTER + glooUpstream("{}")))))
        .containsExactly("192.0.2.20", "192.0.2.21", "192.0.2.22");
    assertThat(endpoints(GlooFixtures.build(GlooFixtures.load(CLUSTER + glooUpstream("{version: v3}"))))).isEmpty();
  }

  @Test
  void aNonStringSelectorRejectsTheUpstream() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER + glooUpstream("{version: [v1, v2]}")));

    assertThat(GlooFixtures.upstream(result, "gloo-system", "default-petstore-8080").isAccepted()).isFalse();
    assertThat(GlooFixtures.upstream(result, "gloo-system", "default-petstore-8080").findings())
        .anySatisfy(f -> assertThat(f.field()).isEqualTo("spec.kube.selector.version"));
  }

  @Test
  void sameXdsAsTheHoldfastUpstreamWithItsSelector() {
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: default-petstore-8080, namespace: gloo-system}
        spec:
          kube: {name: petstore, namespace: default, port: 8080, selector: {app: petstore, version: v2}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /}
            route: {upstream: default-petstore-8080}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8080
          virtualServices: [{name: default}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(CLUSTER + glooUpstream("{app: petstore, version: v2}")),
        GlooFixtures.load(CLUSTER + holdfast), Map.of());
  }
}
