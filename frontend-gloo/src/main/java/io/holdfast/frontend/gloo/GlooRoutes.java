package io.holdfast.frontend.gloo;

import io.holdfast.api.HeaderMatch;
import io.holdfast.api.HttpMethod;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.PathMatch;
import io.holdfast.api.QueryParameterMatch;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.RetryPolicy;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteMatch;
import io.holdfast.api.RouteOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo routes ({@code virtualHost.routes}, {@code RouteTable.spec.routes}) as Holdfast {@link Route}s. A route with
 * several matchers becomes one Holdfast route per matcher (Gloo ORs them), in order; no matcher is Gloo's default,
 * prefix {@code /}. Destinations name Upstreams as Holdfast routes do; a {@code kube} destination becomes a
 * synthetic Upstream ({@link Destinations}); an {@code upstreamGroup} becomes the split its UpstreamGroup writes.
 */
final class GlooRoutes {

  private static final Set<String> ROUTE = Set.of("matchers", "routeAction", "redirectAction",
      "directResponseAction", "delegateAction", "options", "name", "optionsConfigRefs", "inheritableMatchers",
      "inheritablePathMatchers");
  private static final Set<String> MATCHER = Set.of("prefix", "exact", "regex", "headers", "queryParameters",
      "methods", "caseSensitive");
  private static final Set<String> HEADER = Set.of("name", "value", "regex", "invertMatch");
  private static final Set<String> QUERY = Set.of("name", "value", "regex");
  private static final Set<String> ROUTE_ACTION = Set.of("single", "multi", "upstreamGroup",
      "dynamicForwardProxy");
  private static final Set<String> DESTINATION = Set.of("upstream", "kube", "subset");
  private static final Set<String> SUBSET = Set.of("values");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> KUBE = Set.of("ref", "port");
  private static final Set<String> MULTI = Set.of("destinations");
  private static final Set<String> WEIGHTED = Set.of("destination", "weight");
  private static final Set<String> REDIRECT = Set.of("hostRedirect", "pathRedirect", "prefixRewrite",
      "responseCode", "httpsRedirect", "stripQuery");
  private static final Set<String> DIRECT = Set.of("status", "body");
  private static final Set<String> DELEGATE = Set.of("ref", "selector", "name", "namespace");
  private static final Set<String> SELECTOR = Set.of("labels", "namespaces", "expressions");
  static final Set<String> ROUTE_OPTIONS = UpstreamReader.union(UpstreamReader.union(Set.of("prefixRewrite",
      "timeout", "retries", "headerManipulation", "cors", "faults", "hostRewrite", "autoHostRewrite", "regexRewrite",
      "lbHash", "shadowing", "idleTimeout", "appendXForwardedHost", "maxStreamDuration"),
      GlooTraffic.FIELDS), GlooSecurity.ROUTE_FIELDS);
  static final Set<String> RETRIES = Set.of("retryOn", "numRetries", "perTryTimeout", "retryBackOff",
      "retriableStatusCodes", "rateLimitedRetryBackOff");
  private static final Set<String> BACKOFF = Set.of("baseInterval", "maxInterval");
  private static final Set<String> RATE_LIMITED_BACKOFF = Set.of("resetHeaders", "maxInterval");
  private static final Set<String> RESET_HEADER = Set.of("name", "format");
  static final Set<String> HEADERS = Set.of("requestHeadersToAdd", "requestHeadersToRemove",
      "responseHeadersToAdd", "responseHeadersToRemove");
  private static final Set<String> HEADER_VALUE_OPTION = Set.of("header", "append");
  private static final Set<String> HEADER_VALUE = Set.of("key", "value");
  static final Set<String> CORS = Set.of("allowOrigin", "allowOriginRegex", "allowMethods", "allowHeaders",
      "exposeHeaders", "maxAge", "allowCredentials");
  private static final Set<String> FAULTS = Set.of("abort", "delay");
  private static final Set<String> ABORT = Set.of("percentage", "httpStatus");
  private static final Set<String> DELAY = Set.of("percentage", "fixedDelay");
  private static final Set<String> REGEX_REWRITE = Set.of("pattern", "substitution");
  private static final Set<String> REGEX = Set.of("regex");
  private static final Set<String> LB_HASH = Set.of("hashPolicies");
  private static final Set<String> HASH_POLICY = Set.of("header", "cookie", "sourceIp", "terminal");
  private static final Set<String> COOKIE = Set.of("name", "ttl", "path");
  private static final Set<String> SHADOWING = Set.of("upstream", "percentage");
  /** Gloo's {@code RouteOptions.MaxStreamDuration}; the gRPC timeout header fields are not read. */
  private static final Set<String> MAX_STREAM_DURATION = Set.of("maxStreamDuration");

