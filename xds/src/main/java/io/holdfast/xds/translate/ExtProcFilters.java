package io.holdfast.xds.translate;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExtProcOverrides;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExtProcPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.holdfast.ir.ExtProc;
import io.holdfast.ir.HttpListenerOptions;

/**
 * Envoy's {@code ext_proc} filter for a chain's external processing service ({@link HttpListenerOptions#extProc()}),
 * enabled for every route, and a route's {@code ExtProcPerRoute} (turned off, or another processing mode). Placed
 * by {@link HttpFilters#beforeRouter} at the service's {@link ExtProc.Position}; by default after authentication,
 * authorisation and the health check, before the rate limits, where Gloo Edge's {@code extProc} with
 * {@code filterStage {stage: AuthZStage, predicate: After}} runs, so the service only sees requests that were
 * allowed in.
 *
 * <p>Envoy listeners only: proxyless gRPC clients get no traffic options (see {@link TrafficFilters}).
 */
final class ExtProcFilters {

  static final String EXT_PROC = "envoy.filters.http.ext_proc";

  private ExtProcFilters() {
  }

  static HttpFilter filter(ExtProc.Service service) {
    return HttpFilter.newBuilder().setName(EXT_PROC).setTypedConfig(Protos.pack(ExternalProcessor.newBuilder()
        .setGrpcService(GrpcService.newBuilder().setEnvoyGrpc(GrpcService.EnvoyGrpc.newBuilder()
            .setClusterName(EnvoyNames.cluster(service.cluster()))))
        .setFailureModeAllow(service.failOpen())
        .setProcessingMode(mode(service.mode()))
        .setMessageTimeout(Protos.duration(service.messageTimeout()))
        .build())).build();
  }

  /** The route's per-filter config; none when it has no setting. */
  static void decorate(io.holdfast.ir.Route route, Route.Builder envoy) {
    route.traffic().extProc().ifPresent(setting -> envoy.putTypedPerFilterConfig(EXT_PROC, Any.pack(
        setting instanceof ExtProc.PerRoute.Override override
            ? ExtProcPerRoute.newBuilder().setOverrides(ExtProcOverrides.newBuilder()
                .setProcessingMode(mode(override.mode()))).build()
            : ExtProcPerRoute.newBuilder().setDisabled(true).build())));
  }

  private static ProcessingMode mode(ExtProc.Mode mode) {
    ProcessingMode.Builder envoy = ProcessingMode.newBuilder();
    mode.requestHeaders().ifPresent(m -> envoy.setRequestHeaderMode(header(m)));
    mode.responseHeaders().ifPresent(m -> envoy.setResponseHeaderMode(header(m)));
    mode.requestTrailers().ifPresent(m -> envoy.setRequestTrailerMode(header(m)));
    mode.responseTrailers().ifPresent(m -> envoy.setResponseTrailerMode(header(m)));
    mode.requestBody().ifPresent(m -> envoy.setRequestBodyMode(body(m)));
    mode.responseBody().ifPresent(m -> envoy.setResponseBodyMode(body(m)));
    return envoy.build();
  }

  private static ProcessingMode.HeaderSendMode header(ExtProc.HeaderMode mode) {
    return ProcessingMode.HeaderSendMode.valueOf(mode.name());
  }

  private static ProcessingMode.BodySendMode body(ExtProc.BodyMode mode) {
    return ProcessingMode.BodySendMode.valueOf(mode.name());
  }
}
