package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.resource;
import static io.holdfast.kube.source.KubeObjects.service;
import static io.holdfast.kube.source.KubeObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.ApiObject;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.kube.source.KubeObjects.Ep;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Gloo Edge's kinds on the emulated API reach the config as ApiObjects, with the endpoints of the Service ports
 * their Upstreams and kube destinations name and the Secrets their sslConfigs name (issue 27, Kubernetes mode).
 */
class GlooSourceTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  /** Minimal definitions with an open schema: only so the emulated API serves Gloo's kinds. */
  private static void installGlooCrds(KubernetesClient admin) {
    for (ResourceDefinitionContext kind : GatewayCrds.GLOO) {
      admin.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
          .withNewMetadata().withName(kind.getPlural() + "." + kind.getGroup()).endMetadata()
          .withNewSpec().withGroup(kind.getGroup()).withScope("Namespaced")
          .withNewNames().withKind(kind.getKind()).withPlural(kind.getPlural())
          .withSingular(kind.getKind().toLowerCase(java.util.Locale.ROOT)).withListKind(kind.getKind() + "List")
          .endNames()
          .addNewVersion().withName(kind.getVersion()).withServed(true).withStorage(true)
          .withNewSubresources().withNewStatus().endStatus().endSubresources()
          .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
          .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build()).create();
    }
  }

  private static ResourceDefinitionContext kind(String group, String kind) {
    return GatewayCrds.GLOO.stream().filter(c -> c.getGroup().equals(group) && c.getKind().equals(kind))
        .findFirst().orElseThrow();
  }

  private static void create(KubernetesClient admin, ResourceDefinitionContext kind, String yaml) {
    GenericKubernetesResource resource = resource(yaml);
    admin.genericKubernetesResources(kind).inNamespace(resource.getMetadata().getNamespace()).resource(resource)
        .create();
  }

  @Test
  void glooObjectsTheirServicesAndSecretsReachTheConfig() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      installGlooCrds(admin);
      create(admin, kind("gloo.solo.io", "Upstream"), """
          apiVersion: gloo.solo.io/v1
          kind: Upstream
          metadata: {name: default-petstore-8080, namespace: gloo-system}
          spec:
            kube: {serviceName: petstore, serviceNamespace: default, servicePort: 8080}
          """);
      create(admin, kind("gateway.solo.io", "VirtualService"), """
          apiVersion: gateway.solo.io/v1
          kind: VirtualService
          metadata: {name: default, namespace: gloo-system}
          spec:
            sslConfig: {secretRef: {name: petstore-tls, namespace: gloo-system}}
            virtualHost:
              routes:
              - matchers: [{prefix: /v2}]
                routeAction: {single: {kube: {ref: {name: petstore-v2, namespace: default}, port: 8080}}}
              - routeAction: {single: {upstream: {name: default-petstore-8080}}}
          """);
      create(admin, kind("gateway.solo.io", "Gateway"), """
          apiVersion: gateway.solo.io/v1
          kind: Gateway
          metadata: {name: gateway-proxy-ssl, namespace: gloo-system}
          spec: {bindPort: 8443, ssl: true, httpGateway: {}}
          """);
      create(admin, kind("gloo.solo.io", "Settings"), """
          apiVersion: gloo.solo.io/v1
          kind: Settings
          metadata: {name: default, namespace: gloo-system}
          spec: {extauth: {extauthzServerRef: {name: authz, namespace: gloo-system}}}
          """);
      create(admin, kind("enterprise.gloo.solo.io", "AuthConfig"), """
          apiVersion: enterprise.gloo.solo.io/v1
          kind: AuthConfig
          metadata: {name: passthrough, namespace: gloo-system}
          spec: {configs: [{passThroughAuth: {grpc: {address: authz.gloo-system.svc.cluster.local:9001}}}]}
          """);
      create(admin, kind("ratelimit.solo.io", "RateLimitConfig"), """
          apiVersion: ratelimit.solo.io/v1alpha1
          kind: RateLimitConfig
          metadata: {name: per-client, namespace: gloo-system}
          spec: {raw: {rateLimits: [{actions: [{remoteAddress: {}}]}]}}
          """);
      admin.services().inNamespace("default").resource(service("default", "petstore", "http:8080")).create();
      admin.discovery().v1().endpointSlices().inNamespace("default").resource(slice("default", "petstore-1",
          "petstore", "http", 8080, List.of(new Ep("127.0.0.21", true)))).create();
      admin.services().inNamespace("default").resource(service("default", "petstore-v2", "http:8080")).create();
      admin.secrets().inNamespace("gloo-system").resource(new SecretBuilder().withNewMetadata()
          .withName("petstore-tls").withNamespace("gloo-system").endMetadata().withType("kubernetes.io/tls")
          .addToStringData(Map.of("tls.crt", "CERT", "tls.key", "KEY")).build()).create();

      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty()
            && configs.get(configs.size() - 1).apiObjects().size() == 6
            && configs.get(configs.size() - 1).secrets().size() == 1);
        GatewayConfig config = configs.get(configs.size() - 1);
        assertThat(config.apiObjects()).extracting(ApiObject::key).containsExactlyInAnyOrder(
            new ResourceKey("gloo.solo.io", "Upstream", "gloo-system", "default-petstore-8080"),
            new ResourceKey("gateway.solo.io", "VirtualService", "gloo-system", "default"),
            new ResourceKey("gateway.solo.io", "Gateway", "gloo-system", "gateway-proxy-ssl"),
            new ResourceKey("gloo.solo.io", "Settings", "gloo-system", "default"),
            new ResourceKey("enterprise.gloo.solo.io", "AuthConfig", "gloo-system", "passthrough"),
            new ResourceKey("ratelimit.solo.io", "RateLimitConfig", "gloo-system", "per-client"));
        assertThat(config.apiObjects()).allSatisfy(o -> assertThat(o.at("/apiVersion").asString())
            .matches(".*\\.solo\\.io/v1(alpha1)?"));
        assertThat(config.endpointsOf(new ServiceRef("default", "petstore", 8080)))
            .containsExactly(new Endpoint("127.0.0.21", 8080));
        assertThat(config.serviceEndpoints()).containsKey(new ServiceRef("default", "petstore-v2", 8080));
        assertThat(config.secrets()).containsOnlyKeys(TlsSecretData.secretKey("gloo-system", "petstore-tls"));
        assertThat(source.hasSynced()).isTrue();
      }
    }
  }

  @Test
  void aGlooUpstreamsKubeSelectorIsResolvedAgainstPodLabels() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      installGlooCrds(admin);
      create(admin, kind("gloo.solo.io", "Upstream"), """
          apiVersion: gloo.solo.io/v1
          kind: Upstream
          metadata: {name: default-petstore-8080, namespace: gloo-system}
          spec:
            kube: {serviceName: petstore, serviceNamespace: default, servicePort: 8080, selector: {version: v2}}
          """);
      admin.services().inNamespace("default").resource(service("default", "petstore", "http:8080")).create();
      admin.discovery().v1().endpointSlices().inNamespace("default").resource(KubeObjects.podSlice("default",
          "petstore-1", "petstore", "http", 8080, List.of(new KubeObjects.PodEp("127.0.0.21", "petstore-v1"),
              new KubeObjects.PodEp("127.0.0.22", "petstore-v2")))).create();
      admin.pods().inNamespace("default").resource(KubeObjects.pod("default", "petstore-v1", Map.of("version", "v1")))
          .create();
      admin.pods().inNamespace("default").resource(KubeObjects.pod("default", "petstore-v2", Map.of("version", "v2")))
          .create();
      ServiceRef narrowed = ServiceRef.selecting("default", "petstore", 8080, Map.of("version", "v2"));

      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty()
            && configs.get(configs.size() - 1).serviceEndpoints().containsKey(narrowed));
        GatewayConfig config = configs.get(configs.size() - 1);
        assertThat(config.endpointsOf(narrowed)).containsExactly(new Endpoint("127.0.0.22", 8080));
        assertThat(config.endpointsOf(new ServiceRef("default", "petstore", 8080))).hasSize(2);
      }
    }
  }

  @Test
  void aRoutesSubsetOfAGlooUpstreamIsResolvedAgainstPodLabels() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      installGlooCrds(admin);
      create(admin, kind("gloo.solo.io", "Upstream"), """
          apiVersion: gloo.solo.io/v1
          kind: Upstream
          metadata: {name: echoapp, namespace: gloo-system}
          spec:
            kube:
              serviceName: echoapp
              serviceNamespace: default
              servicePort: 8080
              subsetSpec: {selectors: [{keys: [stage]}]}
          """);
      create(admin, kind("gateway.solo.io", "VirtualService"), """
          apiVersion: gateway.solo.io/v1
          kind: VirtualService
          metadata: {name: default, namespace: gloo-system}
          spec:
            virtualHost:
              routes:
              - routeAction: {single: {upstream: {name: echoapp}, subset: {values: {stage: prod}}}}
          """);
      admin.services().inNamespace("default").resource(service("default", "echoapp", "http:8080")).create();
      admin.discovery().v1().endpointSlices().inNamespace("default").resource(KubeObjects.podSlice("default",
          "echoapp-1", "echoapp", "http", 8080, List.of(new KubeObjects.PodEp("127.0.0.31", "echo-dev"),
              new KubeObjects.PodEp("127.0.0.32", "echo-prod")))).create();
      admin.pods().inNamespace("default").resource(KubeObjects.pod("default", "echo-dev", Map.of("stage", "dev")))
          .create();
      admin.pods().inNamespace("default").resource(KubeObjects.pod("default", "echo-prod", Map.of("stage", "prod")))
          .create();
      ServiceRef subset = ServiceRef.selecting("default", "echoapp", 8080, Map.of("stage", "prod"));

      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty()
            && !configs.get(configs.size() - 1).endpointsOf(subset).isEmpty());
        GatewayConfig config = configs.get(configs.size() - 1);
        assertThat(config.endpointsOf(subset)).containsExactly(new Endpoint("127.0.0.32", 8080));
        assertThat(config.endpointsOf(new ServiceRef("default", "echoapp", 8080))).hasSize(2);
      }
    }
  }
}
