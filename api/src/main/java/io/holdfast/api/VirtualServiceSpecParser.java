package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** The {@code spec} of a VirtualService and its routes. */
final class VirtualServiceSpecParser {

  private static final Set<String> SPEC = Set.of("domains", "routes", "options", "sslConfig", "httpsRedirect");
  private static final Set<String> ROUTE = Set.of("name", "match", "route", "split", "redirect", "directResponse",
      "timeout", "retries", "prefixRewrite", "options", "delegate");
  static final Set<String> RETRIES = Set.of("attempts", "perTryTimeout", "retryOn", "backoff",
      "retriableStatusCodes", "rateLimitedBackoff");
  private static final Set<String> BACKOFF = Set.of("baseInterval", "maxInterval");
  private static final Set<String> RATE_LIMITED_BACKOFF = Set.of("resetHeaders", "maxInterval");
  private static final Set<String> RESET_HEADER = Set.of("name", "format");

  private VirtualServiceSpecParser() {
  }

  static Optional<GatewayResource> parse(Metadata metadata, JsonNode spec, List<Problem> problems) {
    return Fields.of(spec, "spec", problems, SPEC).flatMap(fields -> {
      Optional<List<String>> domains = fields.stringList("domains", true);
      Optional<List<Route>> routes = fields.list("routes", true).flatMap(elements -> routes(elements, problems));
      Optional<VirtualHostOptions> options = RouteOptionsParser.virtualHost(fields);
      Optional<Optional<SslConfig>> ssl = fields.has("sslConfig")
          ? SslConfigParser.parse(fields).map(Optional::of) : Optional.of(Optional.empty());
      Optional<Boolean> httpsRedirect = fields.has("httpsRedirect") ? fields.bool("httpsRedirect") : Optional.of(false);
      if (domains.isEmpty() || routes.isEmpty() || options.isEmpty() || ssl.isEmpty() || httpsRedirect.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new VirtualService(metadata, domains.get(), routes.get(), options.get(), ssl.get(),
          httpsRedirect.get()));
    });
  }

  /** Routes as VirtualServices and RouteTables write them; empty if any is malformed. */
  static Optional<List<Route>> routes(List<Fields.Element> elements, List<Problem> problems) {
    List<Route> routes = new ArrayList<>();
    boolean ok = true;
    for (Fields.Element element : elements) {
      Optional<Route> route = Fields.of(element.node(), element.path(), problems, ROUTE)
          .flatMap(VirtualServiceSpecParser::route);
      route.ifPresent(routes::add);
      ok &= route.isPresent();
    }
    return ok ? Optional.of(routes) : Optional.empty();
  }

  private static Optional<Route> route(Fields fields) {
    Optional<String> name = fields.string("name");
    Optional<RouteMatch> match = fields.required("match").flatMap(m -> MatchParser.parse(fields, m));
    Optional<RouteAction> action = ActionParser.parse(fields);
    boolean ok = true;
    Optional<Duration> timeout = Optional.empty();
    if (fields.has("timeout")) {
      timeout = fields.duration("timeout");
      ok = timeout.isPresent();
    }
    Optional<RetryPolicy> retries = Optional.empty();
    if (fields.has("retries")) {
      retries = fields.object("retries", RETRIES).flatMap(VirtualServiceSpecParser::retries);
      ok &= retries.isPresent();
    }
    Optional<String> prefixRewrite = Optional.empty();
    if (fields.has("prefixRewrite")) {
      prefixRewrite = fields.string("prefixRewrite");
      ok &= prefixRewrite.isPresent();
    }
    Optional<RouteOptions> options = RouteOptionsParser.route(fields);
    if (!ok || match.isEmpty() || action.isEmpty() || options.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Route(name, match.get(), action.get(), timeout, retries, prefixRewrite, options.get()));
  }

