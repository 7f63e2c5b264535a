package io.holdfast.xds.envoycheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Real Envoy resources, shaped like Holdfast's output, each broken in one way Envoy would NACK. */
class EnvoyResourcesTest {

  private static final ConfigSource ADS = ConfigSource.newBuilder()
      .setAds(AggregatedConfigSource.getDefaultInstance())
      .setResourceApiVersion(ApiVersion.V3).build();

  private static Cluster cluster() {
    return Cluster.newBuilder().setName("demo/echo").setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS).setServiceName("demo/echo"))
        .setConnectTimeout(Duration.newBuilder().setSeconds(1)).build();
  }

  private static HttpConnectionManager.Builder connectionManager() {
    return HttpConnectionManager.newBuilder().setStatPrefix("demo_gw")
        .setRds(Rds.newBuilder().setConfigSource(ADS).setRouteConfigName("gateway/demo/gw"))
        .addHttpFilters(HttpFilter.newBuilder().setName("envoy.filters.http.router")
            .setTypedConfig(Any.pack(Router.getDefaultInstance())));
  }

  private static Listener listener(HttpConnectionManager hcm) {
    return Listener.newBuilder().setName("gateway/demo/gw")
        .setAddress(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder().setAddress("0.0.0.0")
            .setPortValue(10080)))
        .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
            .setName("envoy.filters.network.http_connection_manager").setTypedConfig(Any.pack(hcm))))
        .build();
  }

  private static RouteConfiguration routes(UnaryOperator<Route.Builder> route) {
    Route.Builder base = Route.newBuilder().setName("routes[0]")
        .setMatch(RouteMatch.newBuilder().setPrefix("/")
            .addHeaders(HeaderMatcher.newBuilder().setName("x-echo-version")
                .setStringMatch(StringMatcher.newBuilder().setExact("v2"))))
        .setRoute(RouteAction.newBuilder().setCluster("demo/echo"));
    return RouteConfiguration.newBuilder().setName("gateway/demo/gw")
        .addVirtualHosts(VirtualHost.newBuilder().setName("demo/web").addDomains("web.test")
            .addRoutes(route.apply(base)))
        .build();
  }

  private static ClusterLoadAssignment endpoints(int weight) {
    return ClusterLoadAssignment.newBuilder().setClusterName("demo/echo")
        .addEndpoints(LocalityLbEndpoints.newBuilder().setLoadBalancingWeight(UInt32Value.of(weight))
            .addLbEndpoints(LbEndpoint.newBuilder().setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder()
                .setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.11").setPortValue(8080))))))
        .build();
  }

  @Test
  void wellFormedResourcesPass() {
    Map<String, Map<String, Message>> snapshot = new TreeMap<>();
    snapshot.put(Resources.V3.CLUSTER_TYPE_URL, Map.of("demo/echo", cluster()));
    snapshot.put(Resources.V3.ENDPOINT_TYPE_URL, Map.of("demo/echo", endpoints(1)));
    snapshot.put(Resources.V3.LISTENER_TYPE_URL, Map.of("gateway/demo/gw", listener(connectionManager().build())));
    snapshot.put(Resources.V3.ROUTE_TYPE_URL, Map.of("gateway/demo/gw", routes(r -> r)));
    assertThatCode(() -> EnvoyConstraints.assertValid(snapshot)).doesNotThrowAnyException();
  }

  @Test
  void clusterWithEmptyNameBreaksMinLen() {
    assertThat(EnvoyConstraints.check(cluster().toBuilder().setName("").build()))
        .containsExactly(new Violation("name", "string.min_len 1", "0 characters"));
  }

  @Test
  void negativeConnectTimeoutBreaksDurationGt() {
    assertThat(EnvoyConstraints.check(cluster().toBuilder().setConnectTimeout(Duration.newBuilder().setSeconds(-1))
        .build())).containsExactly(new Violation("connect_timeout", "duration.gt 0s", "-1s"));
  }

  @Test
  void undefinedEnumValueBreaksDefinedOnly() {
    assertThat(EnvoyConstraints.check(cluster().toBuilder().setLbPolicyValue(99).build()))
        .containsExactly(new Violation("lb_policy", "enum.defined_only envoy.config.cluster.v3.Cluster.LbPolicy",
            "99"));
  }

  @Test
  void httpFilterWithEmptyNameIsFoundInsideTheConnectionManagerAny() {
    Listener listener = listener(connectionManager().addHttpFilters(0, HttpFilter.newBuilder().setName("")).build());
    assertThatThrownBy(() -> EnvoyConstraints.assertValid(Map.of(Resources.V3.LISTENER_TYPE_URL,
        Map.of("demo/gw", listener))))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("listener[demo/gw].filter_chains[0].filters[0].typed_config(HttpConnectionManager)"
            + ".http_filters[0].name: string.min_len 1 (was 0 characters)");
  }

  @Test
  void emptyStatPrefixAndMissingConfigSourceInsideTheAny() {
    Listener listener = listener(connectionManager().setStatPrefix("")
        .setRds(Rds.newBuilder().setRouteConfigName("gateway/demo/gw")).build());
    assertThat(EnvoyConstraints.inspect("listener[demo/gw]", listener).violations()).containsExactlyInAnyOrder(
        new Violation("listener[demo/gw].filter_chains[0].filters[0].typed_config(HttpConnectionManager).rds"
            + ".config_source", "message.required", "unset"),
        new Violation("listener[demo/gw].filter_chains[0].filters[0].typed_config(HttpConnectionManager).stat_prefix",
            "string.min_len 1", "0 characters"));
  }

  @Test
  void headerMatcherNameWithNewlineBreaksTheHeaderNameRegex() {
    RouteConfiguration broken = routes(r -> r.setMatch(r.getMatch().toBuilder()
        .setHeaders(0, r.getMatch().getHeaders(0).toBuilder().setName("x-a\nx-b"))));
    assertThat(EnvoyConstraints.check(broken)).containsExactly(new Violation(
        "virtual_hosts[0].routes[0].match.headers[0].name",
        "string.well_known_regex HTTP_HEADER_NAME strict false", "\"x-a\\nx-b\""));
  }

  @Test
  void virtualHostWithoutDomainsBreaksMinItems() {
    RouteConfiguration broken = routes(r -> r).toBuilder()
        .setVirtualHosts(0, routes(r -> r).getVirtualHosts(0).toBuilder().clearDomains()).build();
    assertThat(EnvoyConstraints.check(broken))
        .containsExactly(new Violation("virtual_hosts[0].domains", "repeated.min_items 1", "0 items"));
  }

  @Test
  void routeWithoutActionBreaksTheRequiredOneof() {
    assertThat(EnvoyConstraints.check(routes(Route.Builder::clearRoute))).singleElement().satisfies(v -> {
      assertThat(v.path()).isEqualTo("virtual_hosts[0].routes[0].action");
      assertThat(v.rule()).isEqualTo("oneof.required");
    });
    assertThat(EnvoyConstraints.check(routes(r -> r.setMatch(RouteMatch.getDefaultInstance()))))
        .extracting(Violation::path, Violation::rule)
        .containsExactly(tuple("virtual_hosts[0].routes[0].match.path_specifier",
            "oneof.required"));
  }

  @Test
  void zeroLocalityWeightBreaksTheWrappedUint32Rule() {
    assertThat(EnvoyConstraints.check(endpoints(0)))
        .containsExactly(new Violation("endpoints[0].load_balancing_weight", "uint32.gte 1", "0"));
  }

  @Test
  void emptyMetadataKeyBreaksTheMapKeyRule() {
    Cluster withMetadata = cluster().toBuilder().setMetadata(Metadata.newBuilder()
        .putFilterMetadata("", Struct.getDefaultInstance())).build();
    assertThat(EnvoyConstraints.check(withMetadata))
        .containsExactly(new Violation("metadata.filter_metadata[](key)", "string.min_len 1", "0 characters"));
  }

  @Test
  void anyOfATypeTheRegistryLacksIsReported() {
    Listener listener = listener(connectionManager().build());
    Report report = EnvoyConstraints.inspect(Map.of(), "listener[x]", listener);
    assertThat(report.violations()).containsExactly(new Violation(
        "listener[x].filter_chains[0].filters[0].typed_config",
        "checker.known_any_type", "type.googleapis.com/" + HttpConnectionManager.getDescriptor().getFullName()));
  }

  @Test
  void resourceUnderTheWrongTypeUrlIsReported() {
    assertThat(EnvoyConstraints.inspect(Map.of(Resources.V3.LISTENER_TYPE_URL, Map.of("demo/echo", cluster())))
        .violations()).containsExactly(new Violation("cluster[demo/echo]",
        "checker.type_url_matches " + Resources.V3.LISTENER_TYPE_URL, "envoy.config.cluster.v3.Cluster"));
  }
}
