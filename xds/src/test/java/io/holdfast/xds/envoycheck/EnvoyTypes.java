package io.holdfast.xds.envoycheck;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.ScopedRouteConfiguration;
import io.envoyproxy.envoy.extensions.access_loggers.file.v3.FileAccessLog;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StderrAccessLog;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StdoutAccessLog;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy;
import io.envoyproxy.envoy.extensions.load_balancing_policies.client_side_weighted_round_robin.v3.ClientSideWeightedRoundRobin;
import io.envoyproxy.envoy.extensions.load_balancing_policies.cluster_provided.v3.ClusterProvided;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.maglev.v3.Maglev;
import io.envoyproxy.envoy.extensions.load_balancing_policies.pick_first.v3.PickFirst;
import io.envoyproxy.envoy.extensions.load_balancing_policies.random.v3.Random;
import io.envoyproxy.envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality;
import io.envoyproxy.envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Envoy message types the checker can open inside a {@code google.protobuf.Any}: every message of every
 * .proto file reachable (through imports) from the seeds below. xDS resources and the configs they pack are
 * linked only through Any, so each packed type that is not already imported by a seed needs its own seed line;
 * an Any of an unknown type is reported ({@code checker.known_any_type}) rather than skipped.
 */
final class EnvoyTypes {

  /** Resource types, then the typed configs Holdfast packs or is likely to pack next. Add a line to add a type. */
  private static final List<Descriptor> SEEDS = List.of(
      Listener.getDescriptor(),
      Cluster.getDescriptor(),
      RouteConfiguration.getDescriptor(),
      ScopedRouteConfiguration.getDescriptor(),
      ClusterLoadAssignment.getDescriptor(),
      Secret.getDescriptor(),
      HttpConnectionManager.getDescriptor(),
      Router.getDescriptor(),
      HttpProtocolOptions.getDescriptor(),
      TcpProxy.getDescriptor(),
      TlsInspector.getDescriptor(),
      UpstreamTlsContext.getDescriptor(),
      DownstreamTlsContext.getDescriptor(),
      TlsInspector.getDescriptor(),
      RoundRobin.getDescriptor(),
      LeastRequest.getDescriptor(),
      RingHash.getDescriptor(),
      Maglev.getDescriptor(),
      Random.getDescriptor(),
      ClientSideWeightedRoundRobin.getDescriptor(),
      WrrLocality.getDescriptor(),
      PickFirst.getDescriptor(),
      ClusterProvided.getDescriptor(),
      Cors.getDescriptor(),
      HTTPFault.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthz.getDescriptor(),
      io.envoyproxy.envoy.config.route.v3.FilterConfig.getDescriptor(),
      // Basic authentication (h-basicauth).
      io.envoyproxy.envoy.extensions.filters.http.basic_auth.v3.BasicAuth.getDescriptor(),
      LocalRateLimit.getDescriptor(),
      FileAccessLog.getDescriptor(),
      StdoutAccessLog.getDescriptor(),
      StderrAccessLog.getDescriptor(),
      // Traffic policies (h-traffic).
      io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.csrf.v3.CsrfPolicy.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.buffer.v3.Buffer.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.compressor.v3.Compressor.getDescriptor(),
      io.envoyproxy.envoy.extensions.compression.gzip.compressor.v3.Gzip.getDescriptor(),
      io.envoyproxy.envoy.extensions.compression.brotli.compressor.v3.Brotli.getDescriptor(),
      io.envoyproxy.envoy.extensions.compression.zstd.compressor.v3.Zstd.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.health_check.v3.HealthCheck.getDescriptor(),
      io.envoyproxy.envoy.extensions.access_loggers.grpc.v3.HttpGrpcAccessLogConfig.getDescriptor(),
      io.envoyproxy.envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig.getDescriptor(),
      // OAuth2/OIDC login (h-oauth2).
      io.envoyproxy.envoy.extensions.filters.http.oauth2.v3.OAuth2.getDescriptor(),
      io.envoyproxy.envoy.config.trace.v3.OpenTelemetryConfig.getDescriptor(),
      // External processing (h-glextproc).
      io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExtProcPerRoute.getDescriptor(),
      // Upstream HTTP/1.1 header case (h-glhttp1).
      io.envoyproxy.envoy.extensions.http.header_formatters.preserve_case.v3.PreserveCaseFormatterConfig
          .getDescriptor(),
      // gRPC-Web (h-glgrpcweb).
      io.envoyproxy.envoy.extensions.filters.http.grpc_web.v3.GrpcWeb.getDescriptor());

  /** Full message name (as in a type URL after the last '/') to descriptor. */
  static final Map<String, Descriptor> BY_NAME = index(SEEDS);

  private EnvoyTypes() {
  }

  static Map<String, Descriptor> index(Collection<Descriptor> seeds) {
    Map<String, Descriptor> byName = new TreeMap<>();
    Set<FileDescriptor> seen = new HashSet<>();
    Deque<FileDescriptor> pending = new ArrayDeque<>();
    seeds.forEach(seed -> pending.add(seed.getFile()));
    while (!pending.isEmpty()) {
      FileDescriptor file = pending.pop();
      if (seen.add(file)) {
        file.getMessageTypes().forEach(type -> addWithNested(type, byName));
        pending.addAll(file.getDependencies());
      }
    }
    return Map.copyOf(byName);
  }

  private static void addWithNested(Descriptor type, Map<String, Descriptor> byName) {
    byName.put(type.getFullName(), type);
    type.getNestedTypes().forEach(nested -> addWithNested(nested, byName));
  }
}