  /** Gloo's redirect codes by enum name; the enum's default (0) is MOVED_PERMANENTLY. */
  private static final Map<String, Integer> RESPONSE_CODES = Map.of("MOVED_PERMANENTLY", 301, "FOUND", 302,
      "SEE_OTHER", 303, "TEMPORARY_REDIRECT", 307, "PERMANENT_REDIRECT", 308, "0", 301, "1", 302, "2", 303,
      "3", 307, "4", 308);

  /** The RouteTables a delegate selector with {@code expressions} can pick, read from the config. */
  interface RouteTables {
    /**
     * The RouteTables in {@code namespaces} (empty: {@code owner}'s; {@code *}: all) whose labels match, in the
     * order Holdfast serves a selector's picks (weight, then key).
     */
    List<ObjectRef> select(String owner, List<String> namespaces, Map<String, String> labels,
        LabelExpressions expressions);
  }

  /** What a route's {@code upstreamGroup} destination resolves to, as the front end read the UpstreamGroups. */
  interface UpstreamGroups {
    /** The split of UpstreamGroup {@code key}; empty (with an error added at {@code field}) if it cannot serve. */
    Optional<RouteAction.Split> split(ResourceKey key, Node at);
  }

  private final String namespace;
  private final Destinations destinations;
  private final UpstreamGroups groups;
  private final OptionObjects routeOptions;
  private final RouteTables tables;
  private final EdgePolicies edge;
  /**
   * The virtual host's JWT providers, for RBAC principals that name none: none in a RouteTable; unknown (empty)
   * in a RouteOption object, whose options are read again, with them, where a route references it.
   */
  private Optional<List<String>> hostJwtProviders = Optional.of(List.of());

  GlooRoutes(String namespace, Destinations destinations, UpstreamGroups groups, OptionObjects routeOptions,
      RouteTables tables, EdgePolicies edge) {
    this.edge = edge;
    this.namespace = namespace;
    this.destinations = destinations;
    this.groups = groups;
    this.routeOptions = routeOptions;
    this.tables = tables;
  }

  /** Set by the VirtualService reader, from its virtual host's options, before it reads the routes. */
  void hostJwtProviders(List<String> names) {
    hostJwtProviders = Optional.of(List.copyOf(names));
  }

  /** For a RouteOption object read on its own: providers are resolved where its options are merged. */
  void providersResolvedWhereUsed() {
    hostJwtProviders = Optional.empty();
  }

  /** The routes of {@code owner}'s {@code field}; routes with errors are left out (the caller rejects the owner). */
  List<Route> routes(Node owner, String field) {
    List<Route> out = new ArrayList<>();
    for (Node route : owner.list(field)) {
      out.addAll(route(route));
    }
    return out;
  }

