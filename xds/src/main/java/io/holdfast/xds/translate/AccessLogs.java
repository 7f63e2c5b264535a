package io.holdfast.xds.translate;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.accesslog.v3.AccessLog;
import io.envoyproxy.envoy.config.accesslog.v3.AccessLogFilter;
import io.envoyproxy.envoy.config.accesslog.v3.AndFilter;
import io.envoyproxy.envoy.config.accesslog.v3.ComparisonFilter;
import io.envoyproxy.envoy.config.accesslog.v3.DurationFilter;
import io.envoyproxy.envoy.config.accesslog.v3.StatusCodeFilter;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.core.v3.RuntimeUInt32;
import io.envoyproxy.envoy.config.core.v3.SubstitutionFormatString;
import io.envoyproxy.envoy.extensions.access_loggers.file.v3.FileAccessLog;
import io.envoyproxy.envoy.extensions.access_loggers.grpc.v3.CommonGrpcAccessLogConfig;
import io.envoyproxy.envoy.extensions.access_loggers.grpc.v3.HttpGrpcAccessLogConfig;
import io.envoyproxy.envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StderrAccessLog;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StdoutAccessLog;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.HttpListenerOptions.Format;
import io.holdfast.ir.HttpListenerOptions.LogFilter;
import io.holdfast.ir.HttpListenerOptions.Sink;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@link HttpListenerOptions.AccessLog}s as Envoy access loggers on the connection manager: stdout, stderr and
 * file loggers with a text or JSON format, the gRPC access log service, and OpenTelemetry (text format as the
 * log body, JSON fields as attributes). Status and duration conditions become an {@code and_filter} of
 * {@code status_code_filter}s and a {@code duration_filter}.
 */
final class AccessLogs {

  static final String FILE = "envoy.access_loggers.file";
  static final String STDOUT = "envoy.access_loggers.stdout";
  static final String STDERR = "envoy.access_loggers.stderr";
  static final String GRPC = "envoy.access_loggers.http_grpc";
  static final String OPEN_TELEMETRY = "envoy.access_loggers.open_telemetry";
  /**
   * Envoy's comparison filters read their threshold through a runtime key it requires; no runtime layer sets these
   * keys, so the configured value applies.
   */
  static final String RUNTIME_PREFIX = "holdfast.access_log.";

  private AccessLogs() {
  }

  static List<AccessLog> of(List<HttpListenerOptions.AccessLog> logs) {
    List<AccessLog> out = new ArrayList<>(logs.size());
    for (int i = 0; i < logs.size(); i++) {
      out.add(accessLog(logs.get(i), i));
    }
    return out;
  }

  private static AccessLog accessLog(HttpListenerOptions.AccessLog log, int index) {
    AccessLog.Builder out = AccessLog.newBuilder();
    Sink sink = log.sink();
    if (sink instanceof Sink.File file) {
      FileAccessLog.Builder config = FileAccessLog.newBuilder().setPath(file.path());
      format(log.format()).ifPresent(config::setLogFormat);
      out.setName(FILE).setTypedConfig(Protos.pack(config.build()));
    } else if (sink instanceof Sink.Stdout) {
      StdoutAccessLog.Builder config = StdoutAccessLog.newBuilder();
      format(log.format()).ifPresent(config::setLogFormat);
      out.setName(STDOUT).setTypedConfig(Protos.pack(config.build()));
    } else if (sink instanceof Sink.Stderr) {
      StderrAccessLog.Builder config = StderrAccessLog.newBuilder();
      format(log.format()).ifPresent(config::setLogFormat);
      out.setName(STDERR).setTypedConfig(Protos.pack(config.build()));
    } else if (sink instanceof Sink.Grpc grpc) {
      out.setName(GRPC).setTypedConfig(Protos.pack(HttpGrpcAccessLogConfig.newBuilder()
          .setCommonConfig(common(grpc.cluster(), grpc.logName(), java.util.Optional.empty())).build()));
    } else if (sink instanceof Sink.OpenTelemetry otel) {
      OpenTelemetryAccessLogConfig.Builder config = OpenTelemetryAccessLogConfig.newBuilder()
          .setCommonConfig(common(otel.cluster(), otel.logName(), otel.authority()));
      if (log.format() instanceof Format.Text text) {
        config.setBody(AnyValue.newBuilder().setStringValue(text.format()));
      }
      KeyValueList.Builder attributes = KeyValueList.newBuilder();
      if (log.format() instanceof Format.Json json) {
        json.fields().forEach((key, value) -> attributes.addValues(KeyValue.newBuilder().setKey(key)
            .setValue(AnyValue.newBuilder().setStringValue(value))));
      }
      attributes.addAllValues(keyValues(otel.attributes()).getValuesList());
      if (attributes.getValuesCount() > 0) {
        config.setAttributes(attributes);
      }
      out.setName(OPEN_TELEMETRY).setTypedConfig(Protos.pack(config.build()));
    }
    filter(log.filter(), index).ifPresent(out::setFilter);
    return out.build();
  }

