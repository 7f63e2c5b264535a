package io.holdfast.xds.translate;

import com.google.protobuf.BoolValue;
import com.google.protobuf.UInt32Value;
import com.google.protobuf.UInt64Value;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.cluster.v3.UpstreamConnectionOptions;
import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.Http1ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.Http2ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TcpKeepalive;
import io.envoyproxy.envoy.config.core.v3.TypedExtensionConfig;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.Endpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.extensions.http.header_formatters.preserve_case.v3.PreserveCaseFormatterConfig;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.holdfast.ir.Cluster.LbPolicy;
import io.holdfast.ir.Cluster.WeightedEndpoint;
import java.util.List;

/**
 * An IR cluster to an Envoy Cluster: EDS (with its ClusterLoadAssignment served separately) when the endpoints are
 * addresses, STRICT_DNS or LOGICAL_DNS with the assignment inline when the proxy resolves names (EDS endpoints
 * must be addresses); plus circuit breakers, outlier detection, health checks and TLS when the IR has them.
 */
final class ClusterTranslator {

  static final String HTTP_PROTOCOL_OPTIONS = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions";
  /** Envoy's extension that writes header names in the case they were received. */
  static final String PRESERVE_CASE = "envoy.http.stateful_header_formatters.preserve_case";

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

  static Cluster cluster(io.holdfast.ir.Cluster ir) {
    String name = EnvoyNames.cluster(ir.origin().object());
    Cluster.Builder cluster = Cluster.newBuilder().setName(name);
    if (ir.dns().isPresent()) {
      dns(ir.dns().get(), cluster);
      cluster.setLoadAssignment(loadAssignment(ir));
    } else {
      cluster.setType(Cluster.DiscoveryType.EDS)
          .setEdsClusterConfig(Cluster.EdsClusterConfig.newBuilder().setEdsConfig(Protos.ADS).setServiceName(name));
    }
    cluster.setConnectTimeout(Protos.duration(ir.connectTimeout()))
        .setLbPolicy(switch (ir.lbPolicy()) {
          case ROUND_ROBIN -> Cluster.LbPolicy.ROUND_ROBIN;
          case LEAST_REQUEST -> Cluster.LbPolicy.LEAST_REQUEST;
          case RING_HASH -> Cluster.LbPolicy.RING_HASH;
          case RANDOM -> Cluster.LbPolicy.RANDOM;
        });
    ir.ringHash().ifPresent(ring -> {
      Cluster.RingHashLbConfig.Builder config = Cluster.RingHashLbConfig.newBuilder();
      ring.minimumRingSize().ifPresent(size -> config.setMinimumRingSize(UInt64Value.of(size)));
      ring.maximumRingSize().ifPresent(size -> config.setMaximumRingSize(UInt64Value.of(size)));
      cluster.setRingHashLbConfig(config);
    });
    if (ir.lbPolicy() == LbPolicy.LEAST_REQUEST) {
      cluster.setLoadBalancingPolicy(LEAST_REQUEST_OR_ROUND_ROBIN);
    }
    if (ir.http2() || ir.connection().filter(ClusterTranslator::hasHttpOptions).isPresent()) {
      cluster.putTypedExtensionProtocolOptions(HTTP_PROTOCOL_OPTIONS, httpOptions(ir.http2(), ir.connection()));
    }
    ir.connection().ifPresent(connection -> connection(connection, cluster));
    ir.circuitBreakers().ifPresent(cb -> cluster.setCircuitBreakers(UpstreamPolicies.circuitBreakers(cb)));
    ir.outlierDetection().ifPresent(od -> cluster.setOutlierDetection(UpstreamPolicies.outlierDetection(od)));
    ir.healthChecks().forEach(hc -> cluster.addHealthChecks(UpstreamPolicies.healthCheck(hc, ir.http2())));
    ir.tls().ifPresent(tls -> cluster.setTransportSocket(UpstreamPolicies.tls(tls, ir.http2())));
    return cluster.build();
  }

  /** Explicit HTTP/2 to the endpoints: {@code typed_extension_protocol_options} of {@link #HTTP_PROTOCOL_OPTIONS}. */
  static com.google.protobuf.Any http2Options() {
    return httpOptions(true, java.util.Optional.empty());
  }