  private List<Route> route(Node route) {
    route.only("route", ROUTE);
    route.bool("inheritableMatchers"); // read as Holdfast's delegation does it: docs/GLOO.md, Delegated matchers
    // Carried as written (unset stays unset) on every route this one becomes: whether the route takes its parent's
    // path depends on the chain above it, which Holdfast's delegation walk resolves for each parent (Delegation).
    Optional<Boolean> inheritPath = route.bool("inheritablePathMatchers");
    Optional<String> name = route.string("name");
    Optional<Expanded> expanded = route.has("delegateAction") ? expanded(route.child("delegateAction"))
        : Optional.empty();
    Optional<RouteAction> action = action(route); // also when expanded: it checks there is exactly one action
    // A delegating route's options, read as any route's, are handed down to the delegated routes by Holdfast's
    // delegation, group by group, the child's own winning (Gloo's ShallowMergeRouteOptions).
    routeOptions.merge(route, "RouteOption", namespace);
    Node options = route.child("options");
    RouteParts parts = options(options);
    EdgePolicies.Read edgeOptions = edge.read(options, true);
    List<Node> matchers = route.list("matchers");
    List<RouteMatch> matches = new ArrayList<>();
    if (matchers.isEmpty()) {
      matches.add(RouteMatch.prefix("/")); // Gloo's default matcher
    }
    for (Node matcher : matchers) {
      match(matcher).ifPresent(matches::add);
    }
    if (expanded.isPresent() && action.isPresent()) {
      // A selector with expressions: one delegating route per picked RouteTable, in the selector's order, which is
      // how Holdfast serves a label selector's picks.
      List<Route> out = new ArrayList<>();
      for (RouteMatch match : matches) {
        for (ObjectRef table : expanded.get().tables()) {
          out.add(edge.route(new Route(Optional.empty(), match, new RouteAction.Delegate(
              new RouteAction.DelegateRef(table)), parts.timeout, parts.retries, parts.prefixRewrite, parts.options,
              inheritPath), edgeOptions, route));
        }
      }
      return out;
    }
    if (action.isEmpty()) {
      return List.of();
    }
    List<Route> out = new ArrayList<>(); // one Holdfast route per matcher
    for (int i = 0; i < matches.size(); i++) {
      // Several matchers are one Gloo route; Holdfast names routes uniquely, so each copy gets its index.
      String suffix = matches.size() == 1 ? "" : "-" + i;
      Optional<String> copyName = name.map(n -> n + suffix);
      out.add(edge.route(new Route(copyName, matches.get(i), action.get(), parts.timeout, parts.retries,
          parts.prefixRewrite, parts.options, inheritPath), edgeOptions, route));
    }
    return out;
  }

  private Optional<RouteMatch> match(Node matcher) {
    matcher.only("matcher", MATCHER);
    List<String> given = List.of("prefix", "exact", "regex").stream().filter(matcher::has).toList();
    if (given.size() > 1) {
      matcher.error(matcher.path, Reasons.CONFLICTING_MATCHER, "only one of prefix, exact, regex, got " + given);
      return Optional.empty();
    }
    // Gloo copies caseSensitive to Envoy's RouteMatch.case_sensitive whatever the path kind; Envoy applies it to
    // prefix and exact paths only, so a regex keeps matching case as written, as it does here.
    boolean caseSensitive = matcher.bool("caseSensitive").orElse(true);
    if (!caseSensitive && given.equals(List.of("regex"))) {
      matcher.warn(matcher.at("caseSensitive"), Reasons.FIELD_IGNORED, "caseSensitive: false does not apply to a"
          + " regex (Envoy ignores it there, under Gloo too); start the regex with (?i) to ignore case");
    }
    PathMatch path = given.isEmpty() ? new PathMatch.Prefix("/", caseSensitive) : switch (given.get(0)) {
      case "prefix" -> new PathMatch.Prefix(matcher.string("prefix").orElse("/"), caseSensitive);
      case "exact" -> new PathMatch.Exact(matcher.string("exact").orElse("/"), caseSensitive);
      default -> new PathMatch.Regex(matcher.string("regex").orElse(""));
    };
    List<HeaderMatch> headers = new ArrayList<>();
    for (Node header : matcher.list("headers")) {
      header.only("header matcher", HEADER);
      String name = header.requiredString("name").orElse("");
      Optional<String> value = header.string("value").filter(v -> !v.isEmpty());
      boolean regex = header.bool("regex").orElse(false);
      boolean invert = header.bool("invertMatch").orElse(false);
      HeaderMatch.Condition condition = value.isEmpty() ? new HeaderMatch.Present(true)
          : regex ? new HeaderMatch.Regex(value.get()) : new HeaderMatch.Exact(value.get());
      headers.add(new HeaderMatch(name, condition, invert));
    }
    List<QueryParameterMatch> queries = new ArrayList<>();
    for (Node query : matcher.list("queryParameters")) {
      query.only("query parameter matcher", QUERY);
      String name = query.requiredString("name").orElse("");
      Optional<String> value = query.string("value").filter(v -> !v.isEmpty());
      boolean regex = query.bool("regex").orElse(false);
      queries.add(new QueryParameterMatch(name, value.isEmpty() ? new QueryParameterMatch.Present(true)
          : regex ? new QueryParameterMatch.Regex(value.get()) : new QueryParameterMatch.Exact(value.get())));
    }
    List<HttpMethod> methods = new ArrayList<>();
    List<String> names = matcher.strings("methods");
    for (int i = 0; i < names.size(); i++) {
      String method = names.get(i);
      if (Arrays.stream(HttpMethod.values()).anyMatch(m -> m.name().equals(method))) {
        methods.add(HttpMethod.valueOf(method));
      } else {
        matcher.error(matcher.at("methods") + "[" + i + "]", Reasons.INVALID_VALUE, "unknown HTTP method \""
            + method + "\"");
      }
    }
    return Optional.of(new RouteMatch(Optional.of(path), headers, methods, queries));
  }

