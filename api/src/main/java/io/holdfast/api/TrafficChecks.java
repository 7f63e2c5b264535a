package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of {@link TrafficOptions} that need no other object: ranges Envoy would refuse (so they are refused here
 * with a reason instead of NACKed by every proxy), bounds on lists, command operators of formats. References to
 * Upstreams are resolved by each front end. Shared by the Holdfast kinds and the Gateway API policies; pure.
 * Problems whose reason is {@link Reasons#FIELD_IGNORED} are warnings (the object is still served); the others are
 * errors.
 */
public final class TrafficChecks {

  /** The largest byte count Holdfast passes on (buffer limits, body limits, tokens): Envoy's fields hold more. */
  public static final long MAX_BYTES = Integer.MAX_VALUE;
  public static final long MAX_BUFFER_BYTES = MAX_BYTES;
  public static final long MAX_BODY_BYTES = MAX_BYTES;
  public static final long MAX_TOKENS = MAX_BYTES;
  /** More trusted proxies in front than any real chain has; a larger value trusts what the client wrote. */
  public static final long MAX_TRUSTED_HOPS = 16;
  /** Envoy's bounds of {@code max_request_headers_kb}. */
  public static final long MAX_HEADERS_KB = 8192;
  /** Envoy's bounds of HTTP/2 settings. */
  public static final long MIN_WINDOW = 65535;
  public static final long MAX_HTTP2_VALUE = Integer.MAX_VALUE;
  /** Characters of a health check path: a probe's path is short, and Envoy compares it on every request. */
  public static final int MAX_HEALTH_CHECK_PATH = 1024;
  /** Access logs per listener: each is work on every request. */
  public static final int MAX_ACCESS_LOGS = 16;
  /** Characters per format, and fields per JSON format: the operator check is linear in them. */
  public static final int MAX_FORMAT_LENGTH = 4096;
  public static final int MAX_JSON_FIELDS = 64;
  /** Request headers tagged per span: each is read on every traced request. */
  public static final int MAX_TRACING_TAGS = 32;
  /** Envoy's bounds of a percentage. */
  public static final double MAX_PERCENT = 100;
  /** OpenTelemetry attribute values (strings, lists, key-value lists) per log, counted at every level. */
  public static final int MAX_OTEL_VALUES = 64;
  /**
   * Most CSRF additional origins (exact ones and matchers together) on one route. Reason: Envoy tries each on
   * every mutating cross-origin request; real lists name a few sites.
   */
  public static final int MAX_CSRF_ORIGINS = 64;
  /** Envoy refuses a token bucket filled more often. */
  public static final Duration MIN_FILL_INTERVAL = Duration.ofMillis(50);
  /** Descriptors per route and entries per descriptor: each is evaluated on every request. */
  public static final int MAX_DESCRIPTORS = 16;
  public static final int MAX_ENTRIES = 8;
  /** The compression libraries java-control-plane 1.0.49 has protos for, by the name users write. */
  public static final List<String> COMPRESSION = List.of("brotli", "zstd", "gzip");

  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9a-z-]+");
  private static final Pattern CLAIM = Pattern.compile("[A-Za-z0-9_:/.-]+");

  private TrafficChecks() {
  }

  public static List<Problem> listener(TrafficOptions.Listener options, String at) {
    List<Problem> out = new ArrayList<>();
    options.perConnectionBufferLimitBytes().filter(b -> b < 1 || b > MAX_BUFFER_BYTES).ifPresent(b ->
        out.add(new Problem(at + ".perConnectionBufferLimitBytes", TrafficReasons.INVALID_BUFFER_LIMIT,
            b + " is not in 1-" + MAX_BUFFER_BYTES)));
    options.xffNumTrustedHops().filter(h -> h < 0 || h > MAX_TRUSTED_HOPS).ifPresent(h ->
        out.add(new Problem(at + ".xffNumTrustedHops", TrafficReasons.INVALID_TRUSTED_HOPS,
            h + " is not in 0-" + MAX_TRUSTED_HOPS)));
    options.maxRequestHeadersKb().filter(kb -> kb < 1 || kb > MAX_HEADERS_KB).ifPresent(kb ->
        out.add(new Problem(at + ".maxRequestHeadersKb", TrafficReasons.INVALID_HEADER_LIMIT,
            kb + " is not in Envoy's range 1-" + MAX_HEADERS_KB)));
    options.http2().ifPresent(http2 -> {
      range(http2.maxConcurrentStreams(), 1, at + ".http2.maxConcurrentStreams", out);
      range(http2.initialStreamWindowSize(), MIN_WINDOW, at + ".http2.initialStreamWindowSize", out);
      range(http2.initialConnectionWindowSize(), MIN_WINDOW, at + ".http2.initialConnectionWindowSize", out);
    });
    options.serverHeader().ifPresent(server -> serverHeader(server, at + ".serverHeader", out));
    if (options.accessLogs().size() > MAX_ACCESS_LOGS) {
      out.add(new Problem(at + ".accessLogs", TrafficReasons.TOO_MANY_ACCESS_LOGS, options.accessLogs().size()
          + " access logs; at most " + MAX_ACCESS_LOGS));
    } else {
      for (int i = 0; i < options.accessLogs().size(); i++) {
        accessLog(options.accessLogs().get(i), at + ".accessLogs[" + i + "]", out);
      }
    }
    options.healthCheck().map(TrafficOptions.HealthCheck::path).filter(path -> !path.startsWith("/")
        || path.length() > MAX_HEALTH_CHECK_PATH || !headerSafe(path)).ifPresent(path -> out.add(new Problem(
            at + ".healthCheck.path", TrafficReasons.INVALID_HEALTH_CHECK, "\"" + path + "\" is not a path starting"
            + " with / on one line, of at most " + MAX_HEALTH_CHECK_PATH + " characters")));
    options.rateLimitService().ifPresent(service -> {
      if (service.domain().isEmpty() || !headerSafe(service.domain())) {
        out.add(new Problem(at + ".rateLimitService.domain", TrafficReasons.INVALID_RATE_LIMIT_SERVICE,
            "the domain must be a non-empty single line"));
      }
      service.timeout().filter(t -> t.isZero() || t.isNegative()).ifPresent(t -> out.add(new Problem(
          at + ".rateLimitService.timeout", TrafficReasons.INVALID_RATE_LIMIT_SERVICE, "timeout must be positive")));
    });
    options.tracing().ifPresent(tracing -> tracing(tracing, at + ".tracing", out));
    options.extProc().ifPresent(extProc -> {
      processingMode(extProc.processingMode(), at + ".extProc.processingMode", out);
      extProc.messageTimeout().filter(t -> t.isZero() || t.isNegative()
          || t.compareTo(TrafficOptions.ExtProc.MAX_MESSAGE_TIMEOUT) > 0).ifPresent(t -> out.add(new Problem(
              at + ".extProc.messageTimeout", TrafficReasons.INVALID_EXT_PROC, "the message timeout must be"
              + " positive and at most Envoy's " + TrafficOptions.ExtProc.MAX_MESSAGE_TIMEOUT.toHours() + "h")));
      extProc.position().filter(p -> !TrafficOptions.ExtProc.POSITIONS.contains(p)).ifPresent(p -> out.add(
          new Problem(at + ".extProc.position", TrafficReasons.INVALID_EXT_PROC, "\"" + p + "\" is not one of "
              + TrafficOptions.ExtProc.POSITIONS)));
    });
    return out;
  }

  private static void processingMode(TrafficOptions.ProcessingMode mode, String at, List<Problem> out) {
    for (String field : TrafficOptions.ProcessingMode.HEADER_FIELDS) {
      mode.get(field).filter(v -> !TrafficOptions.ProcessingMode.HEADER_MODES.contains(v)).ifPresent(v -> out.add(
          new Problem(at + "." + field, TrafficReasons.INVALID_EXT_PROC, "\"" + v + "\" is not one of "
              + TrafficOptions.ProcessingMode.HEADER_MODES)));
    }
    for (String field : TrafficOptions.ProcessingMode.BODY_FIELDS) {
      mode.get(field).filter(v -> !TrafficOptions.ProcessingMode.BODY_MODES.contains(v)).ifPresent(v -> out.add(
          new Problem(at + "." + field, TrafficReasons.INVALID_EXT_PROC, "\"" + v + "\" is not one of "
              + TrafficOptions.ProcessingMode.BODY_MODES)));
    }
  }

  private static void tracing(TrafficOptions.Tracing tracing, String at, List<Problem> out) {
    tracing.serviceName().filter(n -> n.isEmpty() || !headerSafe(n)).ifPresent(n -> out.add(new Problem(
        at + ".openTelemetry.serviceName", TrafficReasons.INVALID_TRACING, "the service name must be a non-empty"
        + " single line")));
    tracing.authority().filter(a -> a.isEmpty() || !headerSafe(a)).ifPresent(a -> out.add(new Problem(
        at + ".openTelemetry.authority", TrafficReasons.INVALID_TRACING, "the authority must be a non-empty single"
        + " line")));
    percent(tracing.clientSampling(), at + ".sampling.client", out);
    percent(tracing.randomSampling(), at + ".sampling.random", out);
    percent(tracing.overallSampling(), at + ".sampling.overall", out);
    List<String> tags = tracing.requestHeaderTags();
    if (tags.size() > MAX_TRACING_TAGS) {
      out.add(new Problem(at + ".requestHeaderTags", TrafficReasons.INVALID_TRACING, tags.size()
          + " tags; at most " + MAX_TRACING_TAGS));
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < tags.size(); i++) {
      String header = tags.get(i);
      if (!HEADER_NAME.matcher(header).matches()) {
        out.add(new Problem(at + ".requestHeaderTags[" + i + "]", TrafficReasons.INVALID_TRACING, "\"" + header
            + "\" is not a lower-case header name"));
      } else if (!seen.add(header)) {
        out.add(new Problem(at + ".requestHeaderTags[" + i + "]", TrafficReasons.INVALID_TRACING, header
            + " is listed twice"));
      }
    }
  }

  private static void percent(Optional<Double> value, String field, List<Problem> out) {
    value.filter(p -> !(p >= 0 && p <= MAX_PERCENT)).ifPresent(p -> out.add(new Problem(field,
        TrafficReasons.INVALID_TRACING, p + " is not a percentage (0-100)")));
  }

  public static List<Problem> route(TrafficOptions.Route options, String at) {
    List<Problem> out = new ArrayList<>();
    options.extProc().flatMap(TrafficOptions.ExtProcRoute::processingMode)
        .ifPresent(mode -> processingMode(mode, at + ".extProc.processingMode", out));
    options.localRateLimit().ifPresent(local -> {
      String field = at + ".rateLimit.local";
      long perFill = local.tokensPerFill().orElse(local.maxTokens());
      if (local.maxTokens() <= 0) {
        out.add(new Problem(field + ".maxTokens", TrafficReasons.ZERO_RATE, "maxTokens " + local.maxTokens()
            + " lets no request through; give at least 1 (to block a route, use a direct response)"));
      } else if (local.maxTokens() > MAX_TOKENS) {
        out.add(new Problem(field + ".maxTokens", TrafficReasons.INVALID_RATE_LIMIT, "at most " + MAX_TOKENS));
      }
      if (local.tokensPerFill().isPresent() && perFill <= 0) {
        out.add(new Problem(field + ".tokensPerFill", TrafficReasons.ZERO_RATE, "tokensPerFill " + perFill
            + " never refills the bucket; give at least 1"));
      } else if (local.tokensPerFill().isPresent() && perFill > MAX_TOKENS) {
        out.add(new Problem(field + ".tokensPerFill", TrafficReasons.INVALID_RATE_LIMIT, "at most " + MAX_TOKENS));
      }
      if (local.fillInterval().compareTo(MIN_FILL_INTERVAL) < 0) {
        out.add(new Problem(field + ".fillInterval", TrafficReasons.FILL_INTERVAL_TOO_SHORT, "fillInterval "
            + local.fillInterval().toMillis() + "ms is under Envoy's minimum of " + MIN_FILL_INTERVAL.toMillis()
            + "ms"));
      }
    });
    options.rateLimits().ifPresent(descriptors -> descriptors(descriptors, at + ".rateLimit.descriptors", out));
    options.compression().ifPresent(algorithms -> {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < algorithms.size(); i++) {
        String name = algorithms.get(i).toLowerCase(Locale.ROOT);
        String field = at + ".compression[" + i + "]";
        if (!COMPRESSION.contains(name)) {
          out.add(new Problem(field, TrafficReasons.UNSUPPORTED_COMPRESSION, "\"" + algorithms.get(i)
              + "\" is not one of " + String.join(", ", COMPRESSION)));
        } else if (!seen.add(name)) {
          out.add(new Problem(field, TrafficReasons.DUPLICATE_COMPRESSION, name + " is listed twice"));
        }
      }
    });
    options.csrf().ifPresent(csrf -> csrf(csrf, at + ".csrf", out));
    options.maxRequestBodyBytes().filter(b -> b < 1 || b > MAX_BODY_BYTES).ifPresent(b -> out.add(new Problem(
        at + ".maxRequestBodyBytes", TrafficReasons.INVALID_BODY_LIMIT, b + " is not in 1-" + MAX_BODY_BYTES)));
    return out;
  }

  /** Where an access log's or the rate-limit service's Upstream is referenced, with its field. */
  public record UpstreamUse(ObjectRef upstream, String field, String notFoundReason) {
  }

  /** The Upstreams {@code options} references, for the front end to resolve. */
  public static List<UpstreamUse> upstreams(TrafficOptions.Listener options, String at) {
    List<UpstreamUse> uses = new ArrayList<>();
    for (int i = 0; i < Math.min(options.accessLogs().size(), MAX_ACCESS_LOGS); i++) {
      TrafficOptions.Sink sink = options.accessLogs().get(i).sink();
      String field = at + ".accessLogs[" + i + "]";
      if (sink instanceof TrafficOptions.Sink.Grpc grpc) {
        uses.add(new UpstreamUse(grpc.upstream(), field + ".grpc.upstream",
            TrafficReasons.ACCESS_LOG_UPSTREAM_NOT_FOUND));
      } else if (sink instanceof TrafficOptions.Sink.OpenTelemetry otel) {
        uses.add(new UpstreamUse(otel.upstream(), field + ".openTelemetry.upstream",
            TrafficReasons.ACCESS_LOG_UPSTREAM_NOT_FOUND));
      }
    }
    options.rateLimitService().ifPresent(service -> uses.add(new UpstreamUse(service.upstream(),
        at + ".rateLimitService.upstream", TrafficReasons.RATE_LIMIT_SERVICE_NOT_FOUND)));
    options.tracing().ifPresent(tracing -> uses.add(new UpstreamUse(tracing.upstream(),
        at + ".tracing.openTelemetry.upstream", TrafficReasons.TRACING_UPSTREAM_NOT_FOUND)));
    options.extProc().ifPresent(extProc -> uses.add(new UpstreamUse(extProc.upstream(),
        at + ".extProc.upstream", TrafficReasons.EXT_PROC_SERVICE_NOT_FOUND)));
    return uses;
  }

  private static void descriptors(List<TrafficOptions.Descriptor> descriptors, String at, List<Problem> out) {
    if (descriptors.size() > MAX_DESCRIPTORS) {
      out.add(new Problem(at, TrafficReasons.TOO_MANY_DESCRIPTORS, descriptors.size() + " descriptors; at most "
          + MAX_DESCRIPTORS));
      return;
    }
    for (int i = 0; i < descriptors.size(); i++) {
      List<TrafficOptions.Entry> entries = descriptors.get(i).entries();
      String field = at + "[" + i + "].entries";
      if (entries.isEmpty()) {
        out.add(new Problem(field, TrafficReasons.INVALID_DESCRIPTOR, "a descriptor needs at least one entry"));
      } else if (entries.size() > MAX_ENTRIES) {
        out.add(new Problem(field, TrafficReasons.TOO_MANY_DESCRIPTORS, entries.size() + " entries; at most "
            + MAX_ENTRIES));
        continue;
      }
      for (int j = 0; j < entries.size(); j++) {
        entry(entries.get(j), field + "[" + j + "]", out);
      }
    }
  }

  private static void entry(TrafficOptions.Entry entry, String at, List<Problem> out) {
    if (entry instanceof TrafficOptions.Entry.RequestHeader header) {
      if (!HEADER_NAME.matcher(header.header()).matches()) {
        out.add(new Problem(at + ".requestHeader.header", TrafficReasons.INVALID_DESCRIPTOR, "\"" + header.header()
            + "\" is not a lower-case header name"));
      }
      descriptorKey(header.key(), at + ".requestHeader.key", out);
    } else if (entry instanceof TrafficOptions.Entry.GenericKey generic) {
      descriptorKey(generic.key(), at + ".genericKey.key", out);
      if (generic.value().isEmpty() || !headerSafe(generic.value())) {
        out.add(new Problem(at + ".genericKey.value", TrafficReasons.INVALID_DESCRIPTOR,
            "the value must be a non-empty single line"));
      }
    } else if (entry instanceof TrafficOptions.Entry.JwtClaim claim) {
      if (!CLAIM.matcher(claim.provider()).matches()) {
        out.add(new Problem(at + ".jwtClaim.provider", TrafficReasons.INVALID_DESCRIPTOR,
            "\"" + claim.provider() + "\" is not a JWT provider name"));
      }
      if (!CLAIM.matcher(claim.claim()).matches() || claim.claim().startsWith(".") || claim.claim().endsWith(".")
          || claim.claim().contains("..")) {
        out.add(new Problem(at + ".jwtClaim.claim", TrafficReasons.INVALID_DESCRIPTOR, "\"" + claim.claim()
            + "\" is not a claim name (dots separate nested claims)"));
      }
      descriptorKey(claim.key(), at + ".jwtClaim.key", out);
    }
  }

  private static void descriptorKey(String key, String field, List<Problem> out) {
    if (key.isEmpty() || !headerSafe(key)) {
      out.add(new Problem(field, TrafficReasons.INVALID_DESCRIPTOR, "the key must be a non-empty single line"));
    }
  }

  private static void serverHeader(TrafficOptions.ServerHeader server, String at, List<Problem> out) {
    String mode = server.mode().orElse(server.name().isPresent() ? TrafficOptions.ServerHeader.OVERWRITE : "");
    switch (mode) {
      case TrafficOptions.ServerHeader.OVERWRITE -> {
        if (server.name().isEmpty() || server.name().get().isEmpty() || !headerSafe(server.name().get())) {
          out.add(new Problem(at + ".name", TrafficReasons.INVALID_SERVER_HEADER,
              "Overwrite needs a name: a non-empty single line"));
        }
      }
      case TrafficOptions.ServerHeader.PASS_THROUGH, TrafficOptions.ServerHeader.STRIP -> {
        if (server.name().isPresent()) {
          out.add(new Problem(at + ".name", TrafficReasons.INVALID_SERVER_HEADER, mode + " takes no name"));
        }
      }
      default -> out.add(new Problem(at + ".mode", TrafficReasons.INVALID_SERVER_HEADER, mode.isEmpty()
          ? "give a mode (Overwrite, PassThrough, Strip) or a name"
          : "\"" + mode + "\" is not one of Overwrite, PassThrough, Strip"));
    }
  }

  private static void accessLog(TrafficOptions.AccessLog log, String at, List<Problem> out) {
    TrafficOptions.Sink sink = log.sink();
    if (sink instanceof TrafficOptions.Sink.File file && (!file.path().startsWith("/") || !headerSafe(file.path()))) {
      out.add(new Problem(at + ".file.path", TrafficReasons.INVALID_ACCESS_LOG,
          "\"" + file.path() + "\" is not an absolute path"));
    }
    String logName = sink instanceof TrafficOptions.Sink.Grpc grpc ? grpc.logName()
        : sink instanceof TrafficOptions.Sink.OpenTelemetry otel ? otel.logName() : null;
    if (logName != null && (logName.isEmpty() || !headerSafe(logName))) {
      out.add(new Problem(at + ".logName", TrafficReasons.INVALID_ACCESS_LOG,
          "the log name must be a non-empty single line"));
    }
    if (sink instanceof TrafficOptions.Sink.OpenTelemetry otel) {
      otel.authority().filter(a -> a.isEmpty() || !headerSafe(a)).ifPresent(a -> out.add(new Problem(
          at + ".openTelemetry.authority", TrafficReasons.INVALID_ACCESS_LOG, "the authority must be a non-empty"
          + " single line")));
      otelAttributes(otel.attributes(), log.json().keySet(), at + ".openTelemetry.attributes", out);
    }
    log.text().ifPresent(text -> format(text, at + ".format.text", out));
    if (log.json().size() > MAX_JSON_FIELDS) {
      out.add(new Problem(at + ".format.json", TrafficReasons.FORMAT_TOO_LONG, log.json().size()
          + " fields; at most " + MAX_JSON_FIELDS));
    } else {
      for (Map.Entry<String, String> field : log.json().entrySet()) {
        format(field.getValue(), at + ".format.json." + field.getKey(), out);
      }
    }
    if (sink instanceof TrafficOptions.Sink.Grpc && (log.text().isPresent() || !log.json().isEmpty())) {
      out.add(new Problem(at + ".format", Reasons.FIELD_IGNORED,
          "the gRPC access log service sends structured entries; a format does not apply"));
    }
    TrafficOptions.LogFilter filter = log.filter();
    status(filter.minStatus(), at + ".filter.minStatus", out);
    status(filter.maxStatus(), at + ".filter.maxStatus", out);
    if (filter.minStatus().isPresent() && filter.maxStatus().isPresent()
        && filter.minStatus().get() > filter.maxStatus().get()) {
      out.add(new Problem(at + ".filter", TrafficReasons.INVALID_ACCESS_LOG_FILTER,
          "minStatus is above maxStatus: no request would be logged"));
    }
    filter.minDuration().filter(Duration::isNegative).ifPresent(d -> out.add(new Problem(at + ".filter.minDuration",
        TrafficReasons.INVALID_ACCESS_LOG_FILTER, "must not be negative")));
  }

  private static void otelAttributes(List<TrafficOptions.OtelAttribute> attributes, Set<String> jsonFields,
      String at, List<Problem> out) {
    int[] values = {0};
    otelKeyValues(attributes, at, 1, values, out);
    if (values[0] > MAX_OTEL_VALUES) {
      out.add(new Problem(at, TrafficReasons.FORMAT_TOO_LONG, values[0] + " values; at most " + MAX_OTEL_VALUES));
    }
    for (int i = 0; i < attributes.size(); i++) {
      if (jsonFields.contains(attributes.get(i).key())) {
        out.add(new Problem(at + "[" + i + "].key", TrafficReasons.INVALID_ACCESS_LOG, "\"" + attributes.get(i).key()
            + "\" is also a field of the JSON format, which OpenTelemetry sends as attributes too"));
      }
    }
  }

  /** Depth is bounded by the parsers ({@link TrafficOptions#MAX_OTEL_DEPTH}); checked again so no input recurses. */
  private static void otelKeyValues(List<TrafficOptions.OtelAttribute> attributes, String at, int depth,
      int[] values, List<Problem> out) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < attributes.size(); i++) {
      TrafficOptions.OtelAttribute attribute = attributes.get(i);
      String field = at + "[" + i + "]";
      if (attribute.key().isEmpty() || !headerSafe(attribute.key())) {
        out.add(new Problem(field + ".key", TrafficReasons.INVALID_ACCESS_LOG, "a key is a non-empty single line"));
      } else if (!seen.add(attribute.key())) {
        out.add(new Problem(field + ".key", TrafficReasons.INVALID_ACCESS_LOG, "\"" + attribute.key()
            + "\" is given twice"));
      }
      otelValue(attribute.value(), field + ".value", depth, values, out);
    }
  }

  private static void otelValue(TrafficOptions.OtelValue value, String at, int depth, int[] values,
      List<Problem> out) {
    values[0]++;
    if (value instanceof TrafficOptions.OtelValue.Text text) {
      format(text.value(), at + ".stringValue", out);
      return;
    }
    if (depth >= TrafficOptions.MAX_OTEL_DEPTH) {
      out.add(new Problem(at, TrafficReasons.OTEL_ATTRIBUTES_TOO_DEEP, "values nest at most "
          + TrafficOptions.MAX_OTEL_DEPTH + " levels deep"));
      return;
    }
    if (value instanceof TrafficOptions.OtelValue.KvList list) {
      otelKeyValues(list.values(), at + ".kvlistValue.values", depth + 1, values, out);
    } else if (value instanceof TrafficOptions.OtelValue.Array array) {
      for (int i = 0; i < array.values().size(); i++) {
        otelValue(array.values().get(i), at + ".arrayValue.values[" + i + "]", depth + 1, values, out);
      }
    }
  }

  private static void format(String format, String field, List<Problem> out) {
    if (format.length() > MAX_FORMAT_LENGTH) {
      out.add(new Problem(field, TrafficReasons.FORMAT_TOO_LONG, format.length() + " characters; at most "
          + MAX_FORMAT_LENGTH));
      return;
    }
    CommandOperators.check(format, field).ifPresent(out::add);
  }

  private static void status(Optional<Long> status, String field, List<Problem> out) {
    status.filter(s -> s < 100 || s > 599).ifPresent(s -> out.add(new Problem(field,
        TrafficReasons.INVALID_ACCESS_LOG_FILTER, s + " is not an HTTP status (100-599)")));
  }

  private static void range(Optional<Long> value, long min, String field, List<Problem> out) {
    value.filter(v -> v < min || v > MAX_HTTP2_VALUE).ifPresent(v -> out.add(new Problem(field,
        TrafficReasons.INVALID_HTTP2_SETTING, v + " is not in Envoy's range " + min + "-" + MAX_HTTP2_VALUE)));
  }

  private static void csrf(TrafficOptions.Csrf csrf, String at, List<Problem> out) {
    int count = csrf.additionalOrigins().size() + csrf.additionalOriginMatchers().size();
    if (count > MAX_CSRF_ORIGINS) {
      out.add(new Problem(at, TrafficReasons.INVALID_CSRF_ORIGIN, count + " additional origins; at most "
          + MAX_CSRF_ORIGINS));
      return;
    }
    for (int i = 0; i < csrf.additionalOrigins().size(); i++) {
      csrfOrigin(TrafficOptions.MatchType.EXACT, csrf.additionalOrigins().get(i),
          at + ".additionalOrigins[" + i + "]", out);
    }
    for (int i = 0; i < csrf.additionalOriginMatchers().size(); i++) {
      TrafficOptions.OriginMatcher matcher = csrf.additionalOriginMatchers().get(i);
      csrfOrigin(matcher.type(), matcher.value(), at + ".additionalOriginMatchers[" + i + "]", out);
    }
  }

  /**
   * Envoy's CSRF filter compares origins with the host[:port] of the request's {@code Origin} (the scheme
   * dropped): a value with a scheme never matches, so it is refused rather than served as a dead entry.
   */
  private static void csrfOrigin(TrafficOptions.MatchType type, String value, String field, List<Problem> out) {
    if (value.isEmpty() || !headerSafe(value)) {
      out.add(new Problem(field, TrafficReasons.INVALID_CSRF_ORIGIN, "an origin is a non-empty single line,"
          + " e.g. app.example.com"));
      return;
    }
    if (type == TrafficOptions.MatchType.SAFE_REGEX) {
      Re2Check.refusal(value, InputLimits.DEFAULTS).ifPresent(r -> out.add(new Problem(field, r.reason(),
          r.message())));
      return;
    }
    if (value.contains("://")) {
      out.add(new Problem(field, TrafficReasons.CSRF_ORIGIN_WITH_SCHEME, "\"" + value + "\" never matches: Envoy"
          + " compares the Origin's host[:port] without its scheme; write \"" + value.substring(
          value.indexOf("://") + 3) + "\""));
    } else if (value.indexOf('/') >= 0) {
      out.add(new Problem(field, TrafficReasons.INVALID_CSRF_ORIGIN, "\"" + value + "\" never matches: Envoy"
          + " compares the Origin's host[:port], which has no path"));
    }
  }

  private static boolean headerSafe(String value) {
    return value.indexOf('\n') < 0 && value.indexOf('\r') < 0 && value.indexOf(0) < 0;
  }
}
