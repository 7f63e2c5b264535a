package io.holdfast.xds.server;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Hand-made Envoy v3 resources and snapshots for the server tests. Loopback addresses only. */
final class Fixtures {

  static final String LDS = TypeUrls.LISTENER;
  static final String RDS = TypeUrls.ROUTE;
  static final String CDS = TypeUrls.CLUSTER;
  static final String EDS = TypeUrls.ENDPOINT;

  private Fixtures() {
  }

  static ConfigSource ads() {
    return ConfigSource.newBuilder()
        .setAds(AggregatedConfigSource.getDefaultInstance())
        .setResourceApiVersion(ApiVersion.V3)
        .build();
  }

  static Address loopback(int port) {
    return Address.newBuilder()
        .setSocketAddress(SocketAddress.newBuilder().setAddress("127.0.0.1").setPortValue(port))
        .build();
  }

  /** A plain listener; {@code port} doubles as a content knob so tests can change it. */
  static Listener listener(String name, int port) {
    return Listener.newBuilder().setName(name).setAddress(loopback(port)).build();
  }

  static RouteConfiguration route(String name, String cluster) {
    return RouteConfiguration.newBuilder()
        .setName(name)
        .addVirtualHosts(VirtualHost.newBuilder()
            .setName("all")
            .addDomains("*")
            .addRoutes(Route.newBuilder()
                .setMatch(RouteMatch.newBuilder().setPrefix(""))
                .setRoute(RouteAction.newBuilder().setCluster(cluster))))
        .build();
  }

  static Cluster edsCluster(String name) {
    return edsCluster(name, 1);
  }

  /** An EDS cluster; {@code timeoutSeconds} is a content knob. */
  static Cluster edsCluster(String name, int timeoutSeconds) {
    return Cluster.newBuilder()
        .setName(name)
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(ads()))
        .setConnectTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(timeoutSeconds))
        .setLbPolicy(Cluster.LbPolicy.ROUND_ROBIN)
        .build();
  }

  static ClusterLoadAssignment endpoints(String cluster, int port) {
    return ClusterLoadAssignment.newBuilder()
        .setClusterName(cluster)
        .addEndpoints(LocalityLbEndpoints.newBuilder()
            .setLoadBalancingWeight(com.google.protobuf.UInt32Value.of(1))
            .addLbEndpoints(LbEndpoint.newBuilder()
                .setEndpoint(Endpoint.newBuilder().setAddress(loopback(port)))))
        .build();
  }

  /** A snapshot of {@code resources}, grouped by type and named as Envoy names them. */
  static XdsSnapshot snapshot(Message... resources) {
    return snapshot(List.of(resources));
  }

  static XdsSnapshot snapshot(List<? extends Message> resources) {
    Map<String, Map<String, Message>> byType = new TreeMap<>();
    for (Message resource : resources) {
      byType.computeIfAbsent(Any.pack(resource).getTypeUrl(), t -> new TreeMap<>())
          .put(Resources.getResourceName(resource), resource);
    }
    return XdsSnapshot.of(byType);
  }
}
