package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A route's {@code options}, a VirtualService's {@code spec.options} and a match's {@code queryParameters}. Each
 * reader records every problem it finds (with the field's path) and returns empty if there was any, so a model
 * value exists only when all its parts parsed.
 */
final class RouteOptionsParser {

  private static final Set<String> OPTIONS = union(Set.of("headerManipulation", "hostRewrite", "autoHostRewrite",
      "appendXForwardedHost",
      "regexRewrite", "cors", "idleTimeout", "maxStreamDuration", "faults", "hashPolicies", "mirror",
      SecurityOptionsParser.FIELD), TrafficOptionsParser.ROUTE_FIELDS);
  private static final Set<String> VIRTUAL_HOST_OPTIONS = union(Set.of("headerManipulation", "cors", "retries",
      SecurityOptionsParser.FIELD), TrafficOptionsParser.ROUTE_FIELDS);
  private static final Set<String> HEADERS = Set.of("requestHeadersToAdd", "requestHeadersToRemove",
      "responseHeadersToAdd", "responseHeadersToRemove");
  private static final Set<String> HEADER_VALUE = Set.of("name", "value", "append");
  private static final Set<String> REGEX_REWRITE = Set.of("pattern", "substitution");
  private static final Set<String> CORS = Set.of("allowOrigin", "allowOriginRegex", "allowMethods",
      "allowHeaders", "exposeHeaders", "maxAge", "allowCredentials");
  private static final Set<String> FAULTS = Set.of("abort", "delay");
  private static final Set<String> ABORT = Set.of("percentage", "httpStatus", "grpcStatus");
  private static final Set<String> DELAY = Set.of("percentage", "fixedDelay");
  private static final List<String> HASH_KINDS = List.of("header", "cookie", "sourceIp");
  private static final Set<String> HASH = Set.of("header", "cookie", "sourceIp", "terminal");
  private static final Set<String> COOKIE = Set.of("name", "ttl", "path");
  private static final Set<String> MIRROR = Set.of("upstream", "namespace", "percentage");
  private static final Set<String> QUERY = Set.of("name", "exact", "regex", "present");
  private static final List<String> QUERY_KINDS = List.of("exact", "regex", "present");
  private static final double ALL = 100;

  private RouteOptionsParser() {
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    java.util.Set<String> both = new java.util.HashSet<>(a);
    both.addAll(b);
    return Set.copyOf(both);
  }

  /** The route's {@code options}, {@link RouteOptions#NONE} if absent, empty on any problem. */
  static Optional<RouteOptions> route(Fields route) {
    if (!route.has("options")) {
      return Optional.of(RouteOptions.NONE);
    }
    return route.object("options", OPTIONS).flatMap(fields -> {
      int before = fields.problems().size();
      Optional<RouteOptions.HeaderManipulation> headers =
          fields.object("headerManipulation", HEADERS).flatMap(RouteOptionsParser::headers);
      Optional<String> hostRewrite = fields.string("hostRewrite");
      boolean autoHostRewrite = fields.bool("autoHostRewrite").orElse(false);
      boolean appendXForwardedHost = fields.bool("appendXForwardedHost").orElse(false);
      Optional<RouteOptions.RegexRewrite> regexRewrite =
          fields.object("regexRewrite", REGEX_REWRITE).flatMap(RouteOptionsParser::regexRewrite);
      Optional<RouteOptions.Cors> cors = fields.object("cors", CORS).flatMap(RouteOptionsParser::cors);
      Optional<Duration> idleTimeout = fields.duration("idleTimeout");
      Optional<Duration> maxStreamDuration = fields.duration("maxStreamDuration");
      Optional<RouteOptions.Faults> faults = fields.object("faults", FAULTS).flatMap(RouteOptionsParser::faults);
      Optional<List<RouteOptions.HashPolicy>> hashPolicies = fields.has("hashPolicies")
          ? fields.list("hashPolicies", false).flatMap(e -> each(e, fields.problems(), HASH,
              RouteOptionsParser::hashPolicy))
          : Optional.of(List.of());
      Optional<RouteOptions.Mirror> mirror = fields.object("mirror", MIRROR).flatMap(RouteOptionsParser::mirror);
      Optional<SecurityOptions> security = SecurityOptionsParser.route(fields);
      Optional<TrafficOptions.Route> traffic = TrafficOptionsParser.route(fields);
      if (fields.problems().size() != before || hashPolicies.isEmpty() || security.isEmpty() || traffic.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new RouteOptions(headers, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout,
          maxStreamDuration, faults, hashPolicies.get(), mirror, security.get(), traffic.get(),
          appendXForwardedHost));
    });
  }

  /** The VirtualService's {@code spec.options}, {@link VirtualHostOptions#NONE} if absent. */
  static Optional<VirtualHostOptions> virtualHost(Fields spec) {
    if (!spec.has("options")) {
      return Optional.of(VirtualHostOptions.NONE);
    }
    return spec.object("options", VIRTUAL_HOST_OPTIONS).flatMap(fields -> {
      int before = fields.problems().size();
      Optional<RouteOptions.HeaderManipulation> headers =
          fields.object("headerManipulation", HEADERS).flatMap(RouteOptionsParser::headers);
      Optional<RouteOptions.Cors> cors = fields.object("cors", CORS).flatMap(RouteOptionsParser::cors);
      Optional<RetryPolicy> retries = fields.object("retries", VirtualServiceSpecParser.RETRIES)
          .flatMap(VirtualServiceSpecParser::retries);
      Optional<SecurityOptions> security = SecurityOptionsParser.virtualHost(fields);
      Optional<TrafficOptions.Route> traffic = TrafficOptionsParser.route(fields);
      if (fields.problems().size() != before || security.isEmpty() || traffic.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new VirtualHostOptions(headers, cors, retries, security.get(), traffic.get()));
    });
  }

  /** A match's {@code queryParameters}, an empty list if absent. */
  static Optional<List<QueryParameterMatch>> queryParameters(Fields match) {
    if (!match.has("queryParameters")) {
      return Optional.of(List.of());
    }
    return match.list("queryParameters", false)
        .flatMap(elements -> each(elements, match.problems(), QUERY, RouteOptionsParser::queryParameter));
  }

  private static Optional<QueryParameterMatch> queryParameter(Fields fields) {
    Optional<String> name = fields.requiredString("name");
    List<String> given = QUERY_KINDS.stream().filter(fields::has).toList();
    if (given.size() != 1) {
      fields.problem(fields.path(), given.isEmpty() ? Reasons.EMPTY_MATCHER : Reasons.CONFLICTING_MATCHER,
          given.isEmpty() ? "a query parameter matcher needs one of exact, regex, present"
              : "only one of exact, regex, present may be given, got " + String.join(" and ", given));
      return Optional.empty();
    }
    Optional<QueryParameterMatch.Condition> condition = switch (given.get(0)) {
      case "exact" -> fields.string("exact").map(QueryParameterMatch.Exact::new);
      case "regex" -> fields.string("regex").map(QueryParameterMatch.Regex::new);
      default -> fields.bool("present").map(QueryParameterMatch.Present::new);
    };
    return name.flatMap(n -> condition.map(c -> new QueryParameterMatch(n, c)));
  }

  private static Optional<RouteOptions.HeaderManipulation> headers(Fields fields) {
    int before = fields.problems().size();
    List<RouteOptions.HeaderValue> requestAdd = headerValues(fields, "requestHeadersToAdd");
    List<String> requestRemove = fields.stringList("requestHeadersToRemove", false).orElse(List.of());
    List<RouteOptions.HeaderValue> responseAdd = headerValues(fields, "responseHeadersToAdd");
    List<String> responseRemove = fields.stringList("responseHeadersToRemove", false).orElse(List.of());
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new RouteOptions.HeaderManipulation(requestAdd, requestRemove, responseAdd, responseRemove));
  }

  private static List<RouteOptions.HeaderValue> headerValues(Fields fields, String field) {
    return fields.list(field, false)
        .flatMap(elements -> each(elements, fields.problems(), HEADER_VALUE, RouteOptionsParser::headerValue))
        .orElse(List.of());
  }

  private static Optional<RouteOptions.HeaderValue> headerValue(Fields fields) {
    Optional<String> name = fields.requiredString("name");
    Optional<String> value = fields.requiredString("value");
    boolean hasAppend = fields.has("append");
    Optional<Boolean> append = fields.bool("append");
    if (hasAppend && append.isEmpty()) {
      return Optional.empty();
    }
    return name.flatMap(n -> value.map(v -> new RouteOptions.HeaderValue(n, v, append.orElse(true))));
  }

  private static Optional<RouteOptions.RegexRewrite> regexRewrite(Fields fields) {
    Optional<String> pattern = fields.requiredString("pattern");
    Optional<String> substitution = fields.requiredString("substitution");
    return pattern.flatMap(p -> substitution.map(s -> new RouteOptions.RegexRewrite(p, s)));
  }

  private static Optional<RouteOptions.Cors> cors(Fields fields) {
    int before = fields.problems().size();
    List<String> origins = fields.stringList("allowOrigin", false).orElse(List.of());
    List<String> originRegexes = fields.stringList("allowOriginRegex", false).orElse(List.of());
    List<String> methods = fields.stringList("allowMethods", false).orElse(List.of());
    List<String> headers = fields.stringList("allowHeaders", false).orElse(List.of());
    List<String> expose = fields.stringList("exposeHeaders", false).orElse(List.of());
    Optional<Duration> maxAge = fields.duration("maxAge");
    Optional<Boolean> credentials = fields.bool("allowCredentials");
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new RouteOptions.Cors(origins, originRegexes, methods, headers, expose, maxAge, credentials));
  }

  private static Optional<RouteOptions.Faults> faults(Fields fields) {
    int before = fields.problems().size();
    Optional<RouteOptions.Abort> abort = fields.object("abort", ABORT).flatMap(RouteOptionsParser::abort);
    Optional<RouteOptions.Delay> delay = fields.object("delay", DELAY).flatMap(RouteOptionsParser::delay);
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new RouteOptions.Faults(abort, delay));
  }

  private static Optional<RouteOptions.Abort> abort(Fields fields) {
    int before = fields.problems().size();
    if (fields.has("httpStatus") == fields.has("grpcStatus")) {
      fields.problem(fields.path(), fields.has("httpStatus") ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "an abort needs exactly one of httpStatus and grpcStatus");
    }
    Optional<Double> percentage = percentage(fields);
    Optional<Integer> httpStatus = fields.integer("httpStatus");
    Optional<Integer> grpcStatus = fields.integer("grpcStatus");
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return percentage.map(p -> new RouteOptions.Abort(p, httpStatus, grpcStatus));
  }

  private static Optional<RouteOptions.Delay> delay(Fields fields) {
    Optional<Double> percentage = percentage(fields);
    Optional<Duration> fixedDelay = fields.required("fixedDelay").flatMap(v -> fields.duration("fixedDelay"));
    return percentage.flatMap(p -> fixedDelay.map(d -> new RouteOptions.Delay(p, d)));
  }

  private static Optional<RouteOptions.HashPolicy> hashPolicy(Fields fields) {
    List<String> given = HASH_KINDS.stream().filter(fields::has).toList();
    if (given.size() != 1) {
      fields.problem(fields.path(), given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "a hash policy has exactly one of header, cookie, sourceIp"
              + (given.isEmpty() ? "" : ", got " + String.join(" and ", given)));
      return Optional.empty();
    }
    boolean hasTerminal = fields.has("terminal");
    Optional<Boolean> terminalValue = fields.bool("terminal");
    if (hasTerminal && terminalValue.isEmpty()) {
      return Optional.empty();
    }
    boolean terminal = terminalValue.orElse(false);
    return switch (given.get(0)) {
      case "header" -> fields.string("header").map(h -> new RouteOptions.HeaderHash(h, terminal));
      case "cookie" -> fields.object("cookie", COOKIE).flatMap(cookie -> {
        Optional<String> name = cookie.requiredString("name");
        boolean hasTtl = cookie.has("ttl");
        Optional<Duration> ttl = cookie.duration("ttl");
        boolean hasPath = cookie.has("path");
        Optional<String> path = cookie.string("path");
        if ((hasTtl && ttl.isEmpty()) || (hasPath && path.isEmpty())) {
          return Optional.empty();
        }
        return name.map(n -> new RouteOptions.CookieHash(n, ttl, path, terminal));
      });
      default -> fields.bool("sourceIp").flatMap(on -> {
        if (!on) {
          fields.problem(fields.path("sourceIp"), Reasons.INVALID_VALUE,
              "sourceIp: false hashes on nothing; remove the entry instead");
          return Optional.empty();
        }
        return Optional.of(new RouteOptions.SourceIpHash(terminal));
      });
    };
  }

  private static Optional<RouteOptions.Mirror> mirror(Fields fields) {
    Optional<ObjectRef> ref = ObjectRefs.read(fields, "upstream");
    boolean hasPercentage = fields.has("percentage");
    Optional<Double> percentage = hasPercentage ? percentage(fields) : Optional.of(ALL);
    return ref.flatMap(r -> percentage.map(p -> new RouteOptions.Mirror(r, p)));
  }

  /** A required {@code percentage} number; its range is for validation to judge. */
  private static Optional<Double> percentage(Fields fields) {
    return fields.required("percentage").flatMap(v -> {
      if (v.isNumber()) {
        return Optional.of(v.doubleValue());
      }
      fields.problem(fields.path("percentage"), Reasons.WRONG_TYPE,
          "expected a number (0-100), got " + Fields.describe(v));
      return Optional.empty();
    });
  }

  /** Parses every element with {@code parser}; empty if any element is wrong (all are still checked). */
  private static <T> Optional<List<T>> each(List<Fields.Element> elements, List<Problem> problems,
      Set<String> allowed, java.util.function.Function<Fields, Optional<T>> parser) {
    List<T> values = new ArrayList<>();
    boolean ok = true;
    for (Fields.Element element : elements) {
      Optional<T> value = Fields.of(element.node(), element.path(), problems, allowed).flatMap(parser);
      value.ifPresent(values::add);
      ok &= value.isPresent();
    }
    return ok ? Optional.of(values) : Optional.empty();
  }
}
