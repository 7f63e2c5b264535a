package io.holdfast.xds.translate;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Http2ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.holdfast.xds.model.Endpoint;
import io.holdfast.xds.model.GatewayConfig;
import io.holdfast.xds.model.LoadBalancing;
import io.holdfast.xds.model.Upstream;
import io.holdfast.xds.model.UpstreamTarget;
import java.util.ArrayList;
import java.util.List;

/** Upstream to an EDS Cluster and its ClusterLoadAssignment. */
final class ClusterTranslator {

  static final String HTTP_PROTOCOL_OPTIONS = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";

  /**
   * LEAST_REQUEST in the typed form (gRFC A52), beside the legacy {@code lb_policy} enum. Envoy and gRPC clients
   * that read {@code load_balancing_policy} take the first policy in it they implement, so gRPC clients without
   * least request (gRFC A48) fall back to round robin instead of rejecting the cluster; clients that read only
   * the enum still get LEAST_REQUEST. ROUND_ROBIN and RING_HASH need no typed form (every gRPC client reads them
   * from the enum), and RANDOM has none that any gRPC client accepts.
   */
  private static final LoadBalancingPolicy LEAST_REQUEST_OR_ROUND_ROBIN = LoadBalancingPolicy.newBuilder()
      .addPolicies(policy("envoy.load_balancing_policies.least_request", LeastRequest.getDefaultInstance()))
      .addPolicies(policy("envoy.load_balancing_policies.round_robin", RoundRobin.getDefaultInstance()))
      .build();

  private ClusterTranslator() {
  }

  static Cluster cluster(Upstream upstream) {
    String name = EnvoyNames.cluster(upstream.key());
    Cluster.Builder cluster = Cluster.newBuilder()
        .setName(name)
        .setType(Cluster.DiscoveryType.EDS)
        .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(Protos.ADS).setServiceName(name))
        .setConnectTimeout(Protos.duration(upstream.connectTimeout()))
        .setLbPolicy(switch (upstream.loadBalancing()) {
          case ROUND_ROBIN -> Cluster.LbPolicy.ROUND_ROBIN;
          case LEAST_REQUEST -> Cluster.LbPolicy.LEAST_REQUEST;
          case RING_HASH -> Cluster.LbPolicy.RING_HASH;
          case RANDOM -> Cluster.LbPolicy.RANDOM;
        });
    if (upstream.loadBalancing() == LoadBalancing.LEAST_REQUEST) {
      cluster.setLoadBalancingPolicy(LEAST_REQUEST_OR_ROUND_ROBIN);
    }
    if (upstream.http2()) {
      HttpProtocolOptions http2 = HttpProtocolOptions.newBuilder()
          .setExplicitHttpConfig(HttpProtocolOptions.ExplicitHttpConfig.newBuilder()
              .setHttp2ProtocolOptions(Http2ProtocolOptions.getDefaultInstance()))
          .build();
      cluster.putTypedExtensionProtocolOptions(HTTP_PROTOCOL_OPTIONS, Protos.pack(http2));
    }
    return cluster.build();
  }

  private static LoadBalancingPolicy.Policy policy(String name, com.google.protobuf.Message config) {
    return LoadBalancingPolicy.Policy.newBuilder()
        .setTypedExtensionConfig(TypedExtensionConfig.newBuilder().setName(name).setTypedConfig(Protos.pack(config)))
        .build();
  }

  /**
   * One locality (weight 1, which grpc-java requires) holding every endpoint; no locality at all when there
   * are no endpoints, which is a valid, empty assignment. Kubernetes endpoints are sorted, static hosts keep
   * their written order.
   */
  static ClusterLoadAssignment loadAssignment(Upstream upstream, GatewayConfig config) {
    List<LbEndpoint> endpoints = new ArrayList<>();
    if (upstream.target() instanceof UpstreamTarget.Static hosts) {
      hosts.hosts().forEach(h -> endpoints.add(endpoint(h.address(), h.port(), h.weight())));
    } else if (upstream.target() instanceof UpstreamTarget.Kube kube) {
      config.endpointsOf(kube.service(upstream.metadata().namespace())).stream().sorted()
          .forEach((Endpoint e) -> endpoints.add(endpoint(e.address(), e.port(), 1)));
    }
    ClusterLoadAssignment.Builder assignment =
        ClusterLoadAssignment.newBuilder().setClusterName(EnvoyNames.cluster(upstream.key()));
    if (!endpoints.isEmpty()) {
      assignment.addEndpoints(LocalityLbEndpoints.newBuilder()
          .setLocality(Locality.getDefaultInstance())
          .setLoadBalancingWeight(UInt32Value.of(1))
          .addAllLbEndpoints(endpoints));
    }
    return assignment.build();
  }

  private static LbEndpoint endpoint(String address, int port, int weight) {
    return LbEndpoint.newBuilder()
        .setEndpoint(io.envoyproxy.envoy.config.endpoint.v3.Endpoint.newBuilder()
            .setAddress(Address.newBuilder()
                .setSocketAddress(SocketAddress.newBuilder().setAddress(address).setPortValue(port))))
        .setLoadBalancingWeight(UInt32Value.of(weight))
        .build();
  }
}
