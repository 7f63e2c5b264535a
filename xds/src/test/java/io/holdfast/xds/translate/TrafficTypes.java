package io.holdfast.xds.translate;

import com.google.protobuf.Descriptors.Descriptor;
import java.util.List;

/** The typed configs of traffic options, for printing goldens as JSON. */
final class TrafficTypes {

  static final List<Descriptor> DESCRIPTORS = List.of(
      io.envoyproxy.envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimitPerRoute.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.csrf.v3.CsrfPolicy.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.buffer.v3.Buffer.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.buffer.v3.BufferPerRoute.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.compressor.v3.Compressor.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.compressor.v3.CompressorPerRoute.getDescriptor(),
      io.envoyproxy.envoy.extensions.compression.gzip.compressor.v3.Gzip.getDescriptor(),
      io.envoyproxy.envoy.extensions.compression.brotli.compressor.v3.Brotli.getDescriptor(),
      io.envoyproxy.envoy.extensions.compression.zstd.compressor.v3.Zstd.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol.getDescriptor(),
      io.envoyproxy.envoy.extensions.access_loggers.file.v3.FileAccessLog.getDescriptor(),
      io.envoyproxy.envoy.extensions.filters.http.health_check.v3.HealthCheck.getDescriptor(),
      io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StdoutAccessLog.getDescriptor(),
      io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StderrAccessLog.getDescriptor(),
      io.envoyproxy.envoy.extensions.access_loggers.grpc.v3.HttpGrpcAccessLogConfig.getDescriptor(),
      io.envoyproxy.envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig.getDescriptor(),
      io.envoyproxy.envoy.config.trace.v3.OpenTelemetryConfig.getDescriptor());

  private TrafficTypes() {
  }
}
