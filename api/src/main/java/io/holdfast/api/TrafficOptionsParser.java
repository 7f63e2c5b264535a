package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * Reads {@link TrafficOptions}: a Gateway's {@code spec.options}, and the traffic fields of route and
 * VirtualService {@code options}. Like {@link RouteOptionsParser}, each reader records every problem it finds with
 * the field's path and returns empty if there was any; ranges and references are judged by validation, which names
 * a reason for each.
 */
public final class TrafficOptionsParser {

  /** The traffic fields of a route's or VirtualService's {@code options}. */
  static final Set<String> ROUTE_FIELDS = Set.of("rateLimit", "compression", "csrf", "maxRequestBodyBytes",
      "extProc");
  /** A TrafficPolicy's: its Gateway API listener options have no external processing service to tune. */
  private static final Set<String> POLICY_ROUTE_FIELDS = Set.of("rateLimit", "compression", "csrf",
      "maxRequestBodyBytes");
  static final Set<String> LISTENER = Set.of("proxyProtocol", "perConnectionBufferLimitBytes", "xffNumTrustedHops",
      "idleTimeout", "requestHeadersTimeout", "maxRequestHeadersKb", "http2", "serverHeader", "accessLogs",
      "rateLimitService", "healthCheck", "tracing");
  /**
   * A Gateway's {@code spec.options}: {@link #LISTENER}, the external processing service, path normalisation,
   * WebSocket upgrades and gRPC-Web.
   */
  private static final Set<String> GATEWAY_OPTIONS = Set.of("proxyProtocol", "perConnectionBufferLimitBytes",
      "xffNumTrustedHops", "idleTimeout", "requestHeadersTimeout", "maxRequestHeadersKb", "http2", "serverHeader",
      "accessLogs", "rateLimitService", "healthCheck", "tracing", "extProc", "normalizePath",
      "webSockets", "grpcWeb");
  private static final Set<String> EXT_PROC = Set.of("upstream", "namespace", "processingMode", "failOpen",
      "messageTimeout", "position");
  private static final Set<String> EXT_PROC_ROUTE = Set.of("disabled", "processingMode");
  private static final Set<String> PROCESSING_MODE = Set.of("requestHeaders", "responseHeaders", "requestBody",
      "responseBody", "requestTrailers", "responseTrailers");
  private static final Set<String> TRACING = Set.of("openTelemetry", "sampling", "verbose", "requestHeaderTags");
  private static final Set<String> TRACING_OTEL = Set.of("upstream", "namespace", "serviceName", "authority");
  private static final Set<String> SAMPLING = Set.of("client", "random", "overall");
  private static final Set<String> HEALTH_CHECK = Set.of("path");
  private static final Set<String> HTTP2 = Set.of("maxConcurrentStreams", "initialStreamWindowSize",
      "initialConnectionWindowSize");
  private static final Set<String> SERVER_HEADER = Set.of("mode", "name");
  private static final List<String> SINKS = List.of("stdout", "stderr", "file", "grpc", "openTelemetry");
  private static final Set<String> ACCESS_LOG = Set.of("stdout", "stderr", "file", "grpc", "openTelemetry",
      "format", "filter");
  private static final Set<String> EMPTY = Set.of();
  private static final Set<String> FILE = Set.of("path");
  private static final Set<String> SERVICE_SINK = Set.of("upstream", "namespace", "logName");
  private static final Set<String> OTEL_SINK = Set.of("upstream", "namespace", "logName", "authority",
      "attributes");
  private static final Set<String> OTEL_ATTRIBUTE = Set.of("key", "value");
  private static final Set<String> OTEL_VALUE = Set.of("stringValue", "arrayValue", "kvlistValue");
  private static final Set<String> OTEL_VALUES = Set.of("values");
  private static final Set<String> FORMAT = Set.of("text", "json");
  private static final Set<String> LOG_FILTER = Set.of("minStatus", "maxStatus", "minDuration");
  private static final Set<String> RATE_LIMIT_SERVICE = Set.of("upstream", "namespace", "domain", "timeout",
      "failOpen");
  private static final Set<String> RATE_LIMIT = Set.of("local", "descriptors");
  private static final Set<String> LOCAL = Set.of("maxTokens", "tokensPerFill", "fillInterval", "responseHeaders");
  private static final List<String> ENTRY_KINDS = List.of("remoteAddress", "requestHeader", "genericKey",
      "jwtClaim");
  private static final Set<String> ENTRY = Set.copyOf(ENTRY_KINDS);
  private static final Set<String> REQUEST_HEADER = Set.of("header", "key");
  private static final Set<String> GENERIC_KEY = Set.of("key", "value");
  private static final Set<String> JWT_CLAIM = Set.of("provider", "claim", "key");
  private static final Set<String> CSRF = Set.of("additionalOrigins", "additionalOriginMatchers", "shadow");
  private static final Set<String> ORIGIN_MATCHER = Set.of("exact", "prefix", "suffix", "safeRegex", "ignoreCase");
  private static final Set<String> DESCRIPTOR = Set.of("entries");

