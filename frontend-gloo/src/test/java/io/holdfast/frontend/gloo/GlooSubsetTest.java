package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.Cluster;
import io.holdfast.ir.IrBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Gloo kube Upstream's {@code subsetSpec} and routes' {@code subset.values} (issue 27): a route choosing a subset
 * reaches only the Pods carrying its labels (one narrowed cluster per chosen subset), a route choosing none reaches
 * every endpoint (Gloo's ANY_ENDPOINT fallback), and a choice Holdfast cannot honour as Gloo would drops the
 * destination with a named reason rather than reach every endpoint. Service, EndpointSlice and Pods are documents
 * beside them, read as file mode reads them (the narrowed Service ports are resolved from the routes' choices).
 */
class GlooSubsetTest {

  private static final String CLUSTER = """
      apiVersion: v1
      kind: Service
      metadata: {name: echoapp, namespace: default}
      spec: {ports: [{name: http, port: 80}]}
      ---
      apiVersion: discovery.k8s.io/v1
      kind: EndpointSlice
      metadata: {name: echoapp-1, namespace: default, labels: {kubernetes.io/service-name: echoapp}}
      addressType: IPv4
      ports: [{name: http, port: 8080}]
      endpoints:
      - addresses: [192.0.2.30]
        targetRef: {kind: Pod, namespace: default, name: echo-dev}
      - addresses: [192.0.2.31]
        targetRef: {kind: Pod, namespace: default, name: echo-prod}
      - addresses: [192.0.2.32]
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: echo-dev, namespace: default, labels: {app: echo, stage: dev}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: echo-prod, namespace: default, labels: {app: echo, stage: prod}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec: {bindAddress: '::', bindPort: 8080, httpGateway: {}}
      ---
      """;

  private static String upstream(String subsetSpec) {
    return """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: echoapp, namespace: gloo-system}
        spec:
          kube:
            serviceName: echoapp
            serviceNamespace: default
            servicePort: 80
            subsetSpec: %s
        ---
        """.formatted(subsetSpec);
  }

  private static final String SUBSETS = "{selectors: [{keys: [stage]}]}";

  private static String virtualService(String subset) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - matchers: [{prefix: /dev}]
              routeAction:
                single:
                  upstream: {name: echoapp, namespace: gloo-system}
                  subset: %s
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: echoapp, namespace: gloo-system}}}
        ---
        """.formatted(subset);
  }

  private static List<String> endpoints(IrBuilder.Result result, String kind) {
    return result.ir().clusters().stream().filter(c -> c.origin().object().kind().equals(kind))
        .flatMap(c -> c.endpoints().stream()).map(Cluster.WeightedEndpoint::address).toList();
  }

  @Test
  void aChosenSubsetReachesOnlyItsPodsAndARouteChoosingNoneReachesEveryEndpoint() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER + upstream(SUBSETS)
        + virtualService("{values: {stage: dev}}")));

    assertThat(GlooFixtures.upstream(result, "gloo-system", "echoapp").isAccepted()).isTrue();
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").isAccepted()).isTrue();
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").findings()).isEmpty();
    assertThat(endpoints(result, GlooKinds.SUBSET_DESTINATION)).containsExactly("192.0.2.30");
    assertThat(endpoints(result, GlooKinds.UPSTREAM)).containsExactly("192.0.2.30", "192.0.2.31", "192.0.2.32");
  }

  @Test
  void anUpstreamGroupDestinationMayChooseASubsetToo() {
    String group = """
        apiVersion: gloo.solo.io/v1
        kind: UpstreamGroup
        metadata: {name: echo, namespace: gloo-system}
        spec:
          destinations:
          - weight: 1
            destination: {upstream: {name: echoapp}, subset: {values: {stage: prod}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - routeAction: {upstreamGroup: {name: echo}}
        ---
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER + upstream(SUBSETS) + group));

    assertThat(GlooFixtures.status(result, "gloo.solo.io", "UpstreamGroup", "gloo-system", "echo").findings())
        .isEmpty();
    assertThat(endpoints(result, GlooKinds.SUBSET_DESTINATION)).containsExactly("192.0.2.31");
  }

  @Test
  void keysThatAreNotASelectorsDropTheDestinationRatherThanReachEveryEndpoint() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER + upstream(SUBSETS)
        + virtualService("{values: {app: echo}}")));

    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").findings())
        .anySatisfy(f -> assertThat(f.reason()).isEqualTo(Destinations.SUBSET_UNAVAILABLE));
    assertThat(endpoints(result, GlooKinds.SUBSET_DESTINATION)).isEmpty();
  }

  @Test
  void aSubsetOfAnUpstreamWithoutSubsetSpecIsUnavailable() {
    String plain = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: echoapp, namespace: gloo-system}
        spec: {kube: {serviceName: echoapp, serviceNamespace: default, servicePort: 80}}
        ---
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER + plain
        + virtualService("{values: {stage: dev}}")));

    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").findings())
        .anySatisfy(f -> assertThat(f.reason()).isEqualTo(Destinations.SUBSET_UNAVAILABLE));
    assertThat(endpoints(result, GlooKinds.SUBSET_DESTINATION)).isEmpty();
  }

  @Test
  void aValueContradictingTheUpstreamSelectorIsUnavailable() {
    String selected = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: echoapp, namespace: gloo-system}
        spec:
          kube:
            serviceName: echoapp
            serviceNamespace: default
            servicePort: 80
            selector: {stage: prod}
            subsetSpec: {selectors: [{keys: [stage]}]}
        ---
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER + selected
        + virtualService("{values: {stage: dev}}")));

    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").findings())
        .anySatisfy(f -> assertThat(f.reason()).isEqualTo(Destinations.SUBSET_UNAVAILABLE));
    assertThat(endpoints(result, GlooKinds.UPSTREAM)).containsExactly("192.0.2.31");
  }

  @Test
  void fallbacksOtherThanAnyEndpointAndSingleHostSubsetsRejectTheUpstream() {
    for (String spec : List.of("{fallbackPolicy: NO_FALLBACK, selectors: [{keys: [stage]}]}",
        "{fallbackPolicy: DEFAULT_SUBSET, defaultSubset: {values: {stage: dev}}, selectors: [{keys: [stage]}]}",
        "{selectors: [{keys: [stage], singleHostPerSubset: true}]}", "{selectors: [{keys: []}]}")) {
      IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER + upstream(spec)));

      assertThat(GlooFixtures.upstream(result, "gloo-system", "echoapp").isAccepted()).as(spec).isFalse();
      assertThat(GlooFixtures.upstream(result, "gloo-system", "echoapp").findings()).as(spec)
          .anySatisfy(f -> assertThat(f.field()).startsWith("spec.kube.subsetSpec"));
    }
    IrBuilder.Result explicit = GlooFixtures.build(GlooFixtures.load(CLUSTER
        + upstream("{fallbackPolicy: ANY_ENDPOINT, selectors: [{keys: [stage]}]}")));
    assertThat(GlooFixtures.upstream(explicit, "gloo-system", "echoapp").isAccepted()).isTrue();
  }

  @Test
  void subsetsWhoseLabelsPrintAlikeStillGetTheirOwnClusters() {
    String routes = """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - matchers: [{prefix: /a}]
              routeAction: {single: {upstream: {name: echoapp}, subset: {values: {stage: 'dev, app=echo'}}}}
            - matchers: [{prefix: /b}]
              routeAction: {single: {upstream: {name: echoapp}, subset: {values: {stage: dev, app: echo}}}}
        ---
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(CLUSTER
        + upstream("{selectors: [{keys: [stage]}, {keys: [app, stage]}]}") + routes));

    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").findings()).isEmpty();
    assertThat(result.ir().clusters().stream()
        .filter(c -> c.origin().object().kind().equals(GlooKinds.SUBSET_DESTINATION))).hasSize(2);
    assertThat(endpoints(result, GlooKinds.SUBSET_DESTINATION)).containsExactly("192.0.2.30");
  }
}