  /** Nesting is bounded by the front ends ({@code TrafficOptions.MAX_OTEL_DEPTH}). */
  private static KeyValueList keyValues(List<HttpListenerOptions.OtelAttribute> attributes) {
    KeyValueList.Builder list = KeyValueList.newBuilder();
    attributes.forEach(a -> list.addValues(KeyValue.newBuilder().setKey(a.key()).setValue(anyValue(a.value()))));
    return list.build();
  }

  private static AnyValue anyValue(HttpListenerOptions.OtelValue value) {
    if (value instanceof HttpListenerOptions.OtelValue.Array array) {
      ArrayValue.Builder values = ArrayValue.newBuilder();
      array.values().forEach(v -> values.addValues(anyValue(v)));
      return AnyValue.newBuilder().setArrayValue(values).build();
    }
    if (value instanceof HttpListenerOptions.OtelValue.KvList list) {
      return AnyValue.newBuilder().setKvlistValue(keyValues(list.values())).build();
    }
    return AnyValue.newBuilder().setStringValue(((HttpListenerOptions.OtelValue.Text) value).format()).build();
  }

  private static CommonGrpcAccessLogConfig common(io.holdfast.api.ResourceKey cluster, String logName,
      java.util.Optional<String> authority) {
    GrpcService.EnvoyGrpc.Builder envoyGrpc = GrpcService.EnvoyGrpc.newBuilder()
        .setClusterName(EnvoyNames.cluster(cluster));
    authority.ifPresent(envoyGrpc::setAuthority);
    return CommonGrpcAccessLogConfig.newBuilder()
        .setLogName(logName)
        .setGrpcService(GrpcService.newBuilder().setEnvoyGrpc(envoyGrpc))
        .setTransportApiVersion(ApiVersion.V3)
        .build();
  }

  /** Empty for Envoy's default format. JSON formats end each entry with a newline, as Envoy's text formats do. */
  private static java.util.Optional<SubstitutionFormatString> format(Format format) {
    if (format instanceof Format.Text text) {
      String line = text.format().endsWith("\n") ? text.format() : text.format() + "\n";
      return java.util.Optional.of(SubstitutionFormatString.newBuilder()
          .setTextFormatSource(DataSource.newBuilder().setInlineString(line)).build());
    }
    if (format instanceof Format.Json json) {
      Struct.Builder struct = Struct.newBuilder();
      for (Map.Entry<String, String> field : json.fields().entrySet()) {
        struct.putFields(field.getKey(), Value.newBuilder().setStringValue(field.getValue()).build());
      }
      return java.util.Optional.of(SubstitutionFormatString.newBuilder().setJsonFormat(struct).build());
    }
    return java.util.Optional.empty();
  }

  private static java.util.Optional<AccessLogFilter> filter(LogFilter filter, int index) {
    List<AccessLogFilter> conditions = new ArrayList<>();
    String key = RUNTIME_PREFIX + index + ".";
    filter.minStatus().ifPresent(code -> conditions.add(AccessLogFilter.newBuilder()
        .setStatusCodeFilter(StatusCodeFilter.newBuilder()
            .setComparison(comparison(ComparisonFilter.Op.GE, code, key + "min_status"))).build()));
    filter.maxStatus().ifPresent(code -> conditions.add(AccessLogFilter.newBuilder()
        .setStatusCodeFilter(StatusCodeFilter.newBuilder()
            .setComparison(comparison(ComparisonFilter.Op.LE, code, key + "max_status"))).build()));
    filter.minDuration().ifPresent(duration -> conditions.add(AccessLogFilter.newBuilder()
        .setDurationFilter(DurationFilter.newBuilder()
            .setComparison(comparison(ComparisonFilter.Op.GE, (int) Math.min(Integer.MAX_VALUE, duration.toMillis()),
                key + "min_duration_ms"))).build()));
    if (conditions.isEmpty()) {
      return java.util.Optional.empty();
    }
    if (conditions.size() == 1) {
      return java.util.Optional.of(conditions.get(0));
    }
    return java.util.Optional.of(AccessLogFilter.newBuilder()
        .setAndFilter(AndFilter.newBuilder().addAllFilters(conditions)).build());
  }

  private static ComparisonFilter comparison(ComparisonFilter.Op op, int value, String runtimeKey) {
    return ComparisonFilter.newBuilder()
        .setOp(op)
        .setValue(RuntimeUInt32.newBuilder().setDefaultValue(value).setRuntimeKey(runtimeKey))
        .build();
  }
}