  private TrafficOptionsParser() {
  }

  /** A Gateway's {@code spec.options}, {@link TrafficOptions.Listener#NONE} if absent. */
  static Optional<TrafficOptions.Listener> gateway(Fields spec) {
    if (!spec.has("options")) {
      return Optional.of(TrafficOptions.Listener.NONE);
    }
    return spec.object("options", GATEWAY_OPTIONS).flatMap(TrafficOptionsParser::listener);
  }

  /**
   * Listener options from a JSON object (a ClientTrafficPolicy's spec fields as well as a Gateway's
   * {@code spec.options}), with problems recorded under {@code path}.
   *
   * @param allowed the object's permitted fields: {@link #listenerFields()} plus any of the caller's own
   */
  public static Optional<TrafficOptions.Listener> listener(JsonNode node, String path, List<Problem> problems,
      Set<String> allowed) {
    return Fields.of(node, path, problems, allowed).flatMap(TrafficOptionsParser::listener);
  }

  /**
   * Route traffic options from a JSON object (a TrafficPolicy's spec fields), with problems under {@code path}.
   *
   * @param allowed the object's permitted fields: {@link #routeFields()} plus any of the caller's own
   */
  public static Optional<TrafficOptions.Route> route(JsonNode node, String path, List<Problem> problems,
      Set<String> allowed) {
    return Fields.of(node, path, problems, allowed).flatMap(TrafficOptionsParser::route);
  }

  public static Set<String> listenerFields() {
    return LISTENER;
  }

  public static Set<String> routeFields() {
    return POLICY_ROUTE_FIELDS;
  }