  private Optional<RouteAction> action(Node route) {
    List<String> given = List.of("routeAction", "redirectAction", "directResponseAction", "delegateAction",
        "graphqlApiRef").stream().filter(route::has).toList();
    if (given.size() != 1) {
      route.error(route.path, given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "a route has exactly one of routeAction, redirectAction, directResponseAction, delegateAction");
      return Optional.empty();
    }
    return switch (given.get(0)) {
      case "routeAction" -> routeAction(route.child("routeAction").only("routeAction", ROUTE_ACTION));
      case "redirectAction" -> redirect(route.child("redirectAction"));
      case "directResponseAction" -> {
        Node direct = route.child("directResponseAction").only("directResponseAction", DIRECT);
        yield Optional.of(new RouteAction.DirectResponse(direct.integer("status").orElse(200),
            direct.string("body")));
      }
      case "delegateAction" -> delegate(route.child("delegateAction"));
      default -> Optional.empty(); // graphqlApiRef: rejected by only()
    };
  }

  /** A {@code routeAction} (or a TCP host's {@code destination}, which has the same one-of). */
  Optional<RouteAction> routeActionOf(Node action) {
    return routeAction(action);
  }

  private Optional<RouteAction> routeAction(Node action) {
    if (action.has("single")) {
      return destination(action.child("single")).map(RouteAction.Forward::new);
    }
    if (action.has("multi")) {
      Node multi = action.child("multi").only("multi", MULTI);
      List<RouteAction.WeightedTarget> targets = new ArrayList<>();
      for (Node weighted : multi.list("destinations")) {
        weighted.only("weighted destination", WEIGHTED);
        Optional<ObjectRef> ref = destination(weighted.child("destination"));
        int weight = weighted.integer("weight").orElse(0);
        ref.ifPresent(r -> targets.add(new RouteAction.WeightedTarget(r, weight)));
      }
      return Optional.of(new RouteAction.Split(targets));
    }
    if (action.has("upstreamGroup")) {
      Node ref = action.child("upstreamGroup").only("upstreamGroup reference", REF);
      String name = ref.requiredString("name").orElse("");
      String ns = ref.string("namespace").orElse(namespace);
      return groups.split(new ResourceKey(GlooKinds.GLOO_GROUP, GlooKinds.UPSTREAM_GROUP, ns, name), ref)
          .map(split -> (RouteAction) split);
    }
    if (action.has("dynamicForwardProxy")) {
      GlooForwardProxy.route(action.child("dynamicForwardProxy"));
      return Optional.empty();
    }
    action.error(action.path, Reasons.MISSING_FIELD, "a routeAction has one of single, multi, upstreamGroup,"
        + " dynamicForwardProxy");
    return Optional.empty();
  }

  /** A {@code single} destination: an Upstream by reference, or a Service port ({@code kube}). */
  Optional<ObjectRef> destination(Node destination) {
    destination.only("destination", DESTINATION);
    if (destination.has("upstream") == destination.has("kube")) {
      destination.error(destination.path, Reasons.MISSING_FIELD, "a destination has one of upstream, kube");
      return Optional.empty();
    }
    if (destination.has("subset")) {
      // Gloo reads a subset only on an Upstream destination (a kube destination has no subsetSpec to choose from).
      Node subset = destination.child("subset").only("subset", SUBSET);
      if (!destination.has("upstream")) {
        subset.error(subset.path, Destinations.SUBSET_UNAVAILABLE, "a subset is chosen of an upstream destination");
        return Optional.empty();
      }
      Node ref = destination.child("upstream").only("upstream reference", REF);
      Map<String, String> values = subset.stringMap("values");
      return ref.requiredString("name").flatMap(name -> destinations.subset(ref.string("namespace")
          .orElse(namespace), name, values, subset));
    }
    if (destination.has("upstream")) {
      Node ref = destination.child("upstream").only("upstream reference", REF);
      return ref.requiredString("name").map(name -> new ObjectRef(name, ref.string("namespace")));
    }
    Node kube = destination.child("kube").only("kube destination", KUBE);
    Node ref = kube.child("ref").only("service reference", REF);
    Optional<String> name = ref.requiredString("name");
    Optional<Integer> port = kube.integer("port");
    if (port.isEmpty()) {
      kube.error(kube.at("port"), Reasons.MISSING_FIELD, "port is required");
    }
    return name.flatMap(n -> port.map(p -> destinations.service(ref.string("namespace").orElse(namespace), n, p)));
  }

