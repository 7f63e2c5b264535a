package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.kubeUpstream;
import static io.holdfast.kube.source.KubeObjects.resource;
import static io.holdfast.kube.source.KubeObjects.service;
import static io.holdfast.kube.source.KubeObjects.virtualService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.testkit.ApiRequest;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the source reads, checked on the emulated API's request record: only the Secret types Holdfast uses (a
 * service account token named by a VirtualService never reaches the config, so it was never cached), and with
 * several namespaces given, only those namespaces, never a cluster-wide list of a namespaced kind.
 */
class KubeSourceScopeTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String AGENT = "holdfast-source-under-test";
  private MockKubeApi api;
  private KubernetesClient client;
  private final List<GatewayConfig> configs = new CopyOnWriteArrayList<>();

  private void startApi() {
    api = MockKubeApi.start();
    for (String kind : List.of("Upstream", "VirtualService", "Gateway", "TcpGateway", "RouteTable")) {
      api.admin().apiextensions().v1().customResourceDefinitions().resource(CrdSchemaTest.load(kind)).create();
    }
    GatewayApiCrds.install(api.admin());
    client = new KubernetesClientBuilder().withConfig(new io.fabric8.kubernetes.client.ConfigBuilder(
        MockKubeApi.configFor(api.port())).withUserAgent(AGENT).build()).build();
  }

  @AfterEach
  void stop() {
    if (api != null) {
      client.close();
      api.close();
    }
  }

  private GatewayConfig last() {
    return configs.get(configs.size() - 1);
  }

  private void secret(String namespace, String name, String type, Map<String, String> data) {
    api.admin().secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata()
        .withNamespace(namespace).withName(name).endMetadata().withType(type).withStringData(data).build()).create();
  }

  /** A VirtualService naming a certificate Secret and a client CA Secret. */
  private void virtualServiceNaming(String namespace, String name, String certificate, String clientCa) {
    api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace(namespace).resource(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: %s}
        spec:
          domains: [%s.test]
          routes: []
          sslConfig: {secretRef: {name: %s}, clientCa: {secretRef: {name: %s}}}
        """.formatted(name, namespace, name, certificate, clientCa))).create();
  }

  @Test
  void onlyTlsAndOpaqueSecretsAreReadAndEveryListAndWatchOfSecretsSaysSo() {
    startApi();
    secret("a", "cert", "kubernetes.io/tls", Map.of("tls.crt", "CERT", "tls.key", "KEY"));
    secret("a", "bundle", "Opaque", Map.of("ca.crt", "CA"));
    secret("a", "token", "kubernetes.io/service-account-token", Map.of("ca.crt", "CLUSTER-CA", "token", "T"));
    virtualServiceNaming("a", "good", "cert", "bundle");
    virtualServiceNaming("a", "sneaky", "cert", "token");
    try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
      source.start();
      await().atMost(WAIT).until(() -> !configs.isEmpty() && last().secrets().size() == 2);
      // A token created later, and named already, never arrives either.
      secret("a", "late-token", "kubernetes.io/service-account-token", Map.of("ca.crt", "CLUSTER-CA"));
      virtualServiceNaming("a", "later", "late-token", "bundle");
      await().atMost(WAIT).until(() -> last().virtualServices().size() == 3);
      secret("a", "late-cert", "kubernetes.io/tls", Map.of("tls.crt", "C2", "tls.key", "K2"));
      virtualServiceNaming("a", "last", "late-cert", "bundle");
      await().atMost(WAIT).until(() -> last().secrets().size() == 3);

      assertThat(last().secrets()).containsOnlyKeys(TlsSecretData.secretKey("a", "cert"),
          TlsSecretData.secretKey("a", "bundle"), TlsSecretData.secretKey("a", "late-cert"));
    }
    List<ApiRequest> secretReads = api.requests().stream()
        .filter(r -> r.userAgent().equals(AGENT) && r.resourcePath().endsWith("/secrets")).toList();
    assertThat(secretReads).extracting(r -> r.query("fieldSelector").orElse("none")).containsOnly(
        "type=kubernetes.io/tls", "type=Opaque").contains("type=kubernetes.io/tls", "type=Opaque");
    assertThat(secretReads).anyMatch(ApiRequest::isWatch);
    assertThat(api.requests()).filteredOn(r -> r.userAgent().equals(AGENT)).allMatch(r -> r.method().equals("GET"))
        .noneMatch(r -> r.resourcePath().contains("/secrets/")); // no GET by name
  }

  @Test
  void withTwoNamespacesObjectsElsewhereAreIgnoredAndNothingNamespacedIsListedClusterWide() {
    startApi();
    for (String ns : List.of("a", "b", "c")) {
      api.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
          .addToLabels("team", ns).endMetadata().build()).create();
      api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace(ns)
          .resource(virtualService(ns, "vs", ns + ".test")).create();
      api.admin().genericKubernetesResources(GatewayCrds.UPSTREAM).inNamespace(ns)
          .resource(kubeUpstream(ns, "up", "svc", 80)).create();
      api.admin().services().inNamespace(ns).resource(service(ns, "svc", "http:80")).create();
      secret(ns, "cert", "kubernetes.io/tls", Map.of("tls.crt", "CERT-" + ns, "tls.key", "KEY"));
    }
    try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).namespaces(List.of("a", "b"))
        .build()) {
      source.start();
      await().atMost(WAIT).until(() -> !configs.isEmpty() && last().virtualServices().size() == 2);
      // A change in a watched namespace arrives; one in the other namespace does not.
      api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace("c")
          .resource(virtualService("c", "vs2", "c2.test")).create();
      api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace("b")
          .resource(virtualService("b", "vs2", "b2.test")).create();
      await().atMost(WAIT).until(() -> last().virtualServices().size() == 3);

      GatewayConfig config = last();
      assertThat(config.virtualServices()).extracting(v -> v.key().namespace() + "/" + v.key().name())
          .containsExactlyInAnyOrder("a/vs", "b/vs", "b/vs2");
      assertThat(config.upstreams()).extracting(u -> u.key().namespace()).containsExactlyInAnyOrder("a", "b");
      assertThat(config.serviceEndpoints()).containsOnlyKeys(new ServiceRef("a", "svc", 80),
          new ServiceRef("b", "svc", 80));
      // Only the watched Namespaces are read (for allowedRoutes selectors), each by name.
      assertThat(config.apiObjects()).filteredOn(o -> o.key().kind().equals("Namespace"))
          .extracting(o -> o.key().name()).containsExactlyInAnyOrder("a", "b");
      assertThat(source.cached(new ResourceKey("VirtualService", "c", "vs"))).isEmpty();
      assertThat(source.cached(new ResourceKey("VirtualService", "b", "vs2"))).isPresent();
    }
    List<ApiRequest> reads = api.requests().stream().filter(r -> r.userAgent().equals(AGENT)
        && RbacPaths.isResource(r)).toList();
    assertThat(reads).isNotEmpty().allSatisfy(r -> assertThat(RbacPaths.clusterWideAllowed(r) || r.resourcePath()
        .matches("/apis?/.*namespaces/(a|b)/[^/]+")).as(r.path()).isTrue());
    assertThat(reads).noneMatch(r -> r.resourcePath().contains("/namespaces/c/"));
    assertThat(reads).filteredOn(r -> r.resourcePath().equals("/api/v1/namespaces"))
        .isNotEmpty().allSatisfy(r -> assertThat(r.query("fieldSelector").orElse(""))
            .matches("metadata\\.name=(a|b)"));
  }

  @Test
  void theNamespaceListIsBounded() {
    List<String> many = IntStream.rangeClosed(1, KubeConfigSource.MAX_NAMESPACES + 1).mapToObj(i -> "ns" + i)
        .toList();
    try (KubernetesClient unused = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(1)).build()) {
      assertThatThrownBy(() -> KubeConfigSource.builder(unused, configs::add).namespaces(many))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 32");
      assertThatThrownBy(() -> KubeConfigSource.builder(unused, configs::add).namespaces(List.of("a", " ")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(KubeConfigSource.builder(unused, configs::add).namespaces(many.subList(0, 32))).isNotNull();
    }
  }

  /** Which requests name a resource, and which cluster-scoped ones a namespaced source may make. */
  private static final class RbacPaths {
    static boolean isResource(ApiRequest r) {
      return io.holdfast.testkit.RbacRules.attributes(r).isPresent();
    }

    /** GatewayClasses (cluster-scoped kind) and Namespaces read by name. */
    static boolean clusterWideAllowed(ApiRequest r) {
      return r.resourcePath().equals("/apis/gateway.networking.k8s.io/v1/gatewayclasses")
          || r.resourcePath().equals("/api/v1/namespaces");
    }
  }
}
