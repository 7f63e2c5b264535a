package io.holdfast.server.snapshot;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.Struct;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.Value;
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
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.Map;

/** Real Envoy v3 resources for one HTTP gateway route, shaped like Holdfast's translation output. */
final class EnvoyResources {
    static final String LISTENER = "type.googleapis.com/envoy.config.listener.v3.Listener";
    static final String ROUTE = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";
    static final String CLUSTER = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
    static final String ENDPOINT = "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment";

    private static final ConfigSource ADS = ConfigSource.newBuilder()
            .setAds(AggregatedConfigSource.getDefaultInstance())
            .setResourceApiVersion(ApiVersion.V3)
            .build();

    private EnvoyResources() {}

    /** A gateway whose backend listens on {@code backendPort}; different ports give different versions. */
    static XdsSnapshot gateway(int backendPort) {
        return XdsSnapshot.of(Map.of(
                LISTENER, Map.of("ingress_http", listener()),
                ROUTE, Map.of("local_route", routes()),
                CLUSTER, Map.of("default/backend", cluster(backendPort)),
                ENDPOINT, Map.of("default/backend", endpoints(backendPort))));
    }

    static Listener listener() {
        var manager = HttpConnectionManager.newBuilder()
                .setStatPrefix("ingress_http")
                .setRds(Rds.newBuilder().setRouteConfigName("local_route").setConfigSource(ADS))
                .addHttpFilters(HttpFilter.newBuilder()
                        .setName("envoy.filters.http.router")
                        .setTypedConfig(Any.pack(Router.getDefaultInstance())))
                .build();
        return Listener.newBuilder()
                .setName("ingress_http")
                .setAddress(address(8080))
                .addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
                        .setName("envoy.filters.network.http_connection_manager")
                        .setTypedConfig(Any.pack(manager))))
                .build();
    }

    static RouteConfiguration routes() {
        return RouteConfiguration.newBuilder()
                .setName("local_route")
                .addVirtualHosts(VirtualHost.newBuilder()
                        .setName("all")
                        .addDomains("*")
                        .addRoutes(Route.newBuilder()
                                .setMatch(RouteMatch.newBuilder().setPrefix("/"))
                                .setRoute(RouteAction.newBuilder().setCluster("default/backend"))))
                .build();
    }

    static Cluster cluster(int backendPort) {
        // Metadata is a protobuf map: it checks that map fields survive the round trip unchanged.
        Struct labels = Struct.newBuilder()
                .putFields("app", Value.newBuilder().setStringValue("backend").build())
                .putFields("port", Value.newBuilder().setNumberValue(backendPort).build())
                .build();
        return Cluster.newBuilder()
                .setName("default/backend")
                .setType(Cluster.DiscoveryType.EDS)
                .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ADS))
                .setConnectTimeout(Duration.newBuilder().setSeconds(1))
                .setMetadata(Metadata.newBuilder().putFilterMetadata("holdfast", labels))
                .build();
    }

    static ClusterLoadAssignment endpoints(int backendPort) {
        return ClusterLoadAssignment.newBuilder()
                .setClusterName("default/backend")
                .addEndpoints(LocalityLbEndpoints.newBuilder()
                        .setLoadBalancingWeight(UInt32Value.of(1))
                        .addLbEndpoints(LbEndpoint.newBuilder()
                                .setEndpoint(Endpoint.newBuilder().setAddress(address(backendPort)))))
                .build();
    }

    private static Address address(int port) {
        return Address.newBuilder()
                .setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port))
                .build();
    }
}