  private Optional<RouteAction> redirect(Node redirect) {
    redirect.only("redirectAction", REDIRECT);
    int code = 301;
    Optional<String> codeText = redirect.string("responseCode");
    if (codeText.isPresent()) {
      Integer known = RESPONSE_CODES.get(codeText.get());
      if (known == null) {
        redirect.error(redirect.at("responseCode"), Reasons.INVALID_VALUE, "unknown responseCode \""
            + codeText.get() + "\"");
      } else {
        code = known;
      }
    }
    return Optional.of(new RouteAction.Redirect(redirect.string("hostRedirect"), redirect.string("pathRedirect"),
        redirect.string("prefixRewrite"), code, redirect.bool("httpsRedirect").orElse(false),
        redirect.bool("stripQuery").orElse(false)));
  }

  /** A delegate selector with {@code expressions}, resolved to the RouteTables it picks; empty for any other. */
  private Optional<Expanded> expanded(Node delegate) {
    Node selector = delegate.child("selector");
    if (!selector.has("expressions")) {
      return Optional.empty();
    }
    Optional<LabelExpressions> expressions = LabelExpressions.read(selector);
    if (expressions.isEmpty()) {
      return Optional.of(new Expanded(List.of()));
    }
    List<ObjectRef> picked = tables.select(namespace, selector.strings("namespaces"), selector.stringMap("labels"),
        expressions.get());
    if (picked.isEmpty()) {
      selector.warn(selector.path, "NoRouteTableSelected", "the selector picks no RouteTable; its prefix has no"
          + " routes until one matches");
    }
    return Optional.of(new Expanded(picked));
  }

  private Optional<RouteAction> delegate(Node delegate) {
    delegate.only("delegateAction", DELEGATE);
    if (delegate.has("selector")) {
      Node selector = delegate.child("selector").only("delegate selector", SELECTOR);
      return Optional.of(new RouteAction.Delegate(new RouteAction.DelegateSelector(selector.stringMap("labels"),
          selector.strings("namespaces"))));
    }
    Node ref = delegate.has("ref") ? delegate.child("ref").only("delegate reference", REF) : delegate;
    return ref.requiredString("name").map(name -> new RouteAction.Delegate(
        new RouteAction.DelegateRef(new ObjectRef(name, ref.string("namespace")))));
  }

  /**
   * Not a Holdfast action: a delegate selector with expressions, already resolved to the RouteTables it picks;
   * {@link #route} turns it into one delegating route per table.
   */
  private record Expanded(List<ObjectRef> tables) {
  }

  /** The parts of a Holdfast route that Gloo writes in a route's {@code options}. */
  record RouteParts(Optional<Duration> timeout, Optional<RetryPolicy> retries, Optional<String> prefixRewrite,
      RouteOptions options) {
  }