  private static Optional<TrafficOptions.Listener> listener(Fields fields) {
    int before = fields.problems().size();
    boolean proxyProtocol = fields.bool("proxyProtocol").orElse(false);
    Optional<Long> buffer = fields.longInteger("perConnectionBufferLimitBytes");
    Optional<Long> hops = fields.longInteger("xffNumTrustedHops");
    Optional<Duration> idle = fields.duration("idleTimeout");
    Optional<Duration> headersTimeout = fields.duration("requestHeadersTimeout");
    Optional<Long> headersKb = fields.longInteger("maxRequestHeadersKb");
    Optional<TrafficOptions.Http2> http2 = fields.object("http2", HTTP2).map(h -> new TrafficOptions.Http2(
        h.longInteger("maxConcurrentStreams"), h.longInteger("initialStreamWindowSize"),
        h.longInteger("initialConnectionWindowSize")));
    Optional<TrafficOptions.ServerHeader> server = fields.object("serverHeader", SERVER_HEADER)
        .map(s -> new TrafficOptions.ServerHeader(s.string("mode"), s.string("name")));
    List<TrafficOptions.AccessLog> logs = new ArrayList<>();
    fields.list("accessLogs", false).ifPresent(elements -> {
      for (Fields.Element element : elements) {
        Fields.of(element.node(), element.path(), fields.problems(), ACCESS_LOG)
            .flatMap(TrafficOptionsParser::accessLog).ifPresent(logs::add);
      }
    });
    Optional<TrafficOptions.RateLimitService> service = fields.object("rateLimitService", RATE_LIMIT_SERVICE)
        .flatMap(TrafficOptionsParser::rateLimitService);
    Optional<TrafficOptions.HealthCheck> healthCheck = fields.object("healthCheck", HEALTH_CHECK)
        .flatMap(h -> h.requiredString("path")).map(TrafficOptions.HealthCheck::new);
    Optional<TrafficOptions.Tracing> tracing = fields.object("tracing", TRACING)
        .flatMap(TrafficOptionsParser::tracing);
    Optional<TrafficOptions.ExtProc> extProc = fields.object("extProc", EXT_PROC)
        .flatMap(TrafficOptionsParser::extProc);
    Optional<Boolean> normalizePath = fields.bool("normalizePath");
    Optional<Boolean> webSockets = fields.bool("webSockets");
    Optional<Boolean> grpcWeb = fields.bool("grpcWeb");
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new TrafficOptions.Listener(proxyProtocol, buffer, hops, idle, headersTimeout, headersKb,
        http2, server, logs, service, healthCheck, tracing, extProc).withNormalizePath(normalizePath)
        .withWebSockets(webSockets).withGrpcWeb(grpcWeb));
  }

  private static Optional<TrafficOptions.ExtProc> extProc(Fields fields) {
    Optional<ObjectRef> upstream = ObjectRefs.read(fields, "upstream");
    TrafficOptions.ProcessingMode mode = fields.object("processingMode", PROCESSING_MODE)
        .map(TrafficOptionsParser::processingMode).orElse(TrafficOptions.ProcessingMode.DEFAULT);
    boolean failOpen = fields.bool("failOpen").orElse(false);
    Optional<Duration> timeout = fields.duration("messageTimeout");
    Optional<String> position = fields.string("position");
    return upstream.map(u -> new TrafficOptions.ExtProc(u, mode, failOpen, timeout, position));
  }

  private static TrafficOptions.ProcessingMode processingMode(Fields fields) {
    return new TrafficOptions.ProcessingMode(fields.string("requestHeaders"), fields.string("responseHeaders"),
        fields.string("requestBody"), fields.string("responseBody"), fields.string("requestTrailers"),
        fields.string("responseTrailers"));
  }

  private static Optional<TrafficOptions.ExtProcRoute> extProcRoute(Fields fields) {
    boolean disabled = fields.bool("disabled").orElse(false);
    Optional<TrafficOptions.ProcessingMode> mode = fields.object("processingMode", PROCESSING_MODE)
        .map(TrafficOptionsParser::processingMode);
    if (disabled == mode.isPresent()) {
      fields.problem(fields.path(), disabled ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "extProc is either disabled: true or a processingMode");
      return Optional.empty();
    }
    return Optional.of(new TrafficOptions.ExtProcRoute(disabled, mode));
  }

  private static Optional<TrafficOptions.Tracing> tracing(Fields fields) {
    Optional<Fields> otel = fields.requiredObject("openTelemetry", TRACING_OTEL);
    Optional<ObjectRef> upstream = otel.flatMap(o -> ObjectRefs.read(o, "upstream"));
    Optional<Fields> sampling = fields.object("sampling", SAMPLING);
    Optional<Double> client = sampling.flatMap(s -> s.number("client"));
    Optional<Double> random = sampling.flatMap(s -> s.number("random"));
    Optional<Double> overall = sampling.flatMap(s -> s.number("overall"));
    boolean verbose = fields.bool("verbose").orElse(false);
    List<String> tags = fields.stringList("requestHeaderTags", false).orElse(List.of());
    return upstream.map(u -> new TrafficOptions.Tracing(u, otel.get().string("serviceName"),
        otel.get().string("authority"), client, random, overall, verbose, tags));
  }

  private static Optional<TrafficOptions.AccessLog> accessLog(Fields fields) {
    List<String> given = SINKS.stream().filter(fields::has).toList();
    if (given.size() != 1) {
      fields.problem(fields.path(), given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          given.isEmpty() ? "an access log needs one of " + String.join(", ", SINKS)
              : "an access log has one sink, got " + String.join(" and ", given));
      return Optional.empty();
    }
    Optional<TrafficOptions.Sink> sink = switch (given.get(0)) {
      case "stdout" -> fields.object("stdout", EMPTY).map(f -> new TrafficOptions.Sink.Stdout());
      case "stderr" -> fields.object("stderr", EMPTY).map(f -> new TrafficOptions.Sink.Stderr());
      case "file" -> fields.object("file", FILE).flatMap(f -> f.requiredString("path"))
          .map(TrafficOptions.Sink.File::new);
      case "grpc" -> fields.object("grpc", SERVICE_SINK).flatMap(f -> ObjectRefs.read(f, "upstream")
          .flatMap(ref -> f.requiredString("logName").map(name -> new TrafficOptions.Sink.Grpc(ref, name))));
      default -> fields.object("openTelemetry", OTEL_SINK).flatMap(f -> ObjectRefs.read(f, "upstream")
          .flatMap(ref -> f.requiredString("logName")
              .map(name -> new TrafficOptions.Sink.OpenTelemetry(ref, name, f.string("authority"),
                  otelAttributes(f, "attributes", 1)))));
    };
    Optional<String> text = Optional.empty();
    Map<String, String> json = Map.of();
    if (fields.has("format")) {
      Optional<Fields> format = fields.object("format", FORMAT);
      if (format.isPresent()) {
        Fields f = format.get();
        if (f.has("text") == f.has("json")) {
          f.problem(f.path(), f.has("text") ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
              "a format is either text or json");
          return Optional.empty();
        }
        text = f.string("text");
        json = f.has("json") ? f.stringMap("json").orElse(Map.of()) : Map.of();
      }
    }
    TrafficOptions.LogFilter filter = fields.object("filter", LOG_FILTER).map(f -> new TrafficOptions.LogFilter(
        f.longInteger("minStatus"), f.longInteger("maxStatus"), f.duration("minDuration")))
        .orElse(TrafficOptions.LogFilter.ALL);
    Optional<String> textFormat = text;
    Map<String, String> jsonFormat = new TreeMap<>(json);
    return sink.map(s -> new TrafficOptions.AccessLog(s, textFormat, TrafficOptions.sorted(jsonFormat), filter));
  }

  private static Optional<TrafficOptions.RateLimitService> rateLimitService(Fields fields) {
    Optional<ObjectRef> upstream = ObjectRefs.read(fields, "upstream");
    Optional<String> domain = fields.requiredString("domain");
    Optional<Duration> timeout = fields.duration("timeout");
    boolean failOpen = fields.bool("failOpen").orElse(true);
    return upstream.flatMap(u -> domain.map(d -> new TrafficOptions.RateLimitService(u, d, timeout, failOpen)));
  }

  /** The traffic fields of a route's or VirtualService's {@code options} ({@code options} already read). */
  static Optional<TrafficOptions.Route> route(Fields fields) {
    int before = fields.problems().size();
    Optional<TrafficOptions.LocalRateLimit> local = Optional.empty();
    Optional<List<TrafficOptions.Descriptor>> descriptors = Optional.empty();
    Optional<Fields> rateLimit = fields.object("rateLimit", RATE_LIMIT);
    if (rateLimit.isPresent()) {
      local = rateLimit.get().object("local", LOCAL).flatMap(TrafficOptionsParser::local);
      descriptors = rateLimit.get().list("descriptors", false).map(elements -> descriptors(elements,
          fields.problems()));
    }
    Optional<List<String>> compression = fields.stringList("compression", false);
    Optional<TrafficOptions.Csrf> csrf = fields.object("csrf", CSRF).map(c -> new TrafficOptions.Csrf(
        c.stringList("additionalOrigins", false).orElse(List.of()), originMatchers(c),
        c.bool("shadow").orElse(false)));
    Optional<Long> body = fields.longInteger("maxRequestBodyBytes");
    Optional<TrafficOptions.ExtProcRoute> extProc = fields.object("extProc", EXT_PROC_ROUTE)
        .flatMap(TrafficOptionsParser::extProcRoute);
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new TrafficOptions.Route(local, descriptors, compression, csrf, body, extProc));
  }

  /** The attributes in list {@code field} of {@code fields}, whose values are at nesting {@code depth}. */
  private static List<TrafficOptions.OtelAttribute> otelAttributes(Fields fields, String field, int depth) {
    List<TrafficOptions.OtelAttribute> attributes = new ArrayList<>();
    for (Fields.Element element : fields.list(field, false).orElse(List.of())) {
      Fields.of(element.node(), element.path(), fields.problems(), OTEL_ATTRIBUTE).ifPresent(a -> {
        Optional<String> key = a.requiredString("key");
        Optional<TrafficOptions.OtelValue> value = a.required("value")
            .flatMap(v -> a.object("value", OTEL_VALUE)).flatMap(v -> otelValue(v, depth));
        key.ifPresent(k -> value.ifPresent(v -> attributes.add(new TrafficOptions.OtelAttribute(k, v))));
      });
    }
    return attributes;
  }

  private static Optional<TrafficOptions.OtelValue> otelValue(Fields value, int depth) {
    List<String> given = List.of("stringValue", "arrayValue", "kvlistValue").stream().filter(value::has).toList();
    if (given.size() != 1) {
      value.problem(value.path(), given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "a value is one of stringValue, arrayValue or kvlistValue");
      return Optional.empty();
    }
    if (given.get(0).equals("stringValue")) {
      return value.string("stringValue").map(TrafficOptions.OtelValue.Text::new);
    }
    if (depth >= TrafficOptions.MAX_OTEL_DEPTH) {
      value.problem(value.path(given.get(0)), TrafficReasons.OTEL_ATTRIBUTES_TOO_DEEP, "values nest at most "
          + TrafficOptions.MAX_OTEL_DEPTH + " levels deep");
      return Optional.empty();
    }
    Optional<Fields> values = value.object(given.get(0), OTEL_VALUES);
    if (values.isEmpty()) {
      return Optional.empty();
    }
    if (given.get(0).equals("kvlistValue")) {
      return Optional.of(new TrafficOptions.OtelValue.KvList(otelAttributes(values.get(), "values", depth + 1)));
    }
    List<TrafficOptions.OtelValue> items = new ArrayList<>();
    for (Fields.Element element : values.get().list("values", false).orElse(List.of())) {
      Fields.of(element.node(), element.path(), value.problems(), OTEL_VALUE)
          .flatMap(v -> otelValue(v, depth + 1)).ifPresent(items::add);
    }
    return Optional.of(new TrafficOptions.OtelValue.Array(items));
  }

  private static List<TrafficOptions.OriginMatcher> originMatchers(Fields csrf) {
    List<TrafficOptions.OriginMatcher> matchers = new ArrayList<>();
    for (Fields.Element element : csrf.list("additionalOriginMatchers", false).orElse(List.of())) {
      Fields.of(element.node(), element.path(), csrf.problems(), ORIGIN_MATCHER).ifPresent(m -> {
        List<String> given = TrafficOptions.MatchType.FIELDS.stream().filter(m::has).toList();
        if (given.size() != 1) {
          m.problem(m.path(), given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
              "give exactly one of exact, prefix, suffix or safeRegex" + (given.isEmpty() ? "" : ", not " + given));
          return;
        }
        TrafficOptions.MatchType type = TrafficOptions.MatchType.ofField(given.get(0));
        boolean ignoreCase = m.bool("ignoreCase").orElse(false);
        m.string(given.get(0)).ifPresent(value ->
            matchers.add(new TrafficOptions.OriginMatcher(type, value, ignoreCase)));
      });
    }
    return matchers;
  }

  private static Optional<TrafficOptions.LocalRateLimit> local(Fields fields) {
    Optional<Long> maxTokens = fields.required("maxTokens").flatMap(v -> fields.longInteger("maxTokens"));
    Optional<Long> perFill = fields.longInteger("tokensPerFill");
    Optional<Duration> interval = fields.required("fillInterval").flatMap(v -> fields.duration("fillInterval"));
    boolean headers = fields.bool("responseHeaders").orElse(false);
    return maxTokens.flatMap(max -> interval.map(i -> new TrafficOptions.LocalRateLimit(max, perFill, i, headers)));
  }

  /** Each descriptor is {@code {entries: [...]}}; every element is read so every problem is reported. */
  private static List<TrafficOptions.Descriptor> descriptors(List<Fields.Element> elements, List<Problem> problems) {
    List<TrafficOptions.Descriptor> out = new ArrayList<>();
    for (Fields.Element element : elements) {
      Fields.of(element.node(), element.path(), problems, DESCRIPTOR).flatMap(d -> d.list("entries", true))
          .ifPresent(entries -> {
            List<TrafficOptions.Entry> parsed = new ArrayList<>();
            for (Fields.Element entry : entries) {
              Fields.of(entry.node(), entry.path(), problems, ENTRY).flatMap(TrafficOptionsParser::entry)
                  .ifPresent(parsed::add);
            }
            out.add(new TrafficOptions.Descriptor(parsed));
          });
    }
    return out;
  }

  private static Optional<TrafficOptions.Entry> entry(Fields fields) {
    List<String> given = ENTRY_KINDS.stream().filter(fields::has).toList();
    if (given.size() != 1) {
      fields.problem(fields.path(), given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "a descriptor entry is one of " + String.join(", ", ENTRY_KINDS)
              + (given.isEmpty() ? "" : ", got " + String.join(" and ", given)));
      return Optional.empty();
    }
    return switch (given.get(0)) {
      case "remoteAddress" -> fields.object("remoteAddress", EMPTY).map(f -> new TrafficOptions.Entry.RemoteAddress());
      case "requestHeader" -> fields.object("requestHeader", REQUEST_HEADER).flatMap(f -> f.requiredString("header")
          .flatMap(h -> f.requiredString("key").map(k -> new TrafficOptions.Entry.RequestHeader(h, k))));
      case "genericKey" -> fields.object("genericKey", GENERIC_KEY).flatMap(f -> f.requiredString("key")
          .flatMap(k -> f.requiredString("value").map(v -> new TrafficOptions.Entry.GenericKey(k, v))));
      default -> fields.object("jwtClaim", JWT_CLAIM).flatMap(f -> f.requiredString("provider")
          .flatMap(p -> f.requiredString("claim").flatMap(c -> f.requiredString("key")
              .map(k -> new TrafficOptions.Entry.JwtClaim(p, c, k)))));
    };
  }
}
