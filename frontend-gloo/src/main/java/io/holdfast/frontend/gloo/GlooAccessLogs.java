package io.holdfast.frontend.gloo;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.TrafficChecks;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.TrafficReasons;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Gloo's {@code accessLoggingService} (its als plugin) as Holdfast access logs. Gloo passes each entry to Envoy's
 * connection manager as it is: a {@code fileSink} is Envoy's file logger ({@code stringFormat} "" or absent: Envoy's
 * default format), a {@code grpcService} is Envoy's gRPC access log service on the cluster {@code staticClusterName}
 * names, and a {@code filter} is Envoy's access log filter. Holdfast's equivalents: a {@code file} sink; a
 * {@code grpc} sink on the Upstream whose cluster that is (Gloo names an Upstream's cluster
 * {@code <name>_<namespace>}; a cluster of Envoy's bootstrap, such as Gloo's Helm access logger
 * {@code access_log_cluster}, has none); an {@code openTelemetryService} collector, Holdfast's OpenTelemetry sink
 * on an Upstream made for it ({@link OtelCollectors}); and status and duration bounds. Anything else rejects the
 * Gateway with the field named.
 */
final class GlooAccessLogs {

  private static final Set<String> SERVICE = Set.of("accessLog");
  private static final Set<String> ACCESS_LOG = Set.of("fileSink", "grpcService", "openTelemetryService", "filter");
  private static final Set<String> FILE_SINK = Set.of("path", "stringFormat", "jsonFormat");
  private static final Set<String> GRPC = Set.of("logName", "staticClusterName");
  private static final Set<String> LEAF_FILTER = Set.of("statusCodeFilter", "durationFilter");
  private static final Set<String> OTEL = Set.of("logName", "collector", "body", "attributes");
  private static final Set<String> COLLECTOR = Set.of("endpoint", "insecure", "authority");
  private static final Set<String> STRING_VALUE = Set.of("stringValue");
  private static final Set<String> KEY_VALUES = Set.of("values");
  private static final Set<String> ANY_VALUE = Set.of("stringValue", "arrayValue", "kvlistValue");
  private static final Set<String> KEY_VALUE = Set.of("key", "value");
  private static final Set<String> FILTER = Set.of("statusCodeFilter", "durationFilter", "andFilter");
  private static final Set<String> COMPARED = Set.of("comparison");
  private static final Set<String> COMPARISON = Set.of("op", "value");
  private static final Set<String> RUNTIME_VALUE = Set.of("defaultValue", "runtimeKey");
  private static final Set<String> AND = Set.of("filters");

  private GlooAccessLogs() {
  }

  /** Each {@code accessLog} entry of Gloo's {@code accessLoggingService}, in order. */
  static List<TrafficOptions.AccessLog> read(Node service, OtelCollectors collectors) {
    service.only("accessLoggingService", SERVICE);
    List<TrafficOptions.AccessLog> logs = new ArrayList<>();
    List<Node> entries = service.list("accessLog");
    if (entries.size() > TrafficChecks.MAX_ACCESS_LOGS) {
      // Holdfast's bound, checked here too: each OpenTelemetry entry makes an Upstream, and a Gateway Holdfast
      // would reject must not leave thousands of them behind.
      service.error(service.at("accessLog"), TrafficReasons.TOO_MANY_ACCESS_LOGS, entries.size()
          + " access logs; at most " + TrafficChecks.MAX_ACCESS_LOGS);
      return logs;
    }
    for (int i = 0; i < entries.size(); i++) {
      accessLog(entries.get(i).only("accessLog", ACCESS_LOG), i, collectors).ifPresent(logs::add);
    }
    return logs;
  }

