package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * File mode stands in for the cluster with Pods too: a kube Upstream's selector (Holdfast's {@code spec.kube.selector}
 * or a Gloo Upstream's {@code kube.selector}) narrows the Service's endpoints by the labels of the Pods in the
 * directory, as Kubernetes mode does (issue 27).
 */
class PodSelectorFilesTest {

  private static final String CLUSTER = """
      apiVersion: v1
      kind: Service
      metadata: {name: echo, namespace: shop}
      spec: {ports: [{name: http, port: 80}]}
      ---
      apiVersion: discovery.k8s.io/v1
      kind: EndpointSlice
      metadata: {name: echo-1, namespace: shop, labels: {kubernetes.io/service-name: echo}}
      addressType: IPv4
      ports: [{name: http, port: 8080}]
      endpoints:
      - addresses: [127.0.0.21]
        targetRef: {kind: Pod, namespace: shop, name: echo-canary}
      - addresses: [127.0.0.22]
        targetRef: {kind: Pod, name: echo-stable}
      - addresses: [127.0.0.23]
      - addresses: [127.0.0.24]
        targetRef: {kind: Pod, namespace: shop, name: not-in-the-directory}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: echo-canary, namespace: shop, labels: {app: echo, track: canary}}
      spec: {containers: [{name: echo, image: echo}]}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: echo-stable, namespace: shop, labels: {app: echo, track: stable}}
      """;

  private static ConfigLoader.Loaded load(String upstreams) {
    return new ConfigLoader().load(List.of(new ConfigLoader.Source("cluster.yaml", CLUSTER),
        new ConfigLoader.Source("upstreams.yaml", upstreams)), Map.of());
  }

  private static ServiceRef echo(Map<String, String> selector) {
    return ServiceRef.selecting("shop", "echo", 80, selector);
  }

  @Test
  void aHoldfastUpstreamsSelectorNarrowsToThePodsCarryingItsLabels() {
    ConfigLoader.Loaded loaded = load("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: canary, namespace: shop}
        spec: {kube: {name: echo, port: 80, selector: {track: canary}}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: all-echo, namespace: shop}
        spec: {kube: {name: echo, port: 80, selector: {app: echo}}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: nobody, namespace: shop}
        spec: {kube: {name: echo, port: 80, selector: {track: none}}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: whole, namespace: shop}
        spec: {kube: {name: echo, port: 80, selector: {}}}
        """);

    assertThat(loaded.errors()).isEmpty();
    assertThat(loaded.unknownKinds()).isEmpty(); // Pods are read, not rejected as a kind Holdfast does not read
    assertThat(loaded.config().unparsed()).isEmpty();
    GatewayConfig config = loaded.config();
    assertThat(config.endpointsOf(echo(Map.of("track", "canary")))).containsExactly(new Endpoint("127.0.0.21", 8080));
    // A targetRef without namespace is the slice's; no targetRef, or a Pod not in the directory: never selected.
    assertThat(config.endpointsOf(echo(Map.of("app", "echo")))).containsExactly(new Endpoint("127.0.0.21", 8080),
        new Endpoint("127.0.0.22", 8080));
    assertThat(config.serviceEndpoints()).containsKey(echo(Map.of("track", "none")));
    assertThat(config.endpointsOf(echo(Map.of("track", "none")))).isEmpty();
    // An empty selector narrows nothing, as in Gloo.
    assertThat(config.upstreams()).filteredOn(u -> u.key().name().equals("whole")).singleElement()
        .satisfies(u -> assertThat(((UpstreamTarget.Kube) u.target()).selector()).isEmpty());
    assertThat(config.endpointsOf(new ServiceRef("shop", "echo", 80))).hasSize(4);
  }

  @Test
  void aGlooUpstreamsKubeSelectorIsResolvedTheSameWay() {
    ConfigLoader.Loaded loaded = load("""
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: shop-echo-80, namespace: gloo-system}
        spec:
          kube:
            serviceName: echo
            serviceNamespace: shop
            servicePort: 80
            selector: {track: stable}
        """);

    assertThat(loaded.config().endpointsOf(echo(Map.of("track", "stable"))))
        .containsExactly(new Endpoint("127.0.0.22", 8080));
  }

  @Test
  void routesSubsetChoicesOfAGlooUpstreamWithSubsetSpecAreResolvedJoinedToItsSelector() {
    ConfigLoader.Loaded loaded = load("""
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: shop-echo-80, namespace: gloo-system}
        spec:
          kube:
            serviceName: echo
            serviceNamespace: shop
            servicePort: 80
            selector: {app: echo}
            subsetSpec: {selectors: [{keys: [track]}]}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: plain, namespace: gloo-system}
        spec: {kube: {serviceName: echo, serviceNamespace: shop, servicePort: 80}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - routeAction: {single: {upstream: {name: shop-echo-80}, subset: {values: {track: canary}}}}
            - routeAction: {single: {upstream: {name: shop-echo-80}, subset: {values: {app: other}}}}
            - routeAction: {single: {upstream: {name: plain}, subset: {values: {track: stable}}}}
        """);

    GatewayConfig config = loaded.config();
    assertThat(config.endpointsOf(echo(Map.of("app", "echo", "track", "canary"))))
        .containsExactly(new Endpoint("127.0.0.21", 8080));
    // A value contradicting the selector, or a subset of an Upstream without subsetSpec: nothing resolved (the
    // front end rejects the choice).
    assertThat(config.serviceEndpoints().keySet()).noneMatch(ref -> ref.selector().containsValue("other")
        || ref.selector().equals(Map.of("track", "stable")));
  }

  @Test
  void theSelectorIsParsedIntoTheKubeTargetAndAWrongShapeIsAProblem() {
    ConfigLoader.Loaded loaded = load("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: canary, namespace: shop}
        spec: {kube: {namespace: shop, name: echo, port: 80, selector: {track: canary}}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: listed, namespace: shop}
        spec: {kube: {name: echo, port: 80, selector: [track]}}
        """);

    assertThat(loaded.config().upstreams()).singleElement().satisfies(u -> assertThat(u.target())
        .isEqualTo(new UpstreamTarget.Kube(Optional.of("shop"), "echo", 80, new TreeMap<>(Map.of("track", "canary")))));
    assertThat(loaded.config().unparsed()).singleElement().satisfies(u -> assertThat(u.problems())
        .extracting(Problem::field).containsExactly("spec.kube.selector"));
  }

  @Test
  void selectorsAreKeysOnlyWhenEqualNotWhenTheirTextIs() {
    ServiceRef packed = echo(Map.of("a", "b, c=d"));
    ServiceRef split = echo(Map.of("a", "b", "c", "d"));
    assertThat(packed.toString()).isEqualTo(split.toString());
    assertThat(packed.compareTo(split)).isNotZero();
    assertThat(new TreeMap<>(Map.of(packed, 1, split, 2))).hasSize(2);
    assertThat(echo(Map.of("a", "b")).compareTo(echo(Map.of("a", "b", "c", "d")))).isNegative();
    assertThat(echo(Map.of()).compareTo(new ServiceRef("shop", "echo", 80))).isZero();
  }
}