  RouteParts options(Node options) {
    if (!options.json.isObject()) {
      return new RouteParts(Optional.empty(), Optional.empty(), Optional.empty(), RouteOptions.NONE);
    }
    options.only("route's options", union(ROUTE_OPTIONS, EdgePolicies.FIELDS));
    Optional<RetryPolicy> retries = options.has("retries") ? retries(options.child("retries")) : Optional.empty();
    Optional<RouteOptions.Faults> faults = options.has("faults") ? Optional.of(faults(options.child("faults")))
        : Optional.empty();
    Optional<RouteOptions.RegexRewrite> regexRewrite = Optional.empty();
    if (options.has("regexRewrite")) {
      Node rewrite = options.child("regexRewrite").only("regexRewrite", REGEX_REWRITE);
      Node pattern = rewrite.child("pattern").only("regex", REGEX);
      regexRewrite = Optional.of(new RouteOptions.RegexRewrite(pattern.requiredString("regex").orElse(""),
          rewrite.string("substitution").orElse("")));
    }
    List<RouteOptions.HashPolicy> hashPolicies = new ArrayList<>();
    if (options.has("lbHash")) {
      for (Node policy : options.child("lbHash").only("lbHash", LB_HASH).list("hashPolicies")) {
        hashPolicies.add(hashPolicy(policy));
      }
    }
    Optional<RouteOptions.Mirror> mirror = Optional.empty();
    if (options.has("shadowing")) {
      Node shadowing = options.child("shadowing").only("shadowing", SHADOWING);
      Node ref = shadowing.child("upstream").only("upstream reference", REF);
      mirror = ref.requiredString("name").map(name -> new RouteOptions.Mirror(
          new ObjectRef(name, ref.string("namespace")), shadowing.number("percentage").orElse(100.0)));
    }
    RouteOptions routeOptions = new RouteOptions(
        options.has("headerManipulation") ? Optional.of(headers(options.child("headerManipulation")))
            : Optional.empty(),
        options.string("hostRewrite"), options.bool("autoHostRewrite").orElse(false), regexRewrite,
        options.has("cors") ? Optional.of(cors(options.child("cors"))) : Optional.empty(),
        options.duration("idleTimeout"), maxStreamDuration(options), faults, hashPolicies, mirror,
        GlooSecurity.route(options, hostJwtProviders), GlooTraffic.read(options),
        options.bool("appendXForwardedHost").orElse(false));
    return new RouteParts(options.duration("timeout"), retries, options.string("prefixRewrite"), routeOptions);
  }

  /** Gloo's {@code maxStreamDuration: {maxStreamDuration}}: how long a stream may last at all. */
  private static Optional<Duration> maxStreamDuration(Node options) {
    if (!options.has("maxStreamDuration")) {
      return Optional.empty();
    }
    Node node = options.child("maxStreamDuration").only("maxStreamDuration", MAX_STREAM_DURATION);
    return node.duration("maxStreamDuration");
  }

  /** Gloo's retry policy; {@code retryOn} is Envoy's comma-separated list, {@code numRetries} defaults to 1. */
  static Optional<RetryPolicy> retries(Node retries) {
    retries.protoNames().only("retries", RETRIES);
    List<String> retryOn = retries.string("retryOn").map(text -> Arrays.stream(text.split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).toList()).orElse(List.of());
    Optional<RetryPolicy.Backoff> backoff = Optional.empty();
    if (retries.has("retryBackOff")) {
      Node node = retries.child("retryBackOff").protoNames().only("retryBackOff", BACKOFF);
      backoff = node.duration("baseInterval").map(base -> new RetryPolicy.Backoff(base, node.duration("maxInterval")));
      if (backoff.isEmpty()) {
        node.error(node.at("baseInterval"), Reasons.MISSING_FIELD, "baseInterval is required");
      }
    }
    List<Integer> codes = new ArrayList<>();
    for (Node code : retries.list("retriableStatusCodes")) {
      if (code.json.isIntegralNumber() && code.json.canConvertToInt()) {
        codes.add(code.json.asInt());
      } else {
        code.error(code.path, Reasons.WRONG_TYPE, "expected an HTTP status");
      }
    }
    Optional<RetryPolicy.RateLimitedBackoff> rateLimited = retries.has("rateLimitedRetryBackOff")
        ? rateLimitedBackoff(retries.child("rateLimitedRetryBackOff")) : Optional.empty();
    // Gloo writes numRetries 0 (unset) as 1.
    int attempts = retries.integer("numRetries").filter(n -> n != 0).orElse(1);
    return Optional.of(new RetryPolicy(attempts, retries.duration("perTryTimeout"), retryOn, backoff, codes,
        rateLimited));
  }

  /** Gloo's {@code rateLimitedRetryBackOff}: Envoy's, field for field; a reset header's format defaults to SECONDS. */
  private static Optional<RetryPolicy.RateLimitedBackoff> rateLimitedBackoff(Node backoff) {
    backoff.protoNames().only("rateLimitedRetryBackOff", RATE_LIMITED_BACKOFF);
    List<RetryPolicy.ResetHeader> headers = new ArrayList<>();
    for (Node header : backoff.list("resetHeaders")) {
      header.only("reset header", RESET_HEADER);
      String name = header.requiredString("name").orElse("");
      String format = header.string("format").orElse("SECONDS");
      switch (format) {
        case "SECONDS", "0" -> headers.add(new RetryPolicy.ResetHeader(name, RetryPolicy.ResetFormat.SECONDS));
        case "UNIX_TIMESTAMP", "1" -> headers.add(new RetryPolicy.ResetHeader(name,
            RetryPolicy.ResetFormat.UNIX_TIMESTAMP));
        default -> header.error(header.at("format"), Reasons.INVALID_VALUE, "format is SECONDS or UNIX_TIMESTAMP, got "
            + format);
      }
    }
    if (headers.isEmpty()) {
      backoff.error(backoff.at("resetHeaders"), Reasons.MISSING_FIELD, "at least one reset header is required");
    }
    return Optional.of(new RetryPolicy.RateLimitedBackoff(headers, backoff.duration("maxInterval")));
  }

