package io.holdfast.frontend.holdfast;

import io.holdfast.api.HeaderMatch;
import io.holdfast.api.PathMatch;
import io.holdfast.api.Reasons;
import io.holdfast.api.RetryPolicy;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteMatch;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/** Rules of one route (of a VirtualService or RouteTable): matcher, action, timeout, retries. */
final class RouteRules {

  /** Envoy's default {@code max_direct_response_body_size_bytes}. */
  static final int MAX_DIRECT_BODY_BYTES = 4096;
  static final int MAX_SPLIT_WEIGHT = 1_000_000;
  static final int MAX_RETRIES = 10;
  /** Envoy router and gRPC retry conditions that need no further settings. */
  static final Set<String> RETRY_ON = Set.of("5xx", "gateway-error", "reset", "reset-before-request",
      "retriable-status-codes",
      "connect-failure", "envoy-ratelimited", "retriable-4xx", "refused-stream", "http3-post-connect-failure",
      "cancelled", "deadline-exceeded", "internal", "resource-exhausted", "unavailable");
  /**
   * Reset headers of one rate-limited backoff. Reason: Envoy reads them in order for every retried answer; real
   * upstreams use one or two (Retry-After, X-RateLimit-Reset).
   */
  static final int MAX_RESET_HEADERS = 16;
  private static final java.util.regex.Pattern HEADER_NAME = java.util.regex.Pattern.compile(
      "[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  private static final Set<Integer> REDIRECT_CODES = Set.of(301, 302, 303, 307, 308);

  private RouteRules() {
  }

  static void check(Route route, String field, Ledger.Sink sink) {
    checkMatch(route.match(), field + ".match", sink);
    RouteAction action = route.action();
    if (action instanceof RouteAction.Forward forward) {
      MetadataRules.checkRef(forward.upstream(), field + ".route.upstream", field + ".route.namespace", sink);
    } else if (action instanceof RouteAction.Split split) {
      checkSplit(split, field + ".split", sink);
    } else if (action instanceof RouteAction.Redirect redirect) {
      checkRedirect(redirect, field + ".redirect", sink);
    } else if (action instanceof RouteAction.DirectResponse direct) {
      checkDirect(direct, field + ".directResponse", sink);
    } else if (action instanceof RouteAction.Delegate delegate) {
      checkDelegate(route.match(), delegate, field, sink);
    }
    route.timeout().filter(t -> t.isNegative()).ifPresent(t ->
        sink.error(field + ".timeout", Reasons.INVALID_DURATION, "timeout must not be negative"));
    route.retries().ifPresent(retries -> checkRetries(retries, field + ".retries", sink));
    route.prefixRewrite().ifPresent(v -> headerSafe(v, field + ".prefixRewrite", sink));
    // A delegating route's options are handed down to the routes it delegates to (OptionInheritance).
    boolean usesOptions = action instanceof RouteAction.Forward || action instanceof RouteAction.Split
        || action instanceof RouteAction.Delegate;
    RouteOptionsRules.check(route, field, usesOptions, sink);
    if (!usesOptions) {
      warnIgnored(route.timeout().isPresent(), field + ".timeout", sink);
      warnIgnored(route.retries().isPresent(), field + ".retries", sink);
      warnIgnored(route.prefixRewrite().isPresent(), field + ".prefixRewrite", sink);
    }
  }

  /**
   * A delegating route hands over a path prefix, so it needs one: the delegated routes are checked against it (an
   * exact or regex path could not be narrowed, and without a path a nested table could leave its parent's prefix).
   */
  private static void checkDelegate(RouteMatch match, RouteAction.Delegate delegate, String field,
      Ledger.Sink sink) {
    if (!match.isEmpty() && !(match.path().orElse(null) instanceof PathMatch.Prefix)) {
      sink.error(field + ".match", Reasons.INVALID_DELEGATE_MATCH, "a delegating route needs a prefix match"
          + " (e.g. prefix: /team-a/): the delegated routes must stay under it");
    }
    if (delegate.target() instanceof RouteAction.DelegateRef ref) {
      MetadataRules.checkRef(ref.ref(), field + ".delegate.ref.name", field + ".delegate.ref.namespace", sink);
    } else if (delegate.target() instanceof RouteAction.DelegateSelector selector) {
      for (int i = 0; i < selector.namespaces().size(); i++) {
        String namespace = selector.namespaces().get(i);
        if (!namespace.equals(RouteAction.DelegateSelector.ANY_NAMESPACE) && !Syntax.isNamespace(namespace)) {
          sink.error(field + ".delegate.selector.namespaces[" + i + "]", Reasons.INVALID_NAME,
              "\"" + namespace + "\" is not a valid namespace (or \"*\" for all)");
        }
      }
    }
  }

  private static void warnIgnored(boolean given, String field, Ledger.Sink sink) {
    if (given) {
      sink.warn(field, Reasons.FIELD_IGNORED, "applies only to route and split actions; ignored here");
    }
  }

  private static void checkMatch(RouteMatch match, String field, Ledger.Sink sink) {
    if (match.isEmpty()) {
      sink.error(field, Reasons.EMPTY_MATCHER, "match has no conditions; write prefix: / to match every request");
      return;
    }
    match.path().ifPresent(path -> {
      if (path instanceof PathMatch.Regex regex) {
        regexError(regex.value(), field + ".regex", sink);
      } else if (!path.value().startsWith("/")) {
        String kind = path instanceof PathMatch.Prefix ? "prefix" : "exact";
        sink.error(field + "." + kind, Reasons.INVALID_PATH, kind + " must start with /");
      }
    });
    Set<String> names = new HashSet<>();
    for (int i = 0; i < match.headers().size(); i++) {
      HeaderMatch header = match.headers().get(i);
      String at = field + ".headers[" + i + "]";
      String name = header.name().toLowerCase(Locale.ROOT);
      if (!Syntax.isHeaderName(header.name())) {
        sink.error(at + ".name", Reasons.INVALID_HEADER_NAME, "\"" + header.name() + "\" is not a header name");
      } else if (!names.add(name)) {
        sink.error(at + ".name", Reasons.CONFLICTING_MATCHER,
            "header " + name + " is matched twice; combine the conditions into one matcher");
      } else if (name.equals(":method") && !match.methods().isEmpty()) {
        sink.error(at + ".name", Reasons.CONFLICTING_MATCHER, "use either methods or a :method header matcher");
      }
      if (header.condition() instanceof HeaderMatch.Regex regex) {
        regexError(regex.value(), at + ".regex", sink);
      } else if (header.condition() instanceof HeaderMatch.Prefix prefix && prefix.value().isEmpty()) {
        sink.error(at + ".prefix", Reasons.EMPTY_MATCHER, "empty prefix matches everything; use present: true");
      }
    }
    if (new HashSet<>(match.methods()).size() != match.methods().size()) {
      sink.error(field + ".methods", Reasons.CONFLICTING_MATCHER, "a method is listed twice");
    }
  }

  static void regexError(String regex, String field, Ledger.Sink sink) {
    Re2Syntax.refusal(regex, sink.limits()).ifPresent(r -> sink.error(field, r.reason(), r.message()));
  }

  private static void checkSplit(RouteAction.Split split, String field, Ledger.Sink sink) {
    checkSplitTargets(split, field, ".upstream", ".namespace", sink);
  }

  /**
   * References and weights of a split at {@code field}; {@code nameField} and {@code namespaceField} locate a
   * target's reference inside its element (they differ between VirtualService routes and TcpGateway hosts).
   */
  static void checkSplitTargets(RouteAction.Split split, String field, String nameField, String namespaceField,
      Ledger.Sink sink) {
    long total = 0;
    for (int i = 0; i < split.targets().size(); i++) {
      RouteAction.WeightedTarget target = split.targets().get(i);
      String at = field + "[" + i + "]";
      MetadataRules.checkRef(target.upstream(), at + nameField, at + namespaceField, sink);
      if (target.weight() < 0 || target.weight() > MAX_SPLIT_WEIGHT) {
        sink.error(at + ".weight", Reasons.INVALID_WEIGHT,
            "weight " + target.weight() + " is out of range 0-" + MAX_SPLIT_WEIGHT);
      } else {
        total += target.weight();
      }
    }
    if (total == 0) {
      sink.error(field, Reasons.ZERO_TOTAL_WEIGHT, split.targets().isEmpty()
          ? "split needs at least one upstream" : "the weights sum to 0, so no upstream would get traffic");
    }
  }

  private static void checkRedirect(RouteAction.Redirect redirect, String field, Ledger.Sink sink) {
    if (!REDIRECT_CODES.contains(redirect.responseCode())) {
      sink.error(field + ".responseCode", Reasons.INVALID_RESPONSE_CODE,
          "responseCode " + redirect.responseCode() + " is not one of 301, 302, 303, 307, 308");
    }
    if (redirect.host().isEmpty() && redirect.path().isEmpty() && redirect.prefixRewrite().isEmpty()
        && !redirect.httpsRedirect()) {
      sink.error(field, Reasons.EMPTY_REDIRECT,
          "a redirect needs host, path, prefixRewrite or httpsRedirect, otherwise it redirects to itself");
    }
    redirect.host().filter(String::isEmpty).ifPresent(h ->
        sink.error(field + ".host", Reasons.INVALID_VALUE, "host must not be empty"));
    redirect.path().filter(p -> !p.startsWith("/")).ifPresent(p ->
        sink.error(field + ".path", Reasons.INVALID_PATH, "path must start with /"));
    redirect.host().ifPresent(v -> headerSafe(v, field + ".host", sink));
    redirect.path().ifPresent(v -> headerSafe(v, field + ".path", sink));
    redirect.prefixRewrite().ifPresent(v -> headerSafe(v, field + ".prefixRewrite", sink));
  }

  /**
   * These values end up in request or response headers (Location, :path, :authority): Envoy refuses NUL, CR and
   * LF in them (its HTTP_HEADER_VALUE rule), and letting them through would also allow header injection.
   */
  static void headerSafe(String value, String field, Ledger.Sink sink) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == 0 || c == '\n' || c == '\r') {
        sink.error(field, Reasons.INVALID_VALUE, "must not contain NUL, CR or LF (found at index " + i + ")");
        return;
      }
    }
  }

  private static void checkDirect(RouteAction.DirectResponse direct, String field, Ledger.Sink sink) {
    if (direct.status() < 200 || direct.status() > 599) {
      sink.error(field + ".status", Reasons.INVALID_STATUS, "status " + direct.status() + " is not in 200-599");
    }
    direct.body().filter(b -> b.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_DIRECT_BODY_BYTES)
        .ifPresent(b -> sink.error(field + ".body", Reasons.INVALID_VALUE,
            "body is longer than " + MAX_DIRECT_BODY_BYTES + " bytes, Envoy's limit"));
  }

  static void checkRetries(RetryPolicy retries, String field, Ledger.Sink sink) {
    if (retries.attempts() < 1 || retries.attempts() > MAX_RETRIES) {
      sink.error(field + ".attempts", Reasons.INVALID_RETRY_POLICY,
          "attempts " + retries.attempts() + " is out of range 1-" + MAX_RETRIES);
    }
    if (retries.retryOn().isEmpty()) {
      sink.error(field + ".retryOn", Reasons.INVALID_RETRY_POLICY, "at least one retry condition is required");
    }
    for (int i = 0; i < retries.retryOn().size(); i++) {
      String condition = retries.retryOn().get(i);
      if (!RETRY_ON.contains(condition)) {
        sink.error(field + ".retryOn[" + i + "]", Reasons.INVALID_RETRY_POLICY, "unknown retry condition \""
            + condition + "\" (known: " + String.join(", ", new java.util.TreeSet<>(RETRY_ON)) + ")");
      }
    }
    retries.perTryTimeout().filter(t -> t.isZero() || t.isNegative()).ifPresent(t ->
        sink.error(field + ".perTryTimeout", Reasons.INVALID_DURATION, "perTryTimeout must be greater than 0"));
    retries.backoff().ifPresent(backoff -> {
      if (backoff.baseInterval().isZero() || backoff.baseInterval().isNegative()) {
        sink.error(field + ".backoff.baseInterval", Reasons.INVALID_RETRY_POLICY, "baseInterval must be greater than 0");
      } else {
        backoff.maxInterval().filter(max -> max.compareTo(backoff.baseInterval()) < 0).ifPresent(max ->
            sink.error(field + ".backoff.maxInterval", Reasons.INVALID_RETRY_POLICY,
                "maxInterval must not be shorter than baseInterval (Envoy and gRPC clients reject it)"));
      }
    });
    checkStatusCodes(retries, field, sink);
    retries.rateLimitedBackoff().ifPresent(backoff -> checkRateLimitedBackoff(backoff,
        field + ".rateLimitedBackoff", sink));
  }

  private static void checkStatusCodes(RetryPolicy retries, String field, Ledger.Sink sink) {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < retries.retriableStatusCodes().size(); i++) {
      int code = retries.retriableStatusCodes().get(i);
      if (code < 100 || code > 599) {
        sink.error(field + ".retriableStatusCodes[" + i + "]", Reasons.INVALID_RETRY_POLICY, "status " + code
            + " is not in 100-599");
      } else if (!seen.add(code)) {
        sink.error(field + ".retriableStatusCodes[" + i + "]", Reasons.INVALID_RETRY_POLICY, "status " + code
            + " is listed twice");
      }
    }
    if (!retries.retriableStatusCodes().isEmpty() && !retries.retryOn().contains("retriable-status-codes")) {
      sink.warn(field + ".retriableStatusCodes", Reasons.INVALID_RETRY_POLICY, "retriableStatusCodes are retried"
          + " only when retryOn lists retriable-status-codes; as written they have no effect");
    }
  }

  private static void checkRateLimitedBackoff(RetryPolicy.RateLimitedBackoff backoff, String field,
      Ledger.Sink sink) {
    if (backoff.resetHeaders().isEmpty() || backoff.resetHeaders().size() > MAX_RESET_HEADERS) {
      sink.error(field + ".resetHeaders", Reasons.INVALID_RETRY_POLICY, "1 to " + MAX_RESET_HEADERS
          + " reset headers, got " + backoff.resetHeaders().size());
    }
    for (int i = 0; i < backoff.resetHeaders().size(); i++) {
      String name = backoff.resetHeaders().get(i).name();
      if (!HEADER_NAME.matcher(name).matches()) {
        sink.error(field + ".resetHeaders[" + i + "].name", Reasons.INVALID_HEADER_NAME, "\"" + name
            + "\" is not a header name");
      }
    }
    backoff.maxInterval().filter(t -> t.isZero() || t.isNegative()).ifPresent(t -> sink.error(
        field + ".maxInterval", Reasons.INVALID_RETRY_POLICY, "maxInterval must be greater than 0"));
  }
}