  static Optional<RetryPolicy> retries(Fields fields) {
    Optional<Integer> attempts = fields.requiredInteger("attempts");
    boolean hasPerTry = fields.has("perTryTimeout");
    Optional<Duration> perTryTimeout = fields.duration("perTryTimeout");
    Optional<List<String>> retryOn = fields.stringList("retryOn", true);
    boolean hasBackoff = fields.has("backoff");
    Optional<RetryPolicy.Backoff> backoff = fields.object("backoff", BACKOFF).flatMap(VirtualServiceSpecParser::backoff);
    Optional<List<Integer>> codes = statusCodes(fields);
    boolean hasRateLimited = fields.has("rateLimitedBackoff");
    Optional<RetryPolicy.RateLimitedBackoff> rateLimited = fields.object("rateLimitedBackoff", RATE_LIMITED_BACKOFF)
        .flatMap(VirtualServiceSpecParser::rateLimitedBackoff);
    if (attempts.isEmpty() || retryOn.isEmpty() || (hasPerTry && perTryTimeout.isEmpty())
        || (hasBackoff && backoff.isEmpty()) || codes.isEmpty() || (hasRateLimited && rateLimited.isEmpty())) {
      return Optional.empty();
    }
    return Optional.of(new RetryPolicy(attempts.get(), perTryTimeout, retryOn.get(), backoff, codes.get(),
        rateLimited));
  }

  /** {@code retriableStatusCodes}: a list of integers; empty when absent, no value when malformed. */
  private static Optional<List<Integer>> statusCodes(Fields fields) {
    if (!fields.has("retriableStatusCodes")) {
      return Optional.of(List.of());
    }
    return fields.list("retriableStatusCodes", false).flatMap(elements -> {
      List<Integer> codes = new ArrayList<>();
      for (Fields.Element element : elements) {
        if (!element.node().isIntegralNumber() || !element.node().canConvertToInt()) {
          fields.problem(element.path(), Reasons.WRONG_TYPE, "expected an HTTP status, got "
              + Fields.describe(element.node()));
          return Optional.empty();
        }
        codes.add(element.node().asInt());
      }
      return Optional.of(codes);
    });
  }

  private static Optional<RetryPolicy.RateLimitedBackoff> rateLimitedBackoff(Fields fields) {
    boolean hasMax = fields.has("maxInterval");
    Optional<Duration> max = fields.duration("maxInterval");
    Optional<List<Fields.Element>> elements = fields.list("resetHeaders", true);
    if (elements.isEmpty() || (hasMax && max.isEmpty())) {
      return Optional.empty();
    }
    List<RetryPolicy.ResetHeader> headers = new ArrayList<>();
    for (Fields.Element element : elements.get()) {
      Optional<RetryPolicy.ResetHeader> header = Fields.of(element.node(), element.path(), fields.problems(),
          RESET_HEADER).flatMap(VirtualServiceSpecParser::resetHeader);
      if (header.isEmpty()) {
        return Optional.empty();
      }
      headers.add(header.get());
    }
    return Optional.of(new RetryPolicy.RateLimitedBackoff(headers, max));
  }

  /** {@code {name, format}}; format {@code Seconds} (default) or {@code UnixTimestamp}. */
  private static Optional<RetryPolicy.ResetHeader> resetHeader(Fields fields) {
    Optional<String> name = fields.requiredString("name");
    String format = fields.string("format").orElse("Seconds");
    RetryPolicy.ResetFormat parsed = switch (format.toLowerCase(java.util.Locale.ROOT)) {
      case "seconds" -> RetryPolicy.ResetFormat.SECONDS;
      case "unixtimestamp" -> RetryPolicy.ResetFormat.UNIX_TIMESTAMP;
      default -> null;
    };
    if (parsed == null) {
      fields.problem(fields.path("format"), Reasons.INVALID_VALUE, "expected Seconds or UnixTimestamp, got "
          + format);
      return Optional.empty();
    }
    return name.map(n -> new RetryPolicy.ResetHeader(n, parsed));
  }

  private static Optional<RetryPolicy.Backoff> backoff(Fields fields) {
    Optional<Duration> base = fields.required("baseInterval").flatMap(v -> fields.duration("baseInterval"));
    boolean hasMax = fields.has("maxInterval");
    Optional<Duration> max = fields.duration("maxInterval");
    if (hasMax && max.isEmpty()) {
      return Optional.empty();
    }
    return base.map(b -> new RetryPolicy.Backoff(b, max));
  }
}