  private static Optional<TrafficOptions.AccessLog> accessLog(Node log, int index, OtelCollectors collectors) {
    Bounds bounds = new Bounds();
    if (log.has("filter")) {
      filter(log.child("filter"), bounds, true);
    }
    TrafficOptions.LogFilter filter = new TrafficOptions.LogFilter(bounds.minStatus, bounds.maxStatus,
        bounds.minDuration);
    int sinks = (log.has("fileSink") ? 1 : 0) + (log.has("grpcService") ? 1 : 0)
        + (log.has("openTelemetryService") ? 1 : 0);
    if (sinks != 1) {
      log.error(log.path, sinks == 0 ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "an access log has one of fileSink, grpcService, openTelemetryService");
      return Optional.empty();
    }
    if (log.has("openTelemetryService")) {
      return openTelemetry(log.child("openTelemetryService").only("openTelemetryService", OTEL), index, collectors,
          filter);
    }
    if (log.has("grpcService")) {
      Node grpc = log.child("grpcService").only("grpcService", GRPC);
      Optional<String> logName = grpc.requiredString("logName");
      Optional<String> cluster = grpc.requiredString("staticClusterName");
      Optional<ObjectRef> upstream = cluster.flatMap(GlooListenerOptions::upstreamOfCluster);
      if (cluster.isPresent() && upstream.isEmpty()) {
        grpc.error(grpc.at("staticClusterName"), GlooFeatures.UNSUPPORTED, "cluster \"" + cluster.get() + "\" is"
            + " not a Gloo Upstream's (<name>_<namespace>): a cluster of Envoy's bootstrap (such as Gloo's Helm"
            + " access logger's) does not exist on Holdfast's proxies; name the cluster of a Gloo Upstream for the"
            + " access log service (with useHttp2: true)");
      }
      return upstream.flatMap(u -> logName.map(name -> new TrafficOptions.AccessLog(
          new TrafficOptions.Sink.Grpc(u, name), Optional.empty(), new TreeMap<>(), filter)));
    }
    Node file = log.child("fileSink").only("fileSink", FILE_SINK);
    Optional<String> path = file.requiredString("path");
    if (file.has("stringFormat") && file.has("jsonFormat")) {
      file.error(file.path, Reasons.CONFLICTING_FIELDS, "a fileSink has one of stringFormat, jsonFormat");
    }
    Optional<String> text = file.string("stringFormat").filter(f -> !f.isEmpty()); // "": Envoy's default format
    TreeMap<String, String> json = new TreeMap<>();
    if (file.has("jsonFormat")) {
      Node format = file.child("jsonFormat");
      if (format.json.isObject()) {
        for (String field : format.json.propertyNames()) {
          if (format.json.get(field).isString()) {
            json.put(field, format.json.get(field).asString());
          } else {
            format.error(format.at(field), GlooFeatures.UNSUPPORTED, "a JSON format field other than a string"
                + " (a number, a nested object) is not supported by Holdfast: write it as a command-operator string");
          }
        }
      }
    }
    return path.map(p -> new TrafficOptions.AccessLog(new TrafficOptions.Sink.File(p), text, json, filter));
  }

  /**
   * Gloo's {@code openTelemetryService} with a {@code collector} endpoint: Holdfast's OpenTelemetry sink on a
   * synthetic Upstream for the collector ({@link OtelCollectors}); a {@code body} that is a string is the text
   * format (Envoy's log body), {@code attributes} whose values are strings the JSON fields (Envoy's attributes), as
   * Holdfast's OpenTelemetry log sends them, and the collector's {@code authority} that of the gRPC requests. Other
   * AnyValue kinds, the collector's {@code headers}, {@code sslConfig} and {@code timeout} have no Holdfast
   * equivalent.
   */
  private static Optional<TrafficOptions.AccessLog> openTelemetry(Node otel, int index, OtelCollectors collectors,
      TrafficOptions.LogFilter filter) {
    Optional<String> logName = otel.requiredString("logName").filter(n -> !n.isEmpty());
    Node collector = otel.child("collector").only("collector", COLLECTOR);
    Optional<String> endpoint = collector.requiredString("endpoint");
    Optional<Map.Entry<String, Integer>> hostPort = endpoint.flatMap(OtelCollectors::hostPort);
    if (endpoint.isPresent() && hostPort.isEmpty()) {
      collector.error(collector.at("endpoint"), Reasons.INVALID_VALUE, "\"" + endpoint.get() + "\" is not host:port");
    }
    boolean insecure = collector.bool("insecure").orElse(false);
    Optional<String> text = Optional.empty();
    if (otel.has("body")) {
      Node body = otel.child("body").only("body (only stringValue)", STRING_VALUE);
      text = body.requiredString("stringValue");
    }
    List<TrafficOptions.OtelAttribute> written = otel.has("attributes")
        ? keyValues(otel.child("attributes"), 1) : List.of();
    // All strings: the JSON format's fields, as Holdfast's OpenTelemetry log sends them; any nested value: the
    // sink's attributes, in Gloo's order.
    boolean flat = written.stream().allMatch(a -> a.value() instanceof TrafficOptions.OtelValue.Text);
    TreeMap<String, String> attributes = new TreeMap<>();
    if (flat) {
      written.forEach(a -> attributes.put(a.key(), ((TrafficOptions.OtelValue.Text) a.value()).value()));
    }
    List<TrafficOptions.OtelAttribute> nested = flat ? List.of() : written;
    if (logName.isEmpty() || hostPort.isEmpty()) {
      if (otel.has("logName") && logName.isEmpty()) {
        otel.error(otel.at("logName"), Reasons.MISSING_FIELD, "the log name cannot be empty (as in Gloo)");
      }
      return Optional.empty();
    }
    ObjectRef upstream = collectors.collector(index, logName.get(), hostPort.get().getKey(),
        hostPort.get().getValue(), insecure);
    // Gloo: the collector's authority is the gRPC service's (EnvoyGrpc.authority); "" leaves Envoy's default.
    Optional<String> authority = collector.string("authority").filter(a -> !a.isEmpty());
    return Optional.of(new TrafficOptions.AccessLog(new TrafficOptions.Sink.OpenTelemetry(upstream, logName.get(),
        authority).withAttributes(nested), text, attributes, filter));
  }