  static RouteOptions.HeaderManipulation headers(Node headers) {
    headers.only("headerManipulation", HEADERS);
    return new RouteOptions.HeaderManipulation(headerValues(headers, "requestHeadersToAdd"),
        headers.strings("requestHeadersToRemove"), headerValues(headers, "responseHeadersToAdd"),
        headers.strings("responseHeadersToRemove"));
  }

  private static List<RouteOptions.HeaderValue> headerValues(Node headers, String field) {
    List<RouteOptions.HeaderValue> out = new ArrayList<>();
    for (Node option : headers.list(field)) {
      option.only("header value option", HEADER_VALUE_OPTION);
      Node header = option.child("header").only("header", HEADER_VALUE);
      out.add(new RouteOptions.HeaderValue(header.requiredString("key").orElse(""),
          header.string("value").orElse(""), option.bool("append").orElse(true)));
    }
    return out;
  }

  static RouteOptions.Cors cors(Node cors) {
    cors.only("cors", CORS);
    Optional<Duration> maxAge = Optional.empty();
    Optional<String> age = cors.string("maxAge");
    if (age.isPresent()) {
      if (age.get().matches("\\d{1,9}")) {
        maxAge = Optional.of(Duration.ofSeconds(Long.parseLong(age.get())));
      } else {
        cors.error(cors.at("maxAge"), Reasons.INVALID_VALUE, "maxAge is a number of seconds, got \"" + age.get()
            + "\"");
      }
    }
    return new RouteOptions.Cors(cors.strings("allowOrigin"), cors.strings("allowOriginRegex"),
        cors.strings("allowMethods"), cors.strings("allowHeaders"), cors.strings("exposeHeaders"), maxAge,
        cors.bool("allowCredentials"));
  }

  private static RouteOptions.Faults faults(Node faults) {
    faults.only("faults", FAULTS);
    Optional<RouteOptions.Abort> abort = Optional.empty();
    if (faults.has("abort")) {
      Node node = faults.child("abort").only("abort", ABORT);
      abort = Optional.of(new RouteOptions.Abort(node.number("percentage").orElse(0.0), node.integer("httpStatus"),
          Optional.empty()));
    }
    Optional<RouteOptions.Delay> delay = Optional.empty();
    if (faults.has("delay")) {
      Node node = faults.child("delay").only("delay", DELAY);
      delay = node.duration("fixedDelay").map(d -> new RouteOptions.Delay(node.number("percentage").orElse(0.0), d));
      if (delay.isEmpty()) {
        node.error(node.at("fixedDelay"), Reasons.MISSING_FIELD, "fixedDelay is required");
      }
    }
    return new RouteOptions.Faults(abort, delay);
  }

  private static RouteOptions.HashPolicy hashPolicy(Node policy) {
    policy.only("hash policy", HASH_POLICY);
    boolean terminal = policy.bool("terminal").orElse(false);
    if (policy.has("header")) {
      return new RouteOptions.HeaderHash(policy.string("header").orElse(""), terminal);
    }
    if (policy.has("cookie")) {
      Node cookie = policy.child("cookie").only("cookie", COOKIE);
      return new RouteOptions.CookieHash(cookie.requiredString("name").orElse(""), cookie.duration("ttl"),
          cookie.string("path"), terminal);
    }
    if (!policy.bool("sourceIp").orElse(false)) {
      policy.error(policy.path, Reasons.MISSING_FIELD, "a hash policy has one of header, cookie, sourceIp");
    }
    return new RouteOptions.SourceIpHash(terminal);
  }

  /** Both sets of option fields. */
  static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new java.util.HashSet<>(a);
    all.addAll(b);
    return all;
  }
}
