package io.holdfast.xds.translate;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static io.holdfast.api.TestManifests.virtualService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.holdfast.api.Endpoint;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.VirtualServiceSelection;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TranslatorTest {

  private static final String REDIRECTING_VS = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web}
      spec:
        domains: [web.test, "*.web.test"]
        routes:
          - {match: {prefix: /old}, redirect: {path: /new, responseCode: 302}}
          - {match: {prefix: /}, route: {upstream: a}, timeout: 3s}
      """;

  private final Translator translator = new Translator();

  private Translation translate(GatewayConfig config) {
    ValidationResult result = new Validator().validate(config);
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isServed()).isTrue());
    return EnvoyConstraints.checked(translator.translate(HoldfastFrontEnd.lowerAccepted(result.accepted())));
  }

  @Test
  void producesEveryResourceWithDocumentedNamesAndOrigins() {
    Translation translation = translate(config(upstream("a", 9101), REDIRECTING_VS, gateway("gw", 10080)));
    var snapshot = translation.snapshot();
    assertThat(snapshot.ofType(Resources.V3.CLUSTER_TYPE_URL)).containsOnlyKeys("default/a");
    assertThat(snapshot.ofType(Resources.V3.ENDPOINT_TYPE_URL)).containsOnlyKeys("default/a");
    assertThat(snapshot.ofType(Resources.V3.LISTENER_TYPE_URL)).containsOnlyKeys("gateway/default/gw", "web.test");
    assertThat(snapshot.ofType(Resources.V3.ROUTE_TYPE_URL)).containsOnlyKeys("gateway/default/gw", "web.test");
    assertThat(translation.origins()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "default/a", ResourceKey.upstream("default", "a"),
        "gateway/default/gw", ResourceKey.gateway("default", "gw"),
        "web.test", ResourceKey.virtualService("default", "web")));
    assertThat(translation.originOf("nope")).isEmpty();
  }

  @Test
  void gatewayListenerFetchesRoutesOverAdsWithTheRouterLast() throws InvalidProtocolBufferException {
    Translation translation = translate(config(upstream("a", 9101), REDIRECTING_VS, gateway("gw", 10080)));
    Listener listener = (Listener) translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).get("gateway/default/gw");
    assertThat(listener.getAddress().getSocketAddress().getAddress()).isEqualTo("0.0.0.0");
    assertThat(listener.getAddress().getSocketAddress().getPortValue()).isEqualTo(10080);
    HttpConnectionManager hcm = listener.getFilterChains(0).getFilters(0).getTypedConfig()
        .unpack(HttpConnectionManager.class);
    assertThat(hcm.getRds().getRouteConfigName()).isEqualTo("gateway/default/gw");
    assertThat(hcm.getRds().getConfigSource().hasAds()).isTrue();
    assertThat(hcm.getRds().getConfigSource().getResourceApiVersion()).isEqualTo(ApiVersion.V3);
    assertThat(hcm.getHttpFiltersList()).last().satisfies(f -> assertThat(f.getName())
        .isEqualTo("envoy.filters.http.router"));
    RouteConfiguration routes = (RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL)
        .get("gateway/default/gw");
    assertThat(routes.getVirtualHostsList()).singleElement().satisfies(vh -> {
      assertThat(vh.getName()).isEqualTo("default/web");
      assertThat(vh.getDomainsList()).containsExactly("web.test", "*.web.test");
      assertThat(vh.getRoutes(0).hasRedirect()).isTrue();
      assertThat(vh.getRoutes(0).getName()).isEqualTo("routes[0]");
      assertThat(vh.getRoutes(1).getRoute().getCluster()).isEqualTo("default/a");
      assertThat(vh.getRoutes(1).getRoute().hasMaxStreamDuration()).isFalse();
    });
  }

  @Test
  void apiListenerPerDomainSpeaksGrpcDialect() throws InvalidProtocolBufferException {
    Translation translation = translate(config(upstream("a", 9101), REDIRECTING_VS));
    Listener api = (Listener) translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).get("web.test");
    HttpConnectionManager hcm = api.getApiListener().getApiListener().unpack(HttpConnectionManager.class);
    assertThat(hcm.getRds().getRouteConfigName()).isEqualTo("web.test");
    assertThat(hcm.getHttpFiltersList()).last().satisfies(f -> assertThat(f.getName())
        .isEqualTo("envoy.filters.http.router"));
    RouteConfiguration routes = (RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL)
        .get("web.test");
    assertThat(routes.getVirtualHosts(0).getDomainsList()).containsExactly("web.test");
    List<Route> list = routes.getVirtualHosts(0).getRoutesList();
    assertThat(list.get(0).hasNonForwardingAction()).isTrue();
    assertThat(list.get(1).getRoute().getMaxStreamDuration().getMaxStreamDuration().getSeconds()).isEqualTo(3);
    assertThat(list.get(1).getRoute().getTimeout().getSeconds()).isEqualTo(3);
  }

  @Test
  void clustersUseEdsOverAdsAndKubeEndpoints() {
    GatewayConfig config = config(Map.of(new ServiceRef("shop", "backend", 80),
        List.of(new Endpoint("127.0.0.12", 8080), new Endpoint("127.0.0.11", 8080))), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: grpc, namespace: shop}
        spec: {kube: {name: backend, port: 80}, http2: true, loadBalancing: RING_HASH, connectTimeout: 1500ms}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: idle, namespace: shop}
        spec: {kube: {name: nothing, port: 80}}
        """);
    Translation translation = translate(config);
    Cluster cluster = (Cluster) translation.snapshot().ofType(Resources.V3.CLUSTER_TYPE_URL).get("shop/grpc");
    assertThat(cluster.getType()).isEqualTo(Cluster.DiscoveryType.EDS);
    assertThat(cluster.getEdsClusterConfig().getServiceName()).isEqualTo("shop/grpc");
    assertThat(cluster.getEdsClusterConfig().getEdsConfig().hasAds()).isTrue();
    assertThat(cluster.getLbPolicy()).isEqualTo(Cluster.LbPolicy.RING_HASH);
    assertThat(cluster.getConnectTimeout().getNanos()).isEqualTo(500_000_000);
    assertThat(cluster.getTypedExtensionProtocolOptionsMap())
        .containsKey("envoy.extensions.upstreams.http.v3.HttpProtocolOptions");
    ClusterLoadAssignment cla = (ClusterLoadAssignment) translation.snapshot()
        .ofType(Resources.V3.ENDPOINT_TYPE_URL).get("shop/grpc");
    assertThat(cla.getEndpoints(0).getLoadBalancingWeight().getValue()).isEqualTo(1);
    assertThat(cla.getEndpoints(0).getLbEndpointsList())
        .extracting(e -> e.getEndpoint().getAddress().getSocketAddress().getAddress())
        .containsExactly("127.0.0.11", "127.0.0.12");
    ClusterLoadAssignment idle = (ClusterLoadAssignment) translation.snapshot()
        .ofType(Resources.V3.ENDPOINT_TYPE_URL).get("shop/idle");
    assertThat(idle.getClusterName()).isEqualTo("shop/idle");
    assertThat(idle.getEndpointsList()).isEmpty();
  }

  @Test
  void outputIsDeterministicAndVersionedByContent() {
    GatewayConfig one = config(upstream("a", 9101), upstream("b", 9102), REDIRECTING_VS, gateway("gw", 8080));
    GatewayConfig reordered = config(gateway("gw", 8080), REDIRECTING_VS, upstream("b", 9102), upstream("a", 9101));
    GatewayConfig changed = config(upstream("a", 9101), upstream("b", 9103), REDIRECTING_VS, gateway("gw", 8080));
    String version = translate(one).snapshot().version();
    assertThat(translate(one).snapshot()).isEqualTo(translate(one).snapshot());
    assertThat(translate(reordered).snapshot().version()).isEqualTo(version);
    assertThat(translate(changed).snapshot().version()).isNotEqualTo(version);
  }

  @Test
  void refusesConfigsThatDidNotComeFromTheValidator() {
    Gateway dangling = new Gateway(Metadata.of("default", "gw"), "0.0.0.0", 80,
        new VirtualServiceSelection.Named(List.of(ObjectRef.of("ghost"))));
    assertThatThrownBy(() -> translator.translate(HoldfastFrontEnd.lowerAccepted(GatewayConfig.builder().add(dangling).build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("VirtualService/default/ghost");
    // Both on one Gateway: one route configuration holding a domain twice.
    GatewayConfig duplicateDomain = config(upstream("a", 1), virtualService("x", "same.test", "a"),
        virtualService("y", "same.test", "a"), gateway("gw", 8080));
    assertThatThrownBy(() -> translator.translate(HoldfastFrontEnd.lowerAccepted(duplicateDomain)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("same.test");
  }

  /**
   * gRPC clients treat {@code :method} as absent, so a methods match never matched for them. gRPC calls are POST:
   * a route allowing POST matches them without it, one that does not is left out of the gRPC route table.
   */
  @Test
  void grpcRouteTablesMatchNoMethodsAndLeaveOutRoutesThatExcludePost() {
    Translation translation = translate(config(upstream("a", 9101), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes:
            - {name: reads, match: {prefix: /r, methods: [GET, HEAD]}, route: {upstream: a}}
            - {name: writes, match: {prefix: /w, methods: [POST, PUT]}, route: {upstream: a}}
            - {name: all, match: {prefix: /}, route: {upstream: a}}
        """, gateway("gw", 10080)));
    RouteConfiguration grpc = (RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL)
        .get("web.test");
    assertThat(grpc.getVirtualHosts(0).getRoutesList()).extracting(Route::getName).containsExactly("writes", "all");
    assertThat(grpc.getVirtualHosts(0).getRoutes(0).getMatch().getHeadersList()).isEmpty();
    RouteConfiguration envoy = (RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL)
        .get("gateway/default/gw");
    assertThat(envoy.getVirtualHosts(0).getRoutesList()).extracting(Route::getName)
        .containsExactly("reads", "writes", "all");
    assertThat(envoy.getVirtualHosts(0).getRoutes(1).getMatch().getHeaders(0).getName()).isEqualTo(":method");
  }

  /**
   * LEAST_REQUEST also goes in the typed load_balancing_policy (gRFC A52), which Envoy and gRPC clients prefer
   * to the enum: least_request first, round_robin for clients without it.
   */
  @Test
  void leastRequestIsAlsoATypedPolicyWithRoundRobinAsFallback() throws InvalidProtocolBufferException {
    Translation translation = translate(config(upstream("a", 9101) + "  loadBalancing: LEAST_REQUEST\n",
        upstream("b", 9102) + "  loadBalancing: RANDOM\n"));
    Cluster a = (Cluster) translation.snapshot().ofType(Resources.V3.CLUSTER_TYPE_URL).get("default/a");
    assertThat(a.getLbPolicy()).isEqualTo(Cluster.LbPolicy.LEAST_REQUEST);
    assertThat(a.getLoadBalancingPolicy().getPoliciesList()).extracting(p -> p.getTypedExtensionConfig().getName())
        .containsExactly("envoy.load_balancing_policies.least_request", "envoy.load_balancing_policies.round_robin");
    assertThat(a.getLoadBalancingPolicy().getPolicies(0).getTypedExtensionConfig().getTypedConfig()
        .is(LeastRequest.class)).isTrue();
    assertThat(a.getLoadBalancingPolicy().getPolicies(1).getTypedExtensionConfig().getTypedConfig()
        .is(RoundRobin.class)).isTrue();
    Cluster b = (Cluster) translation.snapshot().ofType(Resources.V3.CLUSTER_TYPE_URL).get("default/b");
    assertThat(b.getLbPolicy()).isEqualTo(Cluster.LbPolicy.RANDOM);
    assertThat(b.hasLoadBalancingPolicy()).as("no typed form a gRPC client accepts").isFalse();
  }
}