  /** A KeyValueList ({@code values: [{key, value}]}) whose values are at nesting {@code depth}; keys unique. */
  private static List<TrafficOptions.OtelAttribute> keyValues(Node list, int depth) {
    List<TrafficOptions.OtelAttribute> out = new ArrayList<>();
    java.util.Set<String> keys = new java.util.HashSet<>();
    for (Node attribute : list.only("attributes", KEY_VALUES).list("values")) {
      attribute.only("attribute", KEY_VALUE);
      Optional<String> key = attribute.requiredString("key");
      if (!attribute.has("value")) {
        attribute.error(attribute.at("value"), Reasons.MISSING_FIELD, "an attribute needs a value");
        continue;
      }
      Optional<TrafficOptions.OtelValue> value = anyValue(attribute.child("value"), depth);
      if (key.isPresent() && !keys.add(key.get())) {
        attribute.error(attribute.at("key"), Reasons.INVALID_VALUE, "attribute " + key.get() + " is given twice");
      } else if (key.isPresent() && value.isPresent()) {
        out.add(new TrafficOptions.OtelAttribute(key.get(), value.get()));
      }
    }
    return out;
  }

  /**
   * An OpenTelemetry AnyValue: {@code stringValue}, {@code arrayValue} or {@code kvlistValue}, nested at most
   * {@link TrafficOptions#MAX_OTEL_DEPTH} deep (Holdfast's bound, reported with its reason). Other kinds (ints,
   * bools, bytes) have no command-operator form in Holdfast and reject the Gateway naming the field.
   */
  private static Optional<TrafficOptions.OtelValue> anyValue(Node value, int depth) {
    value.only("attribute value (stringValue, arrayValue or kvlistValue)", ANY_VALUE);
    List<String> given = ANY_VALUE.stream().filter(value::has).sorted().toList();
    if (given.isEmpty() && value.json.size() > 0) {
      return Optional.empty(); // another kind (intValue...), reported by only()
    }
    if (given.size() != 1) {
      value.error(value.path, given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "a value is one of stringValue, arrayValue or kvlistValue");
      return Optional.empty();
    }
    if (given.get(0).equals("stringValue")) {
      return value.requiredString("stringValue").map(TrafficOptions.OtelValue.Text::new);
    }
    if (depth >= TrafficOptions.MAX_OTEL_DEPTH) {
      value.error(value.at(given.get(0)), TrafficReasons.OTEL_ATTRIBUTES_TOO_DEEP, "values nest at most "
          + TrafficOptions.MAX_OTEL_DEPTH + " levels deep in Holdfast");
      return Optional.empty();
    }
    if (given.get(0).equals("kvlistValue")) {
      return Optional.of(new TrafficOptions.OtelValue.KvList(keyValues(value.child("kvlistValue"), depth + 1)));
    }
    List<TrafficOptions.OtelValue> values = new ArrayList<>();
    for (Node item : value.child("arrayValue").only("arrayValue", KEY_VALUES).list("values")) {
      anyValue(item, depth + 1).ifPresent(values::add);
    }
    return Optional.of(new TrafficOptions.OtelValue.Array(values));
  }

  /** What Holdfast's filter holds: a status range and a minimum duration, all of which must hold. */
  private static final class Bounds {
    Optional<Long> minStatus = Optional.empty();
    Optional<Long> maxStatus = Optional.empty();
    Optional<Duration> minDuration = Optional.empty();
  }