  /**
   * The one {@link #HTTP_PROTOCOL_OPTIONS} of a cluster: the protocol (HTTP/2, else HTTP/1.1, which Envoy's
   * validation requires to be explicit) and the connection settings that belong to HTTP rather than TCP.
   */
  static com.google.protobuf.Any httpOptions(boolean http2,
      java.util.Optional<io.holdfast.ir.Cluster.Connection> connection) {
    HttpProtocolOptions.ExplicitHttpConfig.Builder explicit = HttpProtocolOptions.ExplicitHttpConfig.newBuilder();
    if (http2) {
      explicit.setHttp2ProtocolOptions(connection.flatMap(io.holdfast.ir.Cluster.Connection::http2)
          .map(ClusterTranslator::http2).orElse(Http2ProtocolOptions.getDefaultInstance()));
    } else {
      explicit.setHttpProtocolOptions(connection.flatMap(io.holdfast.ir.Cluster.Connection::http1)
          .map(ClusterTranslator::http1).orElse(Http1ProtocolOptions.getDefaultInstance()));
    }
    HttpProtocolOptions.Builder options = HttpProtocolOptions.newBuilder().setExplicitHttpConfig(explicit);
    connection.filter(ClusterTranslator::hasCommonHttpOptions).ifPresent(c -> {
      io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions.Builder common =
          io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions.newBuilder();
      c.idleTimeout().ifPresent(timeout -> common.setIdleTimeout(Protos.duration(timeout)));
      c.maxRequestsPerConnection().ifPresent(max -> common.setMaxRequestsPerConnection(UInt32Value.of(max)));
      c.maxHeadersCount().ifPresent(max -> common.setMaxHeadersCount(UInt32Value.of(max)));
      c.maxStreamDuration().ifPresent(max -> common.setMaxStreamDuration(Protos.duration(max)));
      options.setCommonHttpProtocolOptions(common);
    });
    return Protos.pack(options.build());
  }

  /**
   * The HTTP/1.1 options; PRESERVE_CASE is Envoy's {@value #PRESERVE_CASE} stateful formatter with its defaults
   * (the reason phrase and Envoy's own headers as without it), as Gloo configures it.
   */
  private static Http1ProtocolOptions http1(io.holdfast.ir.Cluster.Http1 http1) {
    Http1ProtocolOptions.Builder options = Http1ProtocolOptions.newBuilder().setEnableTrailers(http1.enableTrailers());
    http1.headerKeyFormat().ifPresent(format -> options.setHeaderKeyFormat(switch (format) {
      case PROPER_CASE -> Http1ProtocolOptions.HeaderKeyFormat.newBuilder()
          .setProperCaseWords(Http1ProtocolOptions.HeaderKeyFormat.ProperCaseWords.getDefaultInstance());
      case PRESERVE_CASE -> Http1ProtocolOptions.HeaderKeyFormat.newBuilder()
          .setStatefulFormatter(TypedExtensionConfig.newBuilder().setName(PRESERVE_CASE)
              .setTypedConfig(Protos.pack(PreserveCaseFormatterConfig.getDefaultInstance())));
    }));
    http1.streamErrorOnInvalidHttpMessage().ifPresent(override ->
        options.setOverrideStreamErrorOnInvalidHttpMessage(BoolValue.of(override)));
    return options.build();
  }

  private static Http2ProtocolOptions http2(io.holdfast.ir.Cluster.Http2 http2) {
    Http2ProtocolOptions.Builder options = Http2ProtocolOptions.newBuilder();
    http2.maxConcurrentStreams().ifPresent(n -> options.setMaxConcurrentStreams(UInt32Value.of(n)));
    http2.initialStreamWindowSize().ifPresent(n -> options.setInitialStreamWindowSize(UInt32Value.of(n)));
    http2.initialConnectionWindowSize().ifPresent(n -> options.setInitialConnectionWindowSize(UInt32Value.of(n)));
    http2.streamErrorOnInvalidHttpMessage().ifPresent(override ->
        options.setOverrideStreamErrorOnInvalidHttpMessage(BoolValue.of(override)));
    return options.build();
  }

