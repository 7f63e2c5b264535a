package io.holdfast.frontend.holdfast;

import io.holdfast.api.LoadBalancing;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.QueryParameterMatch;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.RouteOptions;
import io.holdfast.api.Upstream;
import io.holdfast.api.VirtualHostOptions;
import io.holdfast.api.Re2Check;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rules of route {@code options}, VirtualService {@code spec.options} and query-parameter matchers: what Envoy
 * would reject (so it is rejected here with a reason, and the last good version keeps serving) and what would be
 * silently ignored (a warning).
 */
final class RouteOptionsRules {

  /** Envoy's limit on one header value (HeaderValue.value max_bytes). */
  static final int MAX_HEADER_VALUE_BYTES = 16384;
  /** gRPC status codes are 0 (OK) to 16 (UNAUTHENTICATED). */
  static final int MAX_GRPC_STATUS = 16;
  private static final Pattern BACKREFERENCE = Pattern.compile("\\\\(\\d+)");
  private static final Pattern COOKIE_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private RouteOptionsRules() {
  }

  /**
   * @param usesOptions a forwarding route, or a delegating one (it hands its options down): the forwarding options
   *                    are not ignored
   */
  static void check(Route route, String field, boolean usesOptions, Ledger.Sink sink) {
    List<QueryParameterMatch> query = route.match().queryParameters();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < query.size(); i++) {
      checkQueryParameter(query.get(i), field + ".match.queryParameters[" + i + "]", names, sink);
    }
    RouteOptions options = route.options();
    String at = field + ".options";
    options.headerManipulation().ifPresent(h -> checkHeaders(h, at + ".headerManipulation", sink));
    options.cors().ifPresent(c -> checkCors(c, at + ".cors", sink));
    if (options.appendXForwardedHost() && options.hostRewrite().isEmpty() && !options.autoHostRewrite()) {
      sink.warn(at + ".appendXForwardedHost", Reasons.FIELD_IGNORED, "x-forwarded-host is added only when the Host"
          + " header is rewritten (hostRewrite or autoHostRewrite)");
    }
    if (options.hostRewrite().isPresent() && options.autoHostRewrite()) {
      sink.error(at + ".autoHostRewrite", Reasons.CONFLICTING_FIELDS, "give either hostRewrite or autoHostRewrite");
    }
    options.hostRewrite().ifPresent(host -> {
      if (host.isEmpty()) {
        sink.error(at + ".hostRewrite", Reasons.INVALID_VALUE, "hostRewrite must not be empty");
      }
      RouteRules.headerSafe(host, at + ".hostRewrite", sink);
    });
    options.regexRewrite().ifPresent(rewrite -> {
      if (route.prefixRewrite().isPresent()) {
        sink.error(at + ".regexRewrite", Reasons.CONFLICTING_FIELDS,
            "give either prefixRewrite or options.regexRewrite: a route rewrites its path one way");
      }
      checkRegexRewrite(rewrite, at + ".regexRewrite", sink);
    });
    nonNegative(options.idleTimeout(), at + ".idleTimeout", sink);
    nonNegative(options.maxStreamDuration(), at + ".maxStreamDuration", sink);
    options.faults().ifPresent(f -> checkFaults(f, at + ".faults", sink));
    for (int i = 0; i < options.hashPolicies().size(); i++) {
      checkHashPolicy(options.hashPolicies().get(i), at + ".hashPolicies[" + i + "]", sink);
    }
    TrafficRules.checkRoute(options.traffic(), at, sink);
    options.mirror().ifPresent(mirror -> {
      MetadataRules.checkRef(mirror.upstream(), at + ".mirror.upstream", at + ".mirror.namespace", sink);
      checkPercentage(mirror.percentage(), at + ".mirror.percentage", sink);
    });
    if (!usesOptions) {
      warnIgnored(options.hostRewrite().isPresent(), at + ".hostRewrite", sink);
      warnIgnored(options.autoHostRewrite(), at + ".autoHostRewrite", sink);
      warnIgnored(options.appendXForwardedHost(), at + ".appendXForwardedHost", sink);
      warnIgnored(options.regexRewrite().isPresent(), at + ".regexRewrite", sink);
      warnIgnored(options.idleTimeout().isPresent(), at + ".idleTimeout", sink);
      warnIgnored(options.maxStreamDuration().isPresent(), at + ".maxStreamDuration", sink);
      warnIgnored(options.faults().isPresent(), at + ".faults", sink);
      warnIgnored(!options.hashPolicies().isEmpty(), at + ".hashPolicies", sink);
      warnIgnored(options.mirror().isPresent(), at + ".mirror", sink);
    }
  }

  /** {@code spec.options}: the defaults every route inherits. */
  static void check(VirtualHostOptions options, Ledger.Sink sink) {
    options.headerManipulation().ifPresent(h -> checkHeaders(h, "spec.options.headerManipulation", sink));
    options.cors().ifPresent(c -> checkCors(c, "spec.options.cors", sink));
    options.retries().ifPresent(r -> RouteRules.checkRetries(r, "spec.options.retries", sink));
    TrafficRules.checkRoute(options.traffic(), "spec.options", sink);
  }

  /**
   * References of the route options of a VirtualService or RouteTable ({@code owner}): a mirror's upstream must
   * exist and be served, and hash policies only mean something to upstreams that hash.
   */
  static void checkReferences(ResourceKey owner, String namespace, List<Route> routes,
      Map<ResourceKey, Upstream> upstreams, Ledger ledger, Consent consent) {
    for (int i = 0; i < routes.size(); i++) {
      Route route = routes.get(i);
      String at = "spec.routes[" + i + "].options";
      route.options().mirror().map(RouteOptions.Mirror::upstream).filter(RouteOptionsRules::isWellFormed)
          .ifPresent(ref -> {
            ResourceKey target = ref.resolve(ResourceKey.UPSTREAM, namespace);
            if (!ConsentRules.reference(owner, target, at + ".mirror.upstream", consent, ledger)) {
              return;
            }
            if (!ledger.isKnown(target)) {
              ledger.error(owner, at + ".mirror.upstream", Reasons.UPSTREAM_NOT_FOUND, target + " does not exist");
            } else if (ledger.isRejected(target)) {
              ledger.error(owner, at + ".mirror.upstream", Reasons.UPSTREAM_REJECTED,
                  target + " is rejected; see its status");
            }
          });
      if (route.options().hashPolicies().isEmpty()) {
        continue;
      }
      for (ObjectRef ref : route.action().upstreams()) {
        Upstream upstream = upstreams.get(ref.resolve(ResourceKey.UPSTREAM, namespace));
        if (upstream != null && upstream.loadBalancing() != LoadBalancing.RING_HASH) {
          ledger.warn(owner, at + ".hashPolicies", Reasons.FIELD_IGNORED, "upstream " + upstream.key()
              + " balances with " + upstream.loadBalancing() + ", which hashes nothing; use RING_HASH");
          break;
        }
      }
    }
  }

  private static boolean isWellFormed(ObjectRef ref) {
    return Syntax.isObjectName(ref.name()) && ref.namespace().map(Syntax::isNamespace).orElse(true);
  }

  private static void checkQueryParameter(QueryParameterMatch match, String field, Set<String> names,
      Ledger.Sink sink) {
    if (match.name().isEmpty()) {
      sink.error(field + ".name", Reasons.INVALID_VALUE, "query parameter name must not be empty");
    } else if (!names.add(match.name())) {
      sink.error(field + ".name", Reasons.CONFLICTING_MATCHER,
          "query parameter " + match.name() + " is matched twice; combine the conditions into one matcher");
    }
    if (match.condition() instanceof QueryParameterMatch.Regex regex) {
      RouteRules.regexError(regex.value(), field + ".regex", sink);
    } else if (match.condition() instanceof QueryParameterMatch.Present present && !present.present()) {
      sink.error(field + ".present", Reasons.INVALID_VALUE,
          "present: false is not supported: Envoy can only match a parameter that is there");
    }
  }

  private static void checkHeaders(RouteOptions.HeaderManipulation headers, String field, Ledger.Sink sink) {
    checkAdds(headers.requestHeadersToAdd(), field + ".requestHeadersToAdd", sink);
    checkRemoves(headers.requestHeadersToRemove(), field + ".requestHeadersToRemove", sink);
    checkAdds(headers.responseHeadersToAdd(), field + ".responseHeadersToAdd", sink);
    checkRemoves(headers.responseHeadersToRemove(), field + ".responseHeadersToRemove", sink);
  }

  private static void checkAdds(List<RouteOptions.HeaderValue> adds, String field, Ledger.Sink sink) {
    for (int i = 0; i < adds.size(); i++) {
      RouteOptions.HeaderValue header = adds.get(i);
      String at = field + "[" + i + "]";
      checkMutableName(header.name(), at + ".name", sink);
      RouteRules.headerSafe(header.value(), at + ".value", sink);
      if (header.value().getBytes(StandardCharsets.UTF_8).length > MAX_HEADER_VALUE_BYTES) {
        sink.error(at + ".value", Reasons.INVALID_HEADER_MUTATION,
            "value is longer than " + MAX_HEADER_VALUE_BYTES + " bytes, Envoy's limit");
      }
    }
  }

  private static void checkRemoves(List<String> names, String field, Ledger.Sink sink) {
    for (int i = 0; i < names.size(); i++) {
      checkMutableName(names.get(i), field + "[" + i + "]", sink);
    }
  }

  /** Envoy refuses route header mutations of pseudo-headers and Host (its isModifiableHeader). */
  private static void checkMutableName(String name, String field, Ledger.Sink sink) {
    if (!Syntax.isHeaderName(name)) {
      sink.error(field, Reasons.INVALID_HEADER_NAME, "\"" + name + "\" is not a header name");
    } else if (name.startsWith(":") || name.equalsIgnoreCase("host")) {
      sink.error(field, Reasons.INVALID_HEADER_MUTATION, "routes may not add or remove " + name
          + " (Envoy refuses mutating pseudo-headers and Host; to change the host use hostRewrite)");
    }
  }

  private static void checkRegexRewrite(RouteOptions.RegexRewrite rewrite, String field, Ledger.Sink sink) {
    Optional<Re2Check.Refusal> refusal = Re2Syntax.refusal(rewrite.pattern(), sink.limits());
    if (refusal.isPresent()) {
      sink.error(field + ".pattern", refusal.get().reason(), refusal.get().message());
    } else {
      int groups = com.google.re2j.Pattern.compile(rewrite.pattern()).groupCount();
      Matcher refs = BACKREFERENCE.matcher(rewrite.substitution());
      while (refs.find()) {
        if (Integer.parseInt(refs.group(1)) > groups) {
          sink.error(field + ".substitution", Reasons.INVALID_VALUE, "\\" + refs.group(1)
              + " refers to a group the pattern does not have (it has " + groups + ")");
          break;
        }
      }
    }
    RouteRules.headerSafe(rewrite.substitution(), field + ".substitution", sink);
  }

  private static void checkCors(RouteOptions.Cors cors, String field, Ledger.Sink sink) {
    if (cors.allowOrigin().isEmpty() && cors.allowOriginRegex().isEmpty()) {
      sink.error(field, Reasons.INVALID_CORS_POLICY,
          "a CORS policy needs allowOrigin or allowOriginRegex, otherwise it allows no origin");
    }
    for (int i = 0; i < cors.allowOrigin().size(); i++) {
      String origin = cors.allowOrigin().get(i);
      if (origin.isEmpty()) {
        sink.error(field + ".allowOrigin[" + i + "]", Reasons.INVALID_CORS_POLICY, "origin must not be empty");
      }
      RouteRules.headerSafe(origin, field + ".allowOrigin[" + i + "]", sink);
    }
    for (int i = 0; i < cors.allowOriginRegex().size(); i++) {
      RouteRules.regexError(cors.allowOriginRegex().get(i), field + ".allowOriginRegex[" + i + "]", sink);
    }
    tokens(cors.allowMethods(), field + ".allowMethods", "an HTTP method", sink);
    tokens(cors.allowHeaders(), field + ".allowHeaders", "a header name", sink);
    tokens(cors.exposeHeaders(), field + ".exposeHeaders", "a header name", sink);
    cors.maxAge().filter(age -> age.isNegative() || age.getNano() != 0).ifPresent(age ->
        sink.error(field + ".maxAge", Reasons.INVALID_CORS_POLICY, "maxAge must be whole seconds, e.g. 10m"));
  }

  /** CORS lists become comma-separated header values: each entry is a token, or {@code *}. */
  private static void tokens(List<String> values, String field, String what, Ledger.Sink sink) {
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      if (!value.equals("*") && (!Syntax.isHeaderName(value) || value.startsWith(":"))) {
        sink.error(field + "[" + i + "]", Reasons.INVALID_CORS_POLICY, "\"" + value + "\" is not " + what);
      }
    }
  }

  private static void checkFaults(RouteOptions.Faults faults, String field, Ledger.Sink sink) {
    if (faults.abort().isEmpty() && faults.delay().isEmpty()) {
      sink.error(field, Reasons.INVALID_FAULT, "faults needs an abort, a delay or both");
    }
    faults.abort().ifPresent(abort -> {
      checkPercentage(abort.percentage(), field + ".abort.percentage", sink);
      abort.httpStatus().filter(code -> code < 200 || code > 599).ifPresent(code ->
          sink.error(field + ".abort.httpStatus", Reasons.INVALID_FAULT, "httpStatus " + code + " is not in 200-599"));
      abort.grpcStatus().filter(code -> code < 1 || code > MAX_GRPC_STATUS).ifPresent(code ->
          sink.error(field + ".abort.grpcStatus", Reasons.INVALID_FAULT, "grpcStatus " + code
              + " is not a gRPC error code (1-" + MAX_GRPC_STATUS + ", e.g. 14 for UNAVAILABLE)"));
    });
    faults.delay().ifPresent(delay -> {
      checkPercentage(delay.percentage(), field + ".delay.percentage", sink);
      if (delay.fixedDelay().isZero() || delay.fixedDelay().isNegative()) {
        sink.error(field + ".delay.fixedDelay", Reasons.INVALID_DURATION, "fixedDelay must be greater than 0");
      }
    });
  }

  private static void checkHashPolicy(RouteOptions.HashPolicy policy, String field, Ledger.Sink sink) {
    if (policy instanceof RouteOptions.HeaderHash header && !Syntax.isHeaderName(header.header())) {
      sink.error(field + ".header", Reasons.INVALID_HEADER_NAME, "\"" + header.header() + "\" is not a header name");
    } else if (policy instanceof RouteOptions.CookieHash cookie) {
      if (!COOKIE_NAME.matcher(cookie.name()).matches()) {
        sink.error(field + ".cookie.name", Reasons.INVALID_VALUE, "\"" + cookie.name() + "\" is not a cookie name");
      }
      cookie.path().ifPresent(path -> RouteRules.headerSafe(path, field + ".cookie.path", sink));
      cookie.ttl().filter(Duration::isNegative).ifPresent(ttl ->
          sink.error(field + ".cookie.ttl", Reasons.INVALID_DURATION, "ttl must not be negative"));
    }
  }

  private static void checkPercentage(double percentage, String field, Ledger.Sink sink) {
    if (!(percentage >= 0 && percentage <= 100)) {
      sink.error(field, Reasons.INVALID_PERCENTAGE, "percentage " + percentage + " is not in 0-100");
    }
  }

  private static void nonNegative(Optional<Duration> duration, String field, Ledger.Sink sink) {
    duration.filter(Duration::isNegative).ifPresent(d ->
        sink.error(field, Reasons.INVALID_DURATION, "must not be negative"));
  }

  private static void warnIgnored(boolean given, String field, Ledger.Sink sink) {
    if (given) {
      sink.warn(field, Reasons.FIELD_IGNORED, "applies only to route and split actions; ignored here");
    }
  }
}
