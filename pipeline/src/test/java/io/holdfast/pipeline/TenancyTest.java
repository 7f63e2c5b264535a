package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.ConfigLoader;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pki.TestCertificates;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Tenancy through the whole pipeline, from YAML documents to the published xDS snapshot: another namespace's
 * Secret is served only once a ReferenceGrant there allows it (and no longer once it is removed, even though the
 * object was accepted before); an Upstream alone cannot pull in another namespace's key; RouteTable selectors and
 * Upstream references across namespaces follow {@code --cross-namespace-refs}; upstream addresses and listener
 * ports follow the deny-list and the port range, for the Gateway API's Gateways and backendRefs too.
 */
class TenancyTest {

  private static final String SECRET_TYPE = "type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.Secret";
  private static final String ROUTE_TYPE = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";
  private static final TestCertificates.Issued CA = TestCertificates.ca("tenancy CA");
  private static final TestCertificates.Issued LEAF = TestCertificates.leaf(CA, "shop.test", "shop.test");
  private static final ResourceKey WEB = ResourceKey.virtualService("shop", "web");

  private static final String SHOP = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: up, namespace: shop}
      spec: {static: {hosts: [{address: 192.0.2.10, port: 8080}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: https, namespace: shop}
      spec: {port: 8443, ssl: true}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web, namespace: shop}
      spec:
        domains: [shop.test]
        sslConfig: {secretRef: {name: shop-tls, namespace: certs}}
        routes: [{match: {prefix: /}, route: {upstream: up}}]
      """;
  private static final String GRANT_TO_SHOP = """
      apiVersion: gateway.networking.k8s.io/v1beta1
      kind: ReferenceGrant
      metadata: {name: shop-may-use-tls, namespace: certs}
      spec:
        from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: shop}]
        to: [{group: "", kind: Secret, name: shop-tls}]
      """;

  private final List<XdsSnapshot> published = new ArrayList<>();
  private final StatusBoard board = new StatusBoard();

  private static String secret(String namespace, String name) {
    Base64.Encoder base64 = Base64.getEncoder();
    return """
        apiVersion: v1
        kind: Secret
        metadata: {name: %s, namespace: %s}
        type: kubernetes.io/tls
        data: {tls.crt: %s, tls.key: %s}
        """.formatted(name, namespace,
        base64.encodeToString(LEAF.certificatePem().getBytes(StandardCharsets.US_ASCII)),
        base64.encodeToString(LEAF.privateKeyPem().getBytes(StandardCharsets.US_ASCII)));
  }

  private static GatewayConfig config(String... documents) {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(
        List.of(new ConfigLoader.Source("tenancy.yaml", String.join("---\n", documents))), Map.of());
    assertThat(loaded.errors()).isEmpty();
    return loaded.config();
  }

  private ConfigPipeline pipeline(AccessPolicy policy) {
    return new ConfigPipeline(snapshot -> published.add(snapshot), board, Clock.systemUTC(),
        new SimpleMeterRegistry(), translation -> { }, new ConfigCheck(
            new PipelineSettings(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME, InputLimits.DEFAULTS, policy)));
  }

  private ResourceStatus status(ResourceKey key) {
    return board.statusOf(key).orElseThrow();
  }

  private Set<String> servedSecrets() {
    return published.get(published.size() - 1).ofType(SECRET_TYPE).keySet();
  }

  private String servedRoutes() {
    return published.get(published.size() - 1).ofType(ROUTE_TYPE).values().stream().map(Object::toString)
        .collect(Collectors.joining("\n"));
  }

  private static ConfigCheck.Result check(AccessPolicy policy, String... documents) {
    return new ConfigCheck(new PipelineSettings(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME, InputLimits.DEFAULTS,
        policy)).run(config(documents));
  }

  private static List<String> reasons(ResourceStatus status) {
    return status.problems().stream().map(p -> p.field() + " " + p.reason()).toList();
  }

  @Test
  void anotherNamespacesSecretIsServedOnlyWhileAReferenceGrantThereAllowsIt() {
    ConfigPipeline pipeline = pipeline(AccessPolicy.FILE_DEFAULTS);

    pipeline.apply(config(SHOP, secret("certs", "shop-tls")), List.of());
    ResourceStatus refused = status(WEB);
    assertThat(refused.isServed()).isFalse();
    assertThat(reasons(refused)).containsExactly("spec.sslConfig.secretRef " + Reasons.REF_NOT_PERMITTED);
    assertThat(refused.problems().get(0).message()).contains("no ReferenceGrant in namespace certs")
        .contains("kind: VirtualService, namespace: shop").contains("kind: Secret, name: shop-tls")
        .doesNotContain("BEGIN");
    assertThat(servedSecrets()).isEmpty();

    pipeline.apply(config(SHOP, secret("certs", "shop-tls"), GRANT_TO_SHOP), List.of());
    assertThat(status(WEB).isServed()).isTrue();
    assertThat(servedSecrets()).hasSize(1);

    // Revoked: the VirtualService was accepted with the grant, but its last accepted version is judged again.
    pipeline.apply(config(SHOP, secret("certs", "shop-tls")), List.of());
    assertThat(status(WEB).isServed()).isFalse();
    assertThat(servedSecrets()).isEmpty();
  }

  @Test
  void aGrantForAnotherKindNamespaceOrNameAllowsNothing() {
    for (String grant : List.of(GRANT_TO_SHOP.replace("kind: VirtualService", "kind: Upstream"),
        GRANT_TO_SHOP.replace("namespace: shop}", "namespace: other}"),
        GRANT_TO_SHOP.replace("name: shop-tls}", "name: other-tls}"),
        GRANT_TO_SHOP.replace("namespace: certs}", "namespace: shop}"))) {
      ResourceStatus status = check(AccessPolicy.FILE_DEFAULTS, SHOP, secret("certs", "shop-tls"), grant)
          .statuses().get(WEB);
      assertThat(reasons(status)).as(grant).containsExactly("spec.sslConfig.secretRef "
          + Reasons.REF_NOT_PERMITTED);
    }
  }

  @Test
  void anUpstreamAloneCannotLoadAnotherNamespacesKey() {
    String upstream = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: thief, namespace: shop}
        spec:
          static: {hosts: [{address: 192.0.2.20, port: 8443}]}
          tls: {verify: NONE, clientCertificate: {secretRef: {name: bank-tls, namespace: bank}}}
        """;
    ConfigPipeline pipeline = pipeline(AccessPolicy.FILE_DEFAULTS);
    pipeline.apply(config(upstream, secret("bank", "bank-tls")), List.of());
    ResourceStatus status = status(ResourceKey.upstream("shop", "thief"));
    assertThat(reasons(status)).containsExactly("spec.tls.clientCertificate.secretRef "
        + Reasons.REF_NOT_PERMITTED);
    assertThat(servedSecrets()).isEmpty();
  }

  /** Another team's RouteTable, labelled to be picked by shop's selector, capturing /admin. */
  private static final String CAPTURE = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: sink, namespace: evil}
      spec: {static: {hosts: [{address: 198.51.100.7, port: 8080}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: RouteTable
      metadata: {name: capture, namespace: evil, labels: {team: shop}}
      spec:
        routes: [{name: admin, match: {prefix: /admin}, route: {upstream: sink}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: RouteTable
      metadata: {name: own, namespace: shop, labels: {team: shop}}
      spec:
        routes: [{name: home, match: {prefix: /home}, route: {upstream: up}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: up, namespace: shop}
      spec: {static: {hosts: [{address: 192.0.2.10, port: 8080}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: http, namespace: shop}
      spec: {port: 8080}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web, namespace: shop}
      spec:
        domains: [shop.test]
        routes: [{match: {prefix: /}, delegate: {selector: {matchLabels: {team: shop}, namespaces: ["*"]}}}]
      """;

  @Test
  void aSelectorTakesAnotherNamespacesRouteTableUnderAllowButNotUnderGrantWithoutAGrant() {
    ConfigPipeline allow = pipeline(AccessPolicy.FILE_DEFAULTS);
    allow.apply(config(CAPTURE), List.of());
    assertThat(servedRoutes()).contains("evil/capture/admin").contains("shop/own/home");

    AccessPolicy grantMode = AccessPolicy.FILE_DEFAULTS.withCrossNamespaceRefs(AccessPolicy.CrossNamespaceRefs.GRANT);
    ConfigPipeline grant = pipeline(grantMode);
    grant.apply(config(CAPTURE), List.of());
    assertThat(servedRoutes()).doesNotContain("evil/capture/admin").contains("shop/own/home");
    ResourceStatus web = status(WEB);
    assertThat(web.isServed()).isTrue();
    assertThat(web.problems()).anySatisfy(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.REF_NOT_PERMITTED);
      assertThat(p.field()).isEqualTo("spec.routes[0].delegate.selector");
      assertThat(p.message()).contains("RouteTable/evil/capture");
    });
    ResourceStatus capture = status(ResourceKey.routeTable("evil", "capture"));
    assertThat(capture.problems()).noneMatch(p -> p.message().contains("shop"));

    String grantToShop = """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: shop-may-delegate, namespace: evil}
        spec:
          from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: shop}]
          to: [{group: gateway.holdfast.io, kind: RouteTable}]
        """;
    grant.apply(config(CAPTURE, grantToShop), List.of());
    assertThat(servedRoutes()).contains("evil/capture/admin");
    assertThat(status(WEB).problems()).noneMatch(p ->
        p.reason().equals(Reasons.REF_NOT_PERMITTED));
  }

  @Test
  void upstreamReferencesAcrossNamespacesFollowTheSetting() {
    String routeToBank = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: ledger, namespace: bank}
        spec: {static: {hosts: [{address: 203.0.113.5, port: 8080}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: shop}
        spec:
          domains: [shop.test]
          routes: [{match: {prefix: /}, route: {upstream: ledger, namespace: bank}}]
        """;
    ResourceStatus allowed = check(AccessPolicy.FILE_DEFAULTS, routeToBank).statuses().get(WEB);
    assertThat(allowed.isServed()).as(allowed.toString()).isTrue();

    AccessPolicy grantMode = AccessPolicy.FILE_DEFAULTS.withCrossNamespaceRefs(AccessPolicy.CrossNamespaceRefs.GRANT);
    ResourceStatus refused = check(grantMode, routeToBank).statuses().get(WEB);
    assertThat(reasons(refused)).containsExactly("spec.routes[0].route.upstream " + Reasons.REF_NOT_PERMITTED);
    // Refused before existence is looked at: a missing Upstream of another namespace reads the same.
    ResourceStatus missing = check(grantMode, routeToBank.replace("upstream: ledger,",
        "upstream: ghost,")).statuses().get(WEB);
    assertThat(reasons(missing)).containsExactly("spec.routes[0].route.upstream " + Reasons.REF_NOT_PERMITTED);

    String grant = """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: shop-may-route, namespace: bank}
        spec:
          from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: shop}]
          to: [{group: gateway.holdfast.io, kind: Upstream, name: ledger}]
        """;
    assertThat(check(grantMode, routeToBank, grant).statuses().get(WEB).isServed()).isTrue();
  }

  @Test
  void metadataLinkLocalAndTheProxysAdminPortAreRefusedByDefault() {
    String documents = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: metadata, namespace: shop}
        spec: {static: {hosts: [{address: 169.254.169.254, port: 80}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: admin, namespace: shop}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 19000}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: sneaky, namespace: shop}
        spec: {static: {hosts: [{address: 0x7f000001, port: 19000}, {address: "::ffff:169.254.169.254", port: 80}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: takeover, namespace: shop}
        spec:
          port: 19000
          hosts: [{name: all, upstream: {name: metadata}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: low, namespace: shop}
        spec: {port: 80}
        """;
    for (AccessPolicy policy : List.of(AccessPolicy.FILE_DEFAULTS, AccessPolicy.KUBERNETES_DEFAULTS)) {
      ConfigCheck.Result result = check(policy, documents);
      assertThat(reasons(result.statuses().get(ResourceKey.upstream("shop", "metadata"))))
          .containsExactly("spec.static.hosts[0].address " + Reasons.ADDRESS_NOT_PERMITTED);
      assertThat(reasons(result.statuses().get(ResourceKey.tcpGateway("shop", "takeover"))))
          .contains("spec.port " + Reasons.PORT_NOT_PERMITTED);
      assertThat(reasons(result.statuses().get(ResourceKey.gateway("shop", "low"))))
          .containsExactly("spec.port " + Reasons.PORT_NOT_PERMITTED);
    }
    // Loopback: refused in Kubernetes mode (the proxy itself), allowed in file mode (one development machine).
    ResourceKey admin = ResourceKey.upstream("shop", "admin");
    ResourceKey sneaky = ResourceKey.upstream("shop", "sneaky");
    ConfigCheck.Result kube = check(AccessPolicy.KUBERNETES_DEFAULTS, documents);
    assertThat(reasons(kube.statuses().get(admin)))
        .containsExactly("spec.static.hosts[0].address " + Reasons.ADDRESS_NOT_PERMITTED);
    assertThat(reasons(kube.statuses().get(sneaky))).containsExactly(
        "spec.static.hosts[0].address " + Reasons.ADDRESS_NOT_PERMITTED,
        "spec.static.hosts[1].address " + Reasons.ADDRESS_NOT_PERMITTED);
    ConfigCheck.Result files = check(AccessPolicy.FILE_DEFAULTS, documents);
    assertThat(files.statuses().get(admin).isServed()).isTrue();
    assertThat(reasons(files.statuses().get(sneaky)))
        .containsExactly("spec.static.hosts[1].address " + Reasons.ADDRESS_NOT_PERMITTED);

    AccessPolicy wide = AccessPolicy.FILE_DEFAULTS.withListenerPorts(1, 65_535, Set.of());
    assertThat(check(wide, documents).statuses().get(ResourceKey.gateway("shop", "low")).isServed()).isTrue();
  }

  @Test
  void serviceEndpointsInDeniedNetworksAreLeftOutAndAnotherNamespacesServiceFollowsTheSetting() {
    String upstreams = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: own, namespace: shop}
        spec: {kube: {name: selectorless, port: 80}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: theirs, namespace: shop}
        spec: {kube: {name: ledger, namespace: bank, port: 80}}
        """;
    GatewayConfig config = config(upstreams).toBuilder()
        .endpoints(new ServiceRef("shop", "selectorless", 80),
            List.of(new Endpoint("169.254.169.254", 80), new Endpoint("192.0.2.30", 8080)))
        .endpoints(new ServiceRef("bank", "ledger", 80), List.of(new Endpoint("203.0.113.9", 8080)))
        .build();
    ConfigPipeline pipeline = pipeline(AccessPolicy.FILE_DEFAULTS);
    pipeline.apply(config, List.of());
    ResourceStatus own = status(ResourceKey.upstream("shop", "own"));
    assertThat(own.isServed()).isTrue();
    assertThat(reasons(own)).containsExactly("spec.kube " + Reasons.ADDRESS_NOT_PERMITTED);
    String endpoints = published.get(published.size() - 1)
        .ofType("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment").values().toString();
    assertThat(endpoints).contains("192.0.2.30").doesNotContain("169.254.169.254");
    assertThat(status(ResourceKey.upstream("shop", "theirs")).isServed()).isTrue();

    ConfigPipeline grant = pipeline(
        AccessPolicy.FILE_DEFAULTS.withCrossNamespaceRefs(AccessPolicy.CrossNamespaceRefs.GRANT));
    grant.apply(config, List.of());
    assertThat(reasons(status(ResourceKey.upstream("shop", "theirs"))))
        .containsExactly("spec.kube.namespace " + Reasons.REF_NOT_PERMITTED);
  }

  @Test
  void gatewayApiListenersOnReservedPortsAndEndpointsInDeniedNetworksAreLeftOutOfTheSnapshot() {
    String documents = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: holdfast}
        spec: {controllerName: holdfast.io/gateway-controller}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: edge, namespace: shop}
        spec:
          gatewayClassName: holdfast
          listeners:
            - {name: admin, port: 19000, protocol: HTTP}
            - {name: http, port: 8080, protocol: HTTP}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: web, namespace: shop}
        spec:
          parentRefs: [{name: edge}]
          rules: [{backendRefs: [{name: web, port: 80}]}]
        """;
    GatewayConfig config = config(documents).toBuilder()
        .endpoints(new ServiceRef("shop", "web", 80),
            List.of(new Endpoint("169.254.169.254", 80), new Endpoint("192.0.2.40", 8080)))
        .build();
    pipeline(AccessPolicy.FILE_DEFAULTS).apply(config, List.of());

    ResourceKey gateway = new ResourceKey(GatewayApiFrontEnd.GROUP, "Gateway", "shop", "edge");
    assertThat(reasons(status(gateway))).anySatisfy(r -> assertThat(r).endsWith(Reasons.PORT_NOT_PERMITTED));
    ResourceStatus route = status(new ResourceKey(GatewayApiFrontEnd.GROUP, "HTTPRoute", "shop", "web"));
    assertThat(route.isServed()).isTrue();
    assertThat(reasons(route)).containsExactly("spec.rules[0].backendRefs[0] " + Reasons.ADDRESS_NOT_PERMITTED);
    XdsSnapshot snapshot = published.get(published.size() - 1);
    String listeners = snapshot.ofType("type.googleapis.com/envoy.config.listener.v3.Listener").values()
        .toString();
    assertThat(listeners).contains("port_value: 8080").doesNotContain("port_value: 19000");
    String endpoints = snapshot.ofType("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment")
        .values().toString();
    assertThat(endpoints).contains("192.0.2.40").doesNotContain("169.254.169.254");
  }
}