  private static boolean hasHttpOptions(io.holdfast.ir.Cluster.Connection connection) {
    return hasCommonHttpOptions(connection) || connection.http1().isPresent() || connection.http2().isPresent();
  }

  private static boolean hasCommonHttpOptions(io.holdfast.ir.Cluster.Connection connection) {
    return connection.idleTimeout().isPresent() || connection.maxRequestsPerConnection().isPresent()
        || connection.maxHeadersCount().isPresent() || connection.maxStreamDuration().isPresent();
  }

  /** The TCP side of the connection settings: the buffer limit and keep-alive probing. */
  private static void connection(io.holdfast.ir.Cluster.Connection connection, Cluster.Builder cluster) {
    connection.perConnectionBufferLimitBytes().ifPresent(limit ->
        cluster.setPerConnectionBufferLimitBytes(UInt32Value.of((int) limit.longValue())));
    if (connection.tcpKeepalive()) {
      TcpKeepalive.Builder keepalive = TcpKeepalive.newBuilder();
      connection.keepaliveProbes().ifPresent(n -> keepalive.setKeepaliveProbes(UInt32Value.of(n)));
      connection.keepaliveTime().ifPresent(n -> keepalive.setKeepaliveTime(UInt32Value.of(n)));
      connection.keepaliveInterval().ifPresent(n -> keepalive.setKeepaliveInterval(UInt32Value.of(n)));
      cluster.setUpstreamConnectionOptions(UpstreamConnectionOptions.newBuilder().setTcpKeepalive(keepalive));
    }
  }

  private static void dns(io.holdfast.ir.Cluster.Dns dns, Cluster.Builder cluster) {
    cluster.setType(switch (dns.resolution()) {
      case STRICT -> Cluster.DiscoveryType.STRICT_DNS;
      case LOGICAL -> Cluster.DiscoveryType.LOGICAL_DNS;
    });
    cluster.setDnsLookupFamily(switch (dns.lookupFamily()) {
      case V4_ONLY -> Cluster.DnsLookupFamily.V4_ONLY;
      case V6_ONLY -> Cluster.DnsLookupFamily.V6_ONLY;
      case V4_PREFERRED -> Cluster.DnsLookupFamily.V4_PREFERRED;
      case AUTO -> Cluster.DnsLookupFamily.AUTO;
      case ALL -> Cluster.DnsLookupFamily.ALL;
    });
    dns.refreshRate().ifPresent(rate -> cluster.setDnsRefreshRate(Protos.duration(rate)));
    cluster.setRespectDnsTtl(dns.respectTtl());
  }

  private static LoadBalancingPolicy.Policy policy(String name, com.google.protobuf.Message config) {
    return LoadBalancingPolicy.Policy.newBuilder()
        .setTypedExtensionConfig(TypedExtensionConfig.newBuilder().setName(name).setTypedConfig(Protos.pack(config)))
        .build();
  }

  /**
   * One locality (weight 1, which grpc-java requires) holding every endpoint in the IR's order; no locality at all
   * when there are no endpoints, which is a valid, empty assignment. Served by EDS, or inline in a DNS cluster.
   */
  static ClusterLoadAssignment loadAssignment(io.holdfast.ir.Cluster ir) {
    List<LbEndpoint> endpoints = ir.endpoints().stream().map(ClusterTranslator::endpoint).toList();
    ClusterLoadAssignment.Builder assignment =
        ClusterLoadAssignment.newBuilder().setClusterName(EnvoyNames.cluster(ir.origin().object()));
    if (!endpoints.isEmpty()) {
      assignment.addEndpoints(LocalityLbEndpoints.newBuilder()
          .setLocality(Locality.getDefaultInstance())
          .setLoadBalancingWeight(UInt32Value.of(1))
          .addAllLbEndpoints(endpoints));
    }
    return assignment.build();
  }

  private static LbEndpoint endpoint(WeightedEndpoint endpoint) {
    return LbEndpoint.newBuilder()
        .setEndpoint(Endpoint.newBuilder()
            .setAddress(Address.newBuilder().setSocketAddress(
                SocketAddress.newBuilder().setAddress(endpoint.address()).setPortValue(endpoint.port()))))
        .setLoadBalancingWeight(UInt32Value.of(endpoint.weight()))
        .build();
  }
}
