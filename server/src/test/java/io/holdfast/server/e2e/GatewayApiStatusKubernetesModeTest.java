package io.holdfast.server.e2e;

import static io.holdfast.server.e2e.GatewayApiKubernetesModeTest.applyAll;
import static io.holdfast.server.e2e.GatewayApiKubernetesModeTest.conditions;
import static io.holdfast.server.e2e.GatewayApiKubernetesModeTest.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.holdfast.election.ElectionSettings;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.MockKubeApi;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Gateway API statuses in Kubernetes mode on the emulated API, through the whole server: Gateways get
 * {@code status.addresses} (the stated {@code --gateway-address}, then the load-balancer ingress of the
 * {@code --gateway-service}, followed as it changes); a TLSRoute that stops attaching loses Holdfast's parent entry
 * (the clean-up once covered HTTPRoute and GRPCRoute only); a fully rejected route is reported and a route added
 * after it is still served.
 */
class GatewayApiStatusKubernetesModeTest {
  private static final Duration CONVERGE = Duration.ofSeconds(60);

  private static final String GATEWAYS = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: holdfast}
      spec: {controllerName: holdfast.io/gateway-controller}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: other}
      spec: {controllerName: other.test/controller}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: infra}
      spec:
        gatewayClassName: holdfast
        listeners:
        - {name: http, port: 10090, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
        - {name: tls, port: 10443, protocol: TLS, tls: {mode: Passthrough}, allowedRoutes: {namespaces: {from: All}}}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: theirs, namespace: infra}
      spec:
        gatewayClassName: other
        listeners:
        - {name: tls, port: 443, protocol: TLS, tls: {mode: Passthrough}}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: a, namespace: shop}
      spec: {ports: [{name: http, port: 8080}]}
      """;

  private static final String TLS_ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: TLSRoute
      metadata: {name: passthrough, namespace: shop}
      spec:
        parentRefs: [{name: edge, namespace: infra, sectionName: tls}]
        hostnames: [secure.test]
        rules: [{backendRefs: [{name: a, port: 8080}]}]
      """;

  @Test
  void gatewaysGetAddressesAndRouteStatusesFollowEveryRouteKind() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      KubernetesClient admin = api.admin();
      for (String file : List.of("upstreams", "virtualservices", "gateways", "tcpgateways", "routetables")) {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of("..", "deploy",
            "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
          admin.apiextensions().v1().customResourceDefinitions().resource(admin.getKubernetesSerialization()
              .unmarshal(in, io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class)).create();
        }
      }
      GatewayApiCrds.install(admin);
      applyAll(admin, GATEWAYS);
      applyAll(admin, TLS_ROUTE);
      Service front = admin.services().resource(new ServiceBuilder().withNewMetadata().withName("front")
          .withNamespace("holdfast-system").endMetadata().withNewSpec().withType("LoadBalancer").addNewPort()
          .withPort(443).endPort().endSpec().build()).create();

      ElectionSettings election = ElectionSettings.builder().identity("replica-1").leaseNamespace("holdfast-system")
          .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
          .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
          .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
      ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
          LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.empty(),
          Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election, Optional.empty(),
          Optional.empty(), GatewayApiConfig.CONTROLLER, io.holdfast.api.InputLimits.DEFAULTS,
          new ServeSettings.GatewayAddressing(List.of("192.0.2.5"),
          Optional.of("holdfast-system/front")));
      try (HoldfastServer holdfast = HoldfastServer.start(settings, Clock.systemUTC())) {
        // The stated address at once; the load balancer's once the Service has one.
        await().atMost(CONVERGE).until(() -> addresses(admin).equals(List.of(
            Map.of("type", "IPAddress", "value", "192.0.2.5"))));
        front.setStatus(new io.fabric8.kubernetes.api.model.ServiceStatusBuilder().withNewLoadBalancer()
            .withIngress(new LoadBalancerIngressBuilder().withHostname("lb.example.test").build()).endLoadBalancer()
            .build());
        admin.services().resource(front).updateStatus();
        await().atMost(CONVERGE).until(() -> addresses(admin).equals(List.of(
            Map.of("type", "IPAddress", "value", "192.0.2.5"), Map.of("type", "Hostname", "value", "lb.example.test"))));

        // A TLSRoute attached to Holdfast's listener gets its parent entry ...
        await().atMost(CONVERGE).until(() -> parents(admin, GatewayCrds.TLS_ROUTE, "passthrough").size() == 1);
        assertThat(conditions(parents(admin, GatewayCrds.TLS_ROUTE, "passthrough").get(0)))
            .extracting(c -> c.get("type") + "=" + c.get("status")).contains("Accepted=True");
        // ... and loses it once it names another controller's Gateway only.
        GenericKubernetesResource route = admin.genericKubernetesResources(GatewayCrds.TLS_ROUTE).inNamespace("shop")
            .withName("passthrough").get();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) route.getAdditionalProperties().get("spec");
        spec.put("parentRefs", List.of(Map.of("name", "theirs", "namespace", "infra")));
        admin.genericKubernetesResources(GatewayCrds.TLS_ROUTE).inNamespace("shop").resource(route).update();
        await().atMost(CONVERGE).until(() -> parents(admin, GatewayCrds.TLS_ROUTE, "passthrough").isEmpty());

        // A route Holdfast rejects outright is reported, and a route added after it is still served.
        applyAll(admin, """
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            metadata: {name: typo, namespace: shop}
            spec:
              parentRefs: [{name: edge, namespace: infra}]
              rules: [{matches: [{path: {type: Prefix, value: /}}], backendRefs: [{name: a, port: 8080}]}]
            """);
        await().atMost(CONVERGE).until(() -> parents(admin, GatewayCrds.HTTP_ROUTE, "typo").size() == 1);
        assertThat(conditions(parents(admin, GatewayCrds.HTTP_ROUTE, "typo").get(0)))
            .extracting(c -> c.get("type") + "=" + c.get("status") + "/" + c.get("reason"))
            .contains("Accepted=False/UnsupportedValue");
        assertThat(holdfast.statusBoard().toState().toString()).contains("InvalidEnumValue");
        applyAll(admin, """
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            metadata: {name: later, namespace: shop}
            spec:
              parentRefs: [{name: edge, namespace: infra}]
              hostnames: [later.test]
              rules: [{backendRefs: [{name: a, port: 8080}]}]
            """);
        await().atMost(CONVERGE).until(() -> parents(admin, GatewayCrds.HTTP_ROUTE, "later").size() == 1
            && conditions(parents(admin, GatewayCrds.HTTP_ROUTE, "later").get(0)).stream()
                .anyMatch(c -> "Accepted".equals(c.get("type")) && "True".equals(c.get("status"))));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> addresses(KubernetesClient admin) {
    Object addresses = status(admin, GatewayCrds.GATEWAY_API_GATEWAY, "infra", "edge").get("addresses");
    return addresses instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> parents(KubernetesClient admin,
      io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext kind, String name) {
    Object parents = status(admin, kind, "shop", name).get("parents");
    return parents instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
  }
}
