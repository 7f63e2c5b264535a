package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.resource;
import static io.holdfast.kube.source.KubeObjects.service;
import static io.holdfast.kube.source.KubeObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.ApiObject;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.kube.source.KubeObjects.Ep;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The Gateway API kinds and Namespaces on the emulated API reach the config as ApiObjects, with the endpoints of the
 * Service ports their routes name and the Secrets their listeners name; without their CRDs the source still serves.
 */
class GatewayApiSourceTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String G = GatewayCrds.GATEWAY_API_GROUP;

  @Test
  void gatewayApiObjectsNamespacesBackendsAndCertificatesReachTheConfig() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      GatewayApiCrds.install(admin);
      create(admin, GatewayCrds.GATEWAY_CLASS, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: GatewayClass
          metadata: {name: holdfast, generation: 2}
          spec: {controllerName: holdfast.io/gateway-controller}
          """);
      create(admin, GatewayCrds.GATEWAY_API_GATEWAY, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: Gateway
          metadata: {name: edge, namespace: infra}
          spec:
            gatewayClassName: holdfast
            listeners:
            - name: https
              port: 443
              protocol: HTTPS
              tls: {mode: Terminate, certificateRefs: [{name: edge-cert}, {name: other-cert, namespace: certs}]}
          status: {listeners: []}
          """);
      create(admin, GatewayCrds.HTTP_ROUTE, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: HTTPRoute
          metadata: {name: web, namespace: apps}
          spec:
            parentRefs: [{name: edge, namespace: infra}]
            rules:
            - backendRefs:
              - {name: web, port: 8080, weight: 3}
              - {name: api, namespace: backends, port: 9090}
              - {kind: ConfigMap, name: not-a-service, port: 1}
              filters:
              - type: RequestMirror
                requestMirror: {backendRef: {name: shadow, port: 7070}}
          """);
      create(admin, GatewayCrds.GRPC_ROUTE, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: GRPCRoute
          metadata: {name: rpc, namespace: apps}
          spec:
            parentRefs: [{name: edge, namespace: infra}]
            rules: [{backendRefs: [{name: grpc, port: 50051}]}]
          """);
      create(admin, GatewayCrds.REFERENCE_GRANT, """
          apiVersion: gateway.networking.k8s.io/v1beta1
          kind: ReferenceGrant
          metadata: {name: from-apps, namespace: backends}
          spec:
            from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: apps}]
            to: [{group: "", kind: Service}]
          """);
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("apps")
          .addToLabels("team", "web").endMetadata().build()).create();
      admin.services().inNamespace("apps").resource(service("apps", "web", "http:8080")).create();
      admin.discovery().v1().endpointSlices().inNamespace("apps").resource(slice("apps", "web-1", "web", "http",
          8081, List.of(new Ep("127.0.0.11", true), new Ep("127.0.0.12", false)))).create();
      admin.services().inNamespace("apps").resource(service("apps", "grpc", "grpc:50051")).create();
      admin.secrets().inNamespace("infra").resource(new SecretBuilder().withNewMetadata().withName("edge-cert")
          .withNamespace("infra").endMetadata().withType("kubernetes.io/tls")
          .addToStringData(Map.of("tls.crt", "CERT", "tls.key", "KEY")).build()).create();
      admin.secrets().inNamespace("infra").resource(new SecretBuilder().withNewMetadata().withName("unnamed")
          .withNamespace("infra").endMetadata().addToStringData("tls.crt", "X").build()).create();

      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty()
            && configs.get(configs.size() - 1).apiObjects().size() == 6
            && configs.get(configs.size() - 1).secrets().size() == 1);
        GatewayConfig config = configs.get(configs.size() - 1);
        assertThat(config.apiObjects()).extracting(ApiObject::key).containsExactlyInAnyOrder(
            new ResourceKey("", "Namespace", "", "apps"),
            new ResourceKey(G, "GatewayClass", "", "holdfast"),
            new ResourceKey(G, "Gateway", "infra", "edge"),
            new ResourceKey(G, "HTTPRoute", "apps", "web"),
            new ResourceKey(G, "GRPCRoute", "apps", "rpc"),
            new ResourceKey(G, "ReferenceGrant", "backends", "from-apps"));
        ApiObject gateway = config.apiObjectsOf(G).stream().filter(o -> o.key().kind().equals("Gateway"))
            .findFirst().orElseThrow();
        // The status stays behind (a status write must not look like a config change), and so does the version.
        assertThat(gateway.at("/status").isMissingNode()).isTrue();
        assertThat(gateway.at("/metadata/resourceVersion").isMissingNode()).isTrue();
        assertThat(gateway.at("/spec/listeners/0/name").asString()).isEqualTo("https");
        assertThat(config.apiObjects()).filteredOn(o -> o.key().kind().equals("Namespace")).singleElement()
            .satisfies(ns -> assertThat(ns.at("/metadata/labels/team").asString()).isEqualTo("web"));

        // Every Service port a backendRef or a mirror names: resolved if the Service exists, absent if not.
        assertThat(config.serviceEndpoints()).containsOnlyKeys(new ServiceRef("apps", "web", 8080),
            new ServiceRef("apps", "grpc", 50051));
        assertThat(config.serviceEndpoints().get(new ServiceRef("apps", "web", 8080)))
            .containsExactly(new Endpoint("127.0.0.11", 8081));
        assertThat(config.serviceEndpoints().get(new ServiceRef("apps", "grpc", 50051))).isEmpty();
        // Only the Secret a listener names (and that exists) is copied.
        assertThat(config.secrets()).containsOnlyKeys(TlsSecretData.secretKey("infra", "edge-cert"));
        assertThat(config.secrets().get(TlsSecretData.secretKey("infra", "edge-cert")).entries())
            .containsEntry("tls.crt", "CERT");
        assertThat(source.observed()).containsKey(new ResourceKey(G, "HTTPRoute", "apps", "web"));
        assertThat(source.cached(new ResourceKey(G, "GatewayClass", "", "holdfast"))).isPresent();
        assertThat(source.cached(new ResourceKey(G, "HTTPRoute", "apps", "web"))).isPresent();

        // The Service named by the mirror appears later: the config follows.
        admin.services().inNamespace("apps").resource(service("apps", "shadow", "m:7070")).create();
        await().atMost(WAIT).until(() -> configs.get(configs.size() - 1).serviceEndpoints()
            .containsKey(new ServiceRef("apps", "shadow", 7070)));
      }
    }
  }

  @Test
  void tlsRoutesAndTcpRoutesReachTheConfigWithTheirBackends() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      GatewayApiCrds.install(admin);
      create(admin, GatewayCrds.TLS_ROUTE, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: TLSRoute
          metadata: {name: store, namespace: apps}
          spec:
            parentRefs: [{name: edge, namespace: infra, sectionName: tls}]
            hostnames: [store.shop.test]
            rules: [{backendRefs: [{name: store, port: 8443, weight: 3}, {name: canary, port: 8443}]}]
          """);
      create(admin, GatewayCrds.TCP_ROUTE, """
          apiVersion: gateway.networking.k8s.io/v1alpha2
          kind: TCPRoute
          metadata: {name: db, namespace: apps}
          spec:
            parentRefs: [{name: edge, namespace: infra, sectionName: db}]
            rules: [{backendRefs: [{name: postgres, namespace: data, port: 5432}]}]
          """);
      admin.services().inNamespace("apps").resource(service("apps", "store", "tls:8443")).create();
      admin.discovery().v1().endpointSlices().inNamespace("apps").resource(slice("apps", "store-1", "store", "tls",
          18443, List.of(new Ep("127.0.0.21", true)))).create();
      admin.services().inNamespace("data").resource(service("data", "postgres", "pg:5432")).create();

      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty()
            && configs.get(configs.size() - 1).apiObjects().size() == 2
            && configs.get(configs.size() - 1).serviceEndpoints().size() == 2);
        GatewayConfig config = configs.get(configs.size() - 1);
        assertThat(config.apiObjects()).extracting(ApiObject::key).containsExactlyInAnyOrder(
            new ResourceKey(G, "TLSRoute", "apps", "store"),
            new ResourceKey(G, "TCPRoute", "apps", "db"));
        assertThat(config.apiObjects()).extracting(o -> o.at("/apiVersion").asString()).containsExactlyInAnyOrder(
            "gateway.networking.k8s.io/v1", "gateway.networking.k8s.io/v1alpha2");
        // The existing Service ports the routes name; the canary Service does not exist, so it has no entry.
        assertThat(config.serviceEndpoints()).containsOnlyKeys(new ServiceRef("apps", "store", 8443),
            new ServiceRef("data", "postgres", 5432));
        assertThat(config.serviceEndpoints().get(new ServiceRef("apps", "store", 8443)))
            .containsExactly(new Endpoint("127.0.0.21", 18443));
        assertThat(source.cached(new ResourceKey(G, "TCPRoute", "apps", "db"))).isPresent();
      }
    }
  }

  @Test
  void holdfastPolicyKindsReachTheConfigAsApiObjectsWithoutTheirStatus() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      for (String kind : PolicyKinds.ALL) {
        admin.apiextensions().v1().customResourceDefinitions().resource(CrdSchemaTest.load(kind)).create();
      }
      create(admin, GatewayCrds.SECURITY_POLICY, """
          apiVersion: gateway.holdfast.io/v1
          kind: SecurityPolicy
          metadata: {name: deny-docs, namespace: web}
          spec:
            targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
            rbac: {action: Deny, rules: [{clientIp: [192.0.2.0/24]}]}
          status: {conditions: [{type: Accepted, status: "True", reason: Accepted}]}
          """);
      create(admin, GatewayCrds.TRAFFIC_POLICY, """
          apiVersion: gateway.holdfast.io/v1
          kind: TrafficPolicy
          metadata: {name: gzip, namespace: web}
          spec:
            targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]
            compression: [gzip]
          """);
      create(admin, GatewayCrds.CLIENT_TRAFFIC_POLICY, """
          apiVersion: gateway.holdfast.io/v1
          kind: ClientTrafficPolicy
          metadata: {name: timeouts, namespace: web}
          spec:
            targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
            idleTimeout: 30s
          """);
      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty()
            && configs.get(configs.size() - 1).apiObjects().size() == 3);
        GatewayConfig config = configs.get(configs.size() - 1);
        // The keys ConfigLoader.foreignObject gives the same documents in files: one front-end path for both.
        String p = PolicyKinds.GROUP;
        assertThat(config.apiObjects()).extracting(ApiObject::key).containsExactlyInAnyOrder(
            new ResourceKey(p, "SecurityPolicy", "web", "deny-docs"),
            new ResourceKey(p, "TrafficPolicy", "web", "gzip"),
            new ResourceKey(p, "ClientTrafficPolicy", "web", "timeouts"));
        ApiObject security = config.apiObjectsOf(p).stream().filter(o -> o.key().kind().equals("SecurityPolicy"))
            .findFirst().orElseThrow();
        assertThat(security.at("/apiVersion").asString()).isEqualTo(PolicyKinds.API_VERSION);
        assertThat(security.at("/spec/rbac/action").asString()).isEqualTo("Deny");
        assertThat(security.at("/status").isMissingNode()).isTrue();
        assertThat(source.observed()).containsKey(new ResourceKey(p, "TrafficPolicy", "web", "gzip"));
        assertThat(source.cached(new ResourceKey(p, "ClientTrafficPolicy", "web", "timeouts"))).isPresent();

        admin.genericKubernetesResources(GatewayCrds.TRAFFIC_POLICY).inNamespace("web").withName("gzip").delete();
        await().atMost(WAIT).until(() -> configs.get(configs.size() - 1).apiObjects().size() == 2);
      }
    }
  }

  @Test
  void withoutThePolicyCrdsTheSourceStillServes() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      for (String kind : List.of("Upstream", "VirtualService", "Gateway", "TcpGateway", "RouteTable")) {
        api.admin().apiextensions().v1().customResourceDefinitions().resource(CrdSchemaTest.load(kind)).create();
      }
      GatewayApiCrds.install(api.admin());
      // An upgrade that has not applied the policy CRDs yet: their lists answer 404 (the fragment names only them).
      api.refuseReads("policies", 404);
      GenericKubernetesResource vs = KubeObjects.virtualService("demo", "web", "web.test");
      api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace("demo").resource(vs).create();
      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty());
        assertThat(configs.get(configs.size() - 1).virtualServices()).hasSize(1);
        assertThat(source.hasSynced()).isTrue();
      }
    }
  }

  @Test
  void withoutTheGatewayApiCrdsTheSourceStillServesHoldfastKinds() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      for (String kind : List.of("Upstream", "VirtualService", "Gateway", "TcpGateway", "RouteTable")) {
        api.admin().apiextensions().v1().customResourceDefinitions().resource(CrdSchemaTest.load(kind)).create();
      }
      // The emulated API refuses the Gateway API kinds as a cluster without their CRDs (or RBAC) would.
      api.refuseReads("gateway.networking.k8s.io", 404);
      GenericKubernetesResource vs = KubeObjects.virtualService("demo", "web", "web.test");
      api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace("demo").resource(vs).create();
      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty());
        assertThat(configs.get(configs.size() - 1).virtualServices()).hasSize(1);
        assertThat(configs.get(configs.size() - 1).apiObjects()).isEmpty();
        assertThat(source.hasSynced()).isTrue();
      }
    }
  }

  private static void create(KubernetesClient admin, io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext
      kind, String yaml) {
    GenericKubernetesResource resource = resource(yaml);
    var op = admin.genericKubernetesResources(kind);
    (Boolean.TRUE.equals(kind.isNamespaceScoped()) ? op.inNamespace(resource.getMetadata().getNamespace()) : op)
        .resource(resource).create();
  }
}