  /**
   * One Gloo access log filter into {@code bounds}: a {@code statusCodeFilter} ({@code GE}, {@code LE} or
   * {@code EQ}, Gloo's default), a {@code durationFilter} with {@code GE}, or (at the top only, so nesting stays
   * bounded) an {@code andFilter} of those. Each bound may be set once.
   */
  private static void filter(Node filter, Bounds bounds, boolean top) {
    Set<String> supported = top ? FILTER : LEAF_FILTER;
    filter.only("access log filter", supported);
    int kinds = filter.json.isObject() ? filter.json.size() : 0;
    if (kinds != 1) {
      filter.error(filter.path, kinds == 0 ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "an access log filter has exactly one kind");
      return;
    }
    if (!supported.contains(filter.json.propertyNames().iterator().next())) {
      return; // reported by only()
    }
    if (filter.has("andFilter")) {
      Node and = filter.child("andFilter").only("andFilter", AND);
      List<Node> filters = and.list("filters");
      if (filters.size() < 2) {
        and.error(and.at("filters"), Reasons.INVALID_VALUE, "an andFilter has at least two filters (as Gloo)");
      }
      filters.forEach(f -> filter(f, bounds, false));
      return;
    }
    boolean status = filter.has("statusCodeFilter");
    Node comparison = filter.child(status ? "statusCodeFilter" : "durationFilter").only("filter", COMPARED)
        .child("comparison").only("comparison", COMPARISON);
    String op = comparison.string("op").orElse("EQ"); // proto3's zero value: Gloo's default is EQ
    Optional<Long> value = value(comparison);
    if (value.isEmpty()) {
      return;
    }
    String at = comparison.at("op");
    if (status) {
      switch (op) {
        case "GE" -> bounds.minStatus = once(bounds.minStatus, value.get(), comparison, at);
        case "LE" -> bounds.maxStatus = once(bounds.maxStatus, value.get(), comparison, at);
        case "EQ" -> {
          bounds.minStatus = once(bounds.minStatus, value.get(), comparison, at);
          bounds.maxStatus = once(bounds.maxStatus, value.get(), comparison, at);
        }
        default -> comparison.error(at, Reasons.INVALID_VALUE, "op " + op + " is not one of EQ, GE, LE");
      }
    } else if (op.equals("GE")) {
      bounds.minDuration = once(bounds.minDuration, Duration.ofMillis(value.get()), comparison, at);
    } else {
      comparison.error(at, GlooFeatures.UNSUPPORTED, "a durationFilter with op " + op + " is not supported by"
          + " Holdfast, whose access logs have a minimum duration only (GE)");
    }
  }

  private static <T> Optional<T> once(Optional<T> current, T value, Node at, String field) {
    if (current.isPresent()) {
      at.error(field, GlooFeatures.UNSUPPORTED, "this bound is already set by another filter; Holdfast's access log"
          + " filter holds one minimum and one maximum status and one minimum duration");
      return current;
    }
    return Optional.of(value);
  }

  /**
   * A comparison's {@code value} (Envoy's RuntimeUInt32): Gloo requires {@code runtimeKey}, and Envoy compares
   * against the runtime's value for that key, else {@code defaultValue}. Holdfast's proxies set no runtime keys and
   * Holdfast writes its own, so the default decides: one without a {@code defaultValue} (so 0, meaning whatever the
   * runtime says) is refused, and the key not being kept is a warning.
   */
  private static Optional<Long> value(Node comparison) {
    Node value = comparison.child("value").only("comparison value", RUNTIME_VALUE);
    Optional<String> key = value.string("runtimeKey").filter(k -> !k.isEmpty());
    if (key.isEmpty()) {
      value.error(value.at("runtimeKey"), Reasons.MISSING_FIELD, "Gloo requires a runtimeKey on a comparison");
      return Optional.empty();
    }
    Optional<Integer> defaultValue = value.integer("defaultValue");
    if (defaultValue.isEmpty()) {
      value.error(value.at("defaultValue"), GlooFeatures.UNSUPPORTED, "a comparison without defaultValue is"
          + " decided by Envoy's runtime key " + key.get() + ", which Holdfast does not configure; give the"
          + " defaultValue to compare against");
      return Optional.empty();
    }
    if (defaultValue.get() < 0) {
      value.error(value.at("defaultValue"), Reasons.INVALID_VALUE, "a negative defaultValue");
      return Optional.empty();
    }
    value.warn(value.at("runtimeKey"), "RuntimeKeyNotKept", "runtime key " + key.get() + " is not kept: the"
        + " comparison is against defaultValue " + defaultValue.get() + " (Holdfast names its own runtime keys and"
        + " sets none, so a runtime override of this key has no effect)");
    return Optional.of(defaultValue.get().longValue());
  }
}
