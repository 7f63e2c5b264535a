package io.holdfast.xds.translate;

import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.ApiConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.holdfast.ir.UpstreamTls;
import java.time.Duration;

/**
 * SDS agents beside the proxy ({@link UpstreamTls.Sds}): the secret configs that fetch from one, and the static
 * HTTP/2 cluster that reaches it. Holdfast cannot rely on clusters of the proxy's bootstrap, so it synthesizes one
 * cluster per agent address, named {@code sds-agent/IP:PORT} (no Kubernetes name contains {@code :}, so it cannot
 * collide with an Upstream's {@code ns/name}).
 */
final class SdsAgents {

  /** How long the proxy waits to connect to the agent: it is on loopback, so a second is ample. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

  private SdsAgents() {
  }

  /** The synthesized cluster's name. */
  static String clusterName(UpstreamTls.Sds sds) {
    String host = sds.ip().contains(":") ? "[" + sds.ip() + "]" : sds.ip();
    return "sds-agent/" + host + ":" + sds.port();
  }

  /** {@code name} fetched from the agent over gRPC. */
  static SdsSecretConfig secret(String name, UpstreamTls.Sds sds) {
    ConfigSource source = ConfigSource.newBuilder()
        .setApiConfigSource(ApiConfigSource.newBuilder()
            .setApiType(ApiConfigSource.ApiType.GRPC)
            .setTransportApiVersion(ApiVersion.V3)
            .addGrpcServices(GrpcService.newBuilder().setEnvoyGrpc(
                GrpcService.EnvoyGrpc.newBuilder().setClusterName(clusterName(sds)))))
        .setResourceApiVersion(ApiVersion.V3)
        .build();
    return SdsSecretConfig.newBuilder().setName(name).setSdsConfig(source).build();
  }

  /** A STATIC HTTP/2 (gRPC) cluster to the agent's address. */
  static Cluster cluster(UpstreamTls.Sds sds) {
    String name = clusterName(sds);
    return Cluster.newBuilder()
        .setName(name)
        .setType(Cluster.DiscoveryType.STATIC)
        .setConnectTimeout(Protos.duration(CONNECT_TIMEOUT))
        .putTypedExtensionProtocolOptions(ClusterTranslator.HTTP_PROTOCOL_OPTIONS, ClusterTranslator.http2Options())
        .setLoadAssignment(ClusterLoadAssignment.newBuilder().setClusterName(name)
            .addEndpoints(LocalityLbEndpoints.newBuilder().addLbEndpoints(LbEndpoint.newBuilder()
                .setEndpoint(Endpoint.newBuilder().setAddress(Address.newBuilder().setSocketAddress(
                    SocketAddress.newBuilder().setAddress(sds.ip()).setPortValue(sds.port())))))))
        .build();
  }
}
