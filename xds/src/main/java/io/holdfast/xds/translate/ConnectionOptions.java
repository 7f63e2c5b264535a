package io.holdfast.xds.translate;

import com.google.protobuf.BoolValue;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.core.v3.Http2ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.listener.v3.ListenerFilter;
import io.envoyproxy.envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol;
import io.envoyproxy.envoy.config.trace.v3.OpenTelemetryConfig;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.type.tracing.v3.CustomTag;
import io.envoyproxy.envoy.type.v3.Percent;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.SocketOptions;
import java.util.List;

/**
 * {@link SocketOptions} on an Envoy listener and {@link HttpListenerOptions} on a connection manager. Unset options
 * leave Envoy's defaults, so configs without options translate as before.
 */
final class ConnectionOptions {

  static final String PROXY_PROTOCOL_FILTER = "envoy.filters.listener.proxy_protocol";
  static final String OPEN_TELEMETRY_TRACER = "envoy.tracers.opentelemetry";
  /** Envoy's name of the WebSocket upgrade (the {@code Upgrade} header's value, compared case-insensitively). */
  static final String WEBSOCKET_UPGRADE = "websocket";
  /** The {@code Server} header the route configuration removes when it is stripped. */
  static final String SERVER_HEADER = "server";

  private ConnectionOptions() {
  }

  /**
   * The PROXY protocol filter (first: it reads the header before the TLS inspector reads the ClientHello) and
   * the buffer limit.
   */
  static void socket(SocketOptions options, Listener.Builder listener) {
    if (options.proxyProtocol()) {
      listener.addListenerFilters(ListenerFilter.newBuilder()
          .setName(PROXY_PROTOCOL_FILTER)
          .setTypedConfig(Protos.pack(ProxyProtocol.getDefaultInstance())));
    }
    options.perConnectionBufferLimitBytes().ifPresent(bytes ->
        listener.setPerConnectionBufferLimitBytes(UInt32Value.of(bytes)));
  }

  static void connectionManager(HttpListenerOptions options, HttpConnectionManager.Builder hcm) {
    options.xffNumTrustedHops().ifPresent(hcm::setXffNumTrustedHops);
    // Only when set: unset keeps Envoy's default (false) and leaves configs without it byte-identical.
    options.normalizePath().ifPresent(normalize -> hcm.setNormalizePath(BoolValue.of(normalize)));
    // Envoy refuses an upgrade no entry names (403), which is what false means too: so only true is written.
    options.webSockets().filter(Boolean::booleanValue).ifPresent(on -> hcm.addUpgradeConfigs(
        HttpConnectionManager.UpgradeConfig.newBuilder().setUpgradeType(WEBSOCKET_UPGRADE)));
    options.idleTimeout().ifPresent(timeout -> hcm.setCommonHttpProtocolOptions(
        HttpProtocolOptions.newBuilder().setIdleTimeout(Protos.duration(timeout))));
    options.requestHeadersTimeout().ifPresent(timeout -> hcm.setRequestHeadersTimeout(Protos.duration(timeout)));
    options.maxRequestHeadersKb().ifPresent(kb -> hcm.setMaxRequestHeadersKb(UInt32Value.of(kb)));
    options.http2().ifPresent(http2 -> {
      Http2ProtocolOptions.Builder envoy = Http2ProtocolOptions.newBuilder();
      http2.maxConcurrentStreams().ifPresent(n -> envoy.setMaxConcurrentStreams(UInt32Value.of(n)));
      http2.initialStreamWindowSize().ifPresent(n -> envoy.setInitialStreamWindowSize(UInt32Value.of(n)));
      http2.initialConnectionWindowSize().ifPresent(n -> envoy.setInitialConnectionWindowSize(UInt32Value.of(n)));
      hcm.setHttp2ProtocolOptions(envoy);
    });
    options.serverHeader().ifPresent(server -> {
      if (server instanceof HttpListenerOptions.ServerHeader.Name name) {
        hcm.setServerName(name.value());
      } else {
        hcm.setServerHeaderTransformation(HttpConnectionManager.ServerHeaderTransformation.PASS_THROUGH);
      }
    });
    hcm.addAllAccessLog(AccessLogs.of(options.accessLogs()));
    options.tracing().ifPresent(tracing -> hcm.setTracing(tracing(tracing)));
  }

  /**
   * Envoy's OpenTelemetry tracer on the collector's cluster, with the sampling percentages (always written, so the
   * configuration says what is sampled rather than relying on Envoy's default) and request-header tags.
   */
  static HttpConnectionManager.Tracing tracing(HttpListenerOptions.Tracing tracing) {
    GrpcService.EnvoyGrpc.Builder envoyGrpc = GrpcService.EnvoyGrpc.newBuilder()
        .setClusterName(EnvoyNames.cluster(tracing.cluster()));
    tracing.authority().ifPresent(envoyGrpc::setAuthority);
    OpenTelemetryConfig.Builder otel = OpenTelemetryConfig.newBuilder()
        .setGrpcService(GrpcService.newBuilder().setEnvoyGrpc(envoyGrpc));
    tracing.serviceName().ifPresent(otel::setServiceName);
    HttpConnectionManager.Tracing.Builder out = HttpConnectionManager.Tracing.newBuilder()
        .setClientSampling(Percent.newBuilder().setValue(tracing.clientSampling()))
        .setRandomSampling(Percent.newBuilder().setValue(tracing.randomSampling()))
        .setOverallSampling(Percent.newBuilder().setValue(tracing.overallSampling()))
        .setVerbose(tracing.verbose())
        .setProvider(io.envoyproxy.envoy.config.trace.v3.Tracing.Http.newBuilder()
            .setName(OPEN_TELEMETRY_TRACER)
            .setTypedConfig(Protos.pack(otel.build())));
    for (String header : tracing.requestHeaderTags()) {
      out.addCustomTags(CustomTag.newBuilder().setTag(header)
          .setRequestHeader(CustomTag.Header.newBuilder().setName(header)));
    }
    return out.build();
  }

  /**
   * Response headers the chain's route configuration removes: {@code server} when the header is stripped (the
   * connection manager then passes through, so removing the upstream's leaves none).
   */
  static List<String> responseHeadersToRemove(HttpListenerOptions options) {
    return options.serverHeader().filter(HttpListenerOptions.ServerHeader.Strip.class::isInstance).isPresent()
        ? List.of(SERVER_HEADER) : List.of();
  }
}
