package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {

  @Test
  void loadsEveryUsableResourceAndReportsTheRest() {
    String first = TestManifests.upstream("a", 9101) + "---\n" + TestManifests.upstream("b", 9102) + """
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: c}
        spec: {static: {hostz: []}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        spec: {port: 80}
        """;
    String second = "kind: [\n";
    ConfigLoader.Loaded loaded = new ConfigLoader().load(
        List.of(new ConfigLoader.Source("one.yaml", first), new ConfigLoader.Source("two.yaml", second)),
        Map.of(new ServiceRef("default", "svc", 80), List.of(new Endpoint("127.0.0.1", 8080))));
    GatewayConfig config = loaded.config();
    assertThat(config.upstreams()).extracting(Upstream::key)
        .containsExactly(ResourceKey.upstream("default", "a"), ResourceKey.upstream("default", "b"));
    assertThat(config.unparsed()).singleElement().satisfies(u -> {
      assertThat(u.key()).isEqualTo(ResourceKey.upstream("default", "c"));
      assertThat(u.problems()).extracting(Problem::field).containsExactly("spec.static.hostz", "spec.static.hosts");
    });
    assertThat(config.endpointsOf(new ServiceRef("default", "svc", 80))).hasSize(1);
    assertThat(loaded.errors()).extracting(ManifestError::source, ManifestError::line).containsExactly(
        org.assertj.core.groups.Tuple.tuple("one.yaml", 20),
        org.assertj.core.groups.Tuple.tuple("two.yaml", 2));
    assertThat(loaded.errors().get(0).reason())
        .isEqualTo("document 3 is not a usable resource: metadata: required field is missing (MissingField)");
  }

  @Test
  void aDocumentThatNamesNoResourceIsReportedAtTheFieldThatIsMissing() {
    String text = "# comment\napiVersion: gateway.holdfast.io/v1\nkind: Upstream\nmetadata:\n  namespace: x\n"
        + "spec: {}\n";
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("u.yaml", text)), Map.of());
    assertThat(loaded.errors()).singleElement().satisfies(e -> {
      assertThat(e.line()).as("metadata's line, where name is missing").isEqualTo(4);
      assertThat(e.reason()).contains("metadata.name: required field is missing");
    });
  }

  @Test
  void documentsOfKindsHoldfastDoesNotReadAreRejectedOrSkippedAndListedEitherWay() {
    String text = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: shop}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: settings}
        ---
        apiVersion: v1
        kind: Secret
        type: kubernetes.io/tls
        metadata: {name: cert}
        data: {}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: r}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstreem
        metadata: {name: typo}
        """;
    List<ConfigLoader.Source> sources = List.of(new ConfigLoader.Source("repo.yaml", text));

    ConfigLoader.Loaded rejected = new ConfigLoader().load(sources, Map.of());
    ConfigLoader.Loaded skipped = new ConfigLoader(ConfigLoader.UnknownKinds.SKIP).load(sources, Map.of());

    for (ConfigLoader.Loaded loaded : List.of(rejected, skipped)) {
      assertThat(loaded.unknownKinds()).extracting(ConfigLoader.UnknownKind::kind)
          .containsExactly("Deployment", "ConfigMap");
      assertThat(loaded.unknownKinds().get(0).key()).contains(new ResourceKey("apps", "Deployment", "shop", "web"));
      assertThat(loaded.unknownKinds().get(1).at().line()).isEqualTo(5);
    }
    assertThat(rejected.config().unparsed()).extracting(u -> u.key().kind())
        .containsExactlyInAnyOrder("Deployment", "ConfigMap", "Upstreem");
    assertThat(skipped.config().unparsed()).extracting(u -> u.key().kind()).containsExactly("Upstreem");
    assertThat(skipped.config().apiObjects()).extracting(o -> o.key().kind()).containsExactly("HTTPRoute");
  }

  @Test
  void configIsIndependentOfInputOrder() {
    GatewayConfig forward = TestManifests.config(TestManifests.upstream("a", 1), TestManifests.upstream("b", 2));
    GatewayConfig backward = TestManifests.config(TestManifests.upstream("b", 2), TestManifests.upstream("a", 1));
    assertThat(forward).isEqualTo(backward);
  }

  @Test
  void gatewayApiObjectsAndNamespacesAreCarriedForTheirOwnFrontEndAndNothingElseIs() {
    String docs = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: holdfast}
        spec: {controllerName: holdfast.io/gateway-controller}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: web, namespace: shop, generation: 4}
        spec: {hostnames: [shop.test]}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec: {gatewayClassName: holdfast}
        ---
        apiVersion: v1
        kind: Namespace
        metadata: {name: shop, labels: {team: a}}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: unrelated}
        """;
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("gw.yaml", docs)), Map.of());

    assertThat(loaded.config().apiObjects()).extracting(ApiObject::key).containsExactly(
        new ResourceKey("gateway.networking.k8s.io", "Gateway", "default", "edge"),
        new ResourceKey("gateway.networking.k8s.io", "GatewayClass", "", "holdfast"),
        new ResourceKey("gateway.networking.k8s.io", "HTTPRoute", "shop", "web"),
        new ResourceKey("", "Namespace", "", "shop"));
    ApiObject route = loaded.config().apiObjectsOf("gateway.networking.k8s.io").get(2);
    assertThat(route.generation()).isEqualTo(4);
    assertThat(route.at("/spec/hostnames/0").asString()).isEqualTo("shop.test");
    assertThat(loaded.locationsOf(route.key())).singleElement()
        .satisfies(l -> assertThat(List.of(l.source(), l.line())).containsExactly("gw.yaml", 6));
    // The ConfigMap is neither Holdfast's nor another front end's: rejected as before, with the kinds it could be.
    assertThat(loaded.config().resources()).isEmpty();
    assertThat(loaded.config().unparsed()).singleElement().satisfies(u -> {
      assertThat(u.key().kind()).isEqualTo("ConfigMap");
      assertThat(u.problems()).asString().contains("UnsupportedKind");
    });
  }

  @Test
  void servicesEndpointSlicesAndTlsAndOpaqueSecretsInTheDirectoryResolveAsTheClusterWould() {
    String docs = """
        apiVersion: v1
        kind: Service
        metadata: {name: web, namespace: shop}
        spec:
          ports: [{name: http, port: 8080}, {name: admin, port: 9000}, {name: dns, port: 53, protocol: UDP}]
        ---
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: web-1, namespace: shop, labels: {kubernetes.io/service-name: web}}
        addressType: IPv4
        ports: [{name: http, port: 8081}]
        endpoints:
        - addresses: [127.0.0.21]
        - addresses: [127.0.0.22]
          conditions: {ready: true}
        - addresses: [127.0.0.23]
          conditions: {ready: false}
        ---
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: other-1, namespace: shop, labels: {kubernetes.io/service-name: other}}
        addressType: IPv4
        ports: [{name: http, port: 7000}]
        endpoints: [{addresses: [127.0.0.31]}]
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: lonely}
        spec: {ports: [{port: 80}]}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: shop-cert, namespace: shop}
        type: kubernetes.io/tls
        data: {tls.crt: Q0VSVA==, tls.key: bm90LWJhc2U2NCE=}
        stringData: {tls.key: KEY}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: opaque, namespace: shop}
        type: Opaque
        stringData: {password: x}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: untyped, namespace: shop}
        data: {.htpasswd: dTp7U0hBfXg=}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: registry, namespace: shop}
        type: kubernetes.io/dockerconfigjson
        stringData: {.dockerconfigjson: '{}'}
        """;
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("k8s.yaml", docs)),
        Map.of(new ServiceRef("shop", "web", 9000), List.of(new Endpoint("127.0.0.9", 1))));

    assertThat(loaded.config().serviceEndpoints()).containsOnlyKeys(new ServiceRef("shop", "web", 8080),
        new ServiceRef("shop", "web", 9000), new ServiceRef("default", "lonely", 80));
    // Ready or unset, by the slice's port of the same name; the unready endpoint and other Services' slices left out.
    assertThat(loaded.config().endpointsOf(new ServiceRef("shop", "web", 8080)))
        .containsExactly(new Endpoint("127.0.0.21", 8081), new Endpoint("127.0.0.22", 8081));
    // Endpoints given by the caller win; a Service without slices exists with no endpoint.
    assertThat(loaded.config().endpointsOf(new ServiceRef("shop", "web", 9000)))
        .containsExactly(new Endpoint("127.0.0.9", 1));
    assertThat(loaded.config().serviceEndpoints().get(new ServiceRef("default", "lonely", 80))).isEmpty();
    assertThat(loaded.config().secrets()).containsOnlyKeys(TlsSecretData.secretKey("shop", "shop-cert"),
        TlsSecretData.secretKey("shop", "opaque"), TlsSecretData.secretKey("shop", "untyped"));
    assertThat(loaded.config().secrets().get(TlsSecretData.secretKey("shop", "shop-cert")).entries())
        .containsEntry("tls.crt", "CERT").containsEntry("tls.key", "KEY");
    // Opaque (also when no type is written, as the API server defaults it): what security options name.
    assertThat(loaded.config().secrets().get(TlsSecretData.secretKey("shop", "untyped")).entries())
        .containsEntry(".htpasswd", "u:{SHA}x");
    // A type Holdfast never reads is rejected like any kind no front end reads.
    assertThat(loaded.config().unparsed()).singleElement().satisfies(u -> assertThat(u.key().name())
        .isEqualTo("registry"));
    assertThat(loaded.errors()).isEmpty();
  }
}
