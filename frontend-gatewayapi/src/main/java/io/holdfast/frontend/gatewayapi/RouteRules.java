package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCBackendRef;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCHeaderMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCMethodMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteRule;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPBackendRef;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeaderMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPPathMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPQueryParamMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRule;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteTimeouts;
import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.Backends.BackendProtocol;
import io.holdfast.frontend.gatewayapi.Precedence.PathType;
import io.holdfast.frontend.gatewayapi.Precedence.Specificity;
import io.holdfast.ir.Origin;
import io.holdfast.api.Re2Check;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteAction.ForwardPolicy;
import io.holdfast.ir.RouteAction.WeightedCluster;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.RouteMatch.HeaderMatch;
import io.holdfast.ir.RouteMatch.PathMatch;
import io.holdfast.ir.RouteMatch.QueryParameterMatch;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lowers the rules of one HTTPRoute or GRPCRoute into IR routes (one per rule match, two for a path prefix other
 * than {@code /}) ranked by the Gateway API's precedence. Hostnames and parents are the caller's: the same lowered
 * routes serve every host the route attaches to.
 *
 * <p>Following the specification, a rule whose backends all fail to resolve (or weigh 0, or that has none and
 * does not redirect) answers 500. A field Holdfast cannot honour (a filter type, retry, sessionPersistence, an
 * invalid regex) is reported in {@link LoweredRoute#notAccepted()} (Accepted=False, UnsupportedValue; the front end
 * then leaves the route unprogrammed); a rule holding a filter it cannot apply answers 500 rather than skip it. A path prefix matches whole path segments
 * ({@code /foo} matches {@code /foo} and {@code /foo/bar}, not {@code /foobar}); it is lowered as an exact match
 * of the prefix plus a prefix match of the prefix and a slash, which Envoy and gRPC clients both evaluate without
 * a regex.
 */
public final class RouteRules {

  static final int DEFAULT_WEIGHT = 1;
  static final int DEFAULT_REDIRECT_CODE = 302;
  static final int INTERNAL_ERROR = 500;
  private static final String DEFAULT_PATH = "/";

  private RouteRules() {
  }

  /** The rules of an HTTPRoute, under the default {@link InputLimits}. */
  public static LoweredRoute http(HTTPRoute route, ResourceKey key, Backends backends) {
    return http(route, key, backends, InputLimits.DEFAULTS);
  }

  /** The rules of an HTTPRoute; regexes over {@code limits} are {@code RegexTooComplex}. */
  public static LoweredRoute http(HTTPRoute route, ResourceKey key, Backends backends, InputLimits limits) {
    return http(route, key, backends, limits, Set.of());
  }

  /**
   * The rules of an HTTPRoute.
   *
   * @param policies the Holdfast policies that exist, which ExtensionRef filters may name
   */
  static LoweredRoute http(HTTPRoute route, ResourceKey key, Backends backends, InputLimits limits,
      Set<ResourceKey> policies) {
    Lowering lowering = new Lowering(key, createdAt(route.getMetadata()), limits, policies);
    List<HTTPRouteRule> rules = route.getSpec() == null ? null : route.getSpec().getRules();
    // The CRD defaults an absent rule list to one rule matching every path; it has no backends, so it answers 500.
    List<HTTPRouteRule> effective = rules == null || rules.isEmpty() ? List.of(new HTTPRouteRule()) : rules;
    for (int i = 0; i < effective.size(); i++) {
      lowering.httpRule(effective.get(i), i, backends);
    }
    return lowering.result();
  }

  /** The rules of a GRPCRoute, under the default {@link InputLimits}. */
  public static LoweredRoute grpc(GRPCRoute route, ResourceKey key, Backends backends) {
    return grpc(route, key, backends, InputLimits.DEFAULTS);
  }

  /** The rules of a GRPCRoute; regexes over {@code limits} are {@code RegexTooComplex}. */
  public static LoweredRoute grpc(GRPCRoute route, ResourceKey key, Backends backends, InputLimits limits) {
    return grpc(route, key, backends, limits, Set.of());
  }

  /** The rules of a GRPCRoute, whose ExtensionRef filters may name the Holdfast {@code policies} that exist. */
  static LoweredRoute grpc(GRPCRoute route, ResourceKey key, Backends backends, InputLimits limits,
      Set<ResourceKey> policies) {
    Lowering lowering = new Lowering(key, createdAt(route.getMetadata()), limits, policies);
    List<GRPCRouteRule> rules = route.getSpec() == null ? null : route.getSpec().getRules();
    List<GRPCRouteRule> effective = rules == null || rules.isEmpty() ? List.of(new GRPCRouteRule()) : rules;
    for (int i = 0; i < effective.size(); i++) {
      lowering.grpcRule(effective.get(i), i, backends);
    }
    return lowering.result();
  }

  /** The creationTimestamp, if present and readable (RFC 3339, as the API server writes it). */
  static Optional<Instant> createdAt(ObjectMeta metadata) {
    if (metadata == null || metadata.getCreationTimestamp() == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(metadata.getCreationTimestamp()));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** The state of lowering one route: its routes so far and what its status must report. */
  private static final class Lowering {
    private final ResourceKey key;
    private final Optional<Instant> createdAt;
    private final List<RankedRoute> routes = new ArrayList<>();
    private final List<ResolvedRefsProblem> problems = new ArrayList<>();
    private final List<AcceptedProblem> notAccepted = new ArrayList<>();
    private final InputLimits limits;
    private final Set<ResourceKey> policies;

    Lowering(ResourceKey key, Optional<Instant> createdAt, InputLimits limits, Set<ResourceKey> policies) {
      this.key = key;
      this.createdAt = createdAt;
      this.limits = limits;
      this.policies = policies;
    }

    LoweredRoute result() {
      return new LoweredRoute(routes, problems, notAccepted);
    }

    void httpRule(HTTPRouteRule rule, int ruleIndex, Backends backends) {
      Origin ruleOrigin = Origin.of(key).at("spec.rules[" + ruleIndex + "]");
      RuleFilters filters = RuleFilters.http(nullToEmpty(rule.getFilters()), ruleOrigin, context(backends, BackendProtocol.HTTP));
      List<Ref> refs = httpRefs(rule, ruleOrigin, backends);
      RulePolicies rulePolicies = rulePolicies(filters.policies(), refs, ruleOrigin);
      Optional<RouteAction> backendAction = filters.redirect().isPresent() ? Optional.empty()
          : Optional.of(forwardTargets(refs, BackendProtocol.HTTP, backends));
      Optional<ForwardPolicy> timeouts = timeouts(rule.getTimeouts(), ruleOrigin);
      if (rule.getRetry() != null) {
        unsupported(ruleOrigin.at("retry"), "retry is not supported");
      }
      if (rule.getSessionPersistence() != null) {
        unsupported(ruleOrigin.at("sessionPersistence"), "sessionPersistence is not supported");
      }
      List<HTTPRouteMatch> matches = nullToEmpty(rule.getMatches());
      List<HTTPRouteMatch> effective = matches.isEmpty() ? List.of(new HTTPRouteMatch()) : matches;
      for (int j = 0; j < effective.size(); j++) {
        Origin origin = ruleOrigin.at("matches[" + j + "]");
        Optional<HttpMatch> match = httpMatch(effective.get(j), origin);
        if (match.isEmpty()) {
          continue;
        }
        for (PathVariant variant : match.get().paths()) {
          Optional<RouteAction> action = httpAction(filters, backendAction, timeouts, variant, origin);
          if (action.isEmpty()) {
            continue;
          }
          RouteMatch irMatch = new RouteMatch(variant.path(), match.get().headers(), match.get().methods(),
              match.get().queryParameters());
          Route route = new Route(origin, routeName(ruleIndex, j) + variant.suffix(), irMatch, action.get(),
              filters.headers(), filters.cors());
          routes.add(new RankedRoute(route, new Precedence(match.get().specificity(), createdAt, key, ruleIndex,
              j), rulePolicies));
        }
      }
    }

    void grpcRule(GRPCRouteRule rule, int ruleIndex, Backends backends) {
      Origin ruleOrigin = Origin.of(key).at("spec.rules[" + ruleIndex + "]");
      RuleFilters filters = RuleFilters.grpc(nullToEmpty(rule.getFilters()), ruleOrigin, context(backends, BackendProtocol.GRPC));
      List<Ref> refs = grpcRefs(rule, ruleOrigin, backends);
      RulePolicies rulePolicies = rulePolicies(filters.policies(), refs, ruleOrigin);
      RouteAction action = forwardTargets(refs, BackendProtocol.GRPC, backends);
      if (rule.getSessionPersistence() != null) {
        unsupported(ruleOrigin.at("sessionPersistence"), "sessionPersistence is not supported");
      }
      if (filters.unsupported()) {
        action = internalError();
      } else if (action instanceof RouteAction.Forwarding forwarding) {
        action = withPolicy(forwarding, mirrorPolicy(filters));
      }
      List<GRPCRouteMatch> matches = nullToEmpty(rule.getMatches());
      List<GRPCRouteMatch> effective = matches.isEmpty() ? List.of(new GRPCRouteMatch()) : matches;
      for (int j = 0; j < effective.size(); j++) {
        Origin origin = ruleOrigin.at("matches[" + j + "]");
        Optional<GrpcMatch> match = grpcMatch(effective.get(j), origin);
        if (match.isEmpty()) {
          continue;
        }
        Route route = new Route(origin, routeName(ruleIndex, j), new RouteMatch(match.get().path(),
            match.get().headers(), List.of()), action, filters.headers(), Optional.empty());
        routes.add(new RankedRoute(route, new Precedence(match.get().specificity(), createdAt, key, ruleIndex, j),
            rulePolicies));
      }
    }

    private String routeName(int rule, int match) {
      return key.kind().toLowerCase(Locale.ROOT) + "/" + key.namespace() + "/" + key.name() + "/rule/" + rule
          + "/match/" + match;
    }

    // ---- matches

    private Optional<HttpMatch> httpMatch(HTTPRouteMatch match, Origin origin) {
      HTTPPathMatch path = match.getPath();
      String type = path == null || path.getType() == null ? "PathPrefix" : path.getType();
      String value = path == null || path.getValue() == null ? DEFAULT_PATH : path.getValue();
      List<PathVariant> paths;
      PathType pathType;
      switch (type) {
        case "Exact" -> {
          pathType = PathType.EXACT;
          paths = List.of(new PathVariant(new PathMatch.Exact(value), "", VariantKind.EXACT));
        }
        case "PathPrefix" -> {
          pathType = PathType.PATH_PREFIX;
          paths = segmentPrefix(value);
        }
        case "RegularExpression" -> {
          pathType = PathType.REGULAR_EXPRESSION;
          if (!validRegex(value, origin.at("path.value"))) {
            return Optional.empty();
          }
          paths = List.of(new PathVariant(new PathMatch.Regex(value), "", VariantKind.REGEX));
        }
        default -> {
          unsupported(origin.at("path.type"), "path match type " + type + " is not one of Exact, PathPrefix, "
              + "RegularExpression", Findings.INVALID_ENUM);
          return Optional.empty();
        }
      }
      if (!value.startsWith("/") && pathType != PathType.REGULAR_EXPRESSION) {
        unsupported(origin.at("path.value"), "path " + value + " does not start with /");
        return Optional.empty();
      }
      Optional<List<HeaderMatch>> headers = headerMatches(nullToEmpty(match.getHeaders()).stream()
          .map(h -> new NameTypeValue(h.getName(), h.getType(), h.getValue())).toList(), origin);
      Optional<List<QueryParameterMatch>> query = queryMatches(nullToEmpty(match.getQueryParams()), origin);
      if (headers.isEmpty() || query.isEmpty()) {
        return Optional.empty();
      }
      List<String> methods = match.getMethod() == null ? List.of()
          : List.of(match.getMethod().toUpperCase(Locale.ROOT));
      Specificity specificity = new Specificity.Http(pathType, value.length(), !methods.isEmpty(),
          headers.get().size(), query.get().size());
      return Optional.of(new HttpMatch(paths, headers.get(), methods, query.get(), specificity));
    }

    /** {@code /foo} (or {@code /foo/}, the trailing slash is ignored) as {@code = /foo} or {@code /foo/...}. */
    private static List<PathVariant> segmentPrefix(String value) {
      String trimmed = value;
      while (trimmed.length() > 1 && trimmed.endsWith("/")) {
        trimmed = trimmed.substring(0, trimmed.length() - 1);
      }
      if (trimmed.equals("/") || trimmed.isEmpty()) {
        return List.of(new PathVariant(new PathMatch.Prefix("/"), "", VariantKind.ROOT_PREFIX));
      }
      return List.of(new PathVariant(new PathMatch.Exact(trimmed), "/exact", VariantKind.SEGMENT_EXACT),
          new PathVariant(new PathMatch.Prefix(trimmed + "/"), "/prefix", VariantKind.SEGMENT_PREFIX));
    }

    private Optional<GrpcMatch> grpcMatch(GRPCRouteMatch match, Origin origin) {
      Optional<List<HeaderMatch>> headers = headerMatches(nullToEmpty(match.getHeaders()).stream()
          .map(h -> new NameTypeValue(h.getName(), h.getType(), h.getValue())).toList(), origin);
      if (headers.isEmpty()) {
        return Optional.empty();
      }
      GRPCMethodMatch method = match.getMethod();
      String service = method == null ? null : emptyToNull(method.getService());
      String name = method == null ? null : emptyToNull(method.getMethod());
      String type = method == null || method.getType() == null ? "Exact" : method.getType();
      PathMatch path;
      if (service == null && name == null) {
        path = new PathMatch.Prefix("/");
      } else if (type.equals("Exact")) {
        if (service != null && name != null) {
          path = new PathMatch.Exact("/" + service + "/" + name);
        } else if (service != null) {
          path = new PathMatch.Prefix("/" + service + "/");
        } else {
          path = new PathMatch.Regex("/[^/]+/" + quote(name));
        }
      } else if (type.equals("RegularExpression")) {
        if ((service != null && !validRegex(service, origin.at("method.service")))
            || (name != null && !validRegex(name, origin.at("method.method")))) {
          return Optional.empty();
        }
        // Each part must match a whole path segment: grouped so alternations stay inside their segment.
        path = new PathMatch.Regex("/(" + (service == null ? "[^/]+" : service) + ")/("
            + (name == null ? "[^/]+" : name) + ")");
      } else {
        unsupported(origin.at("method.type"), "method match type " + type + " is not one of Exact, "
            + "RegularExpression", Findings.INVALID_ENUM);
        return Optional.empty();
      }
      Specificity specificity = new Specificity.Grpc(service == null ? 0 : service.length(),
          name == null ? 0 : name.length(), headers.get().size());
      return Optional.of(new GrpcMatch(path, headers.get(), specificity));
    }

    /** Header matches; a name repeated (case-insensitively) counts only at its first entry, as the spec says. */
    private Optional<List<HeaderMatch>> headerMatches(List<NameTypeValue> headers, Origin origin) {
      Map<String, HeaderMatch> byName = new LinkedHashMap<>();
      for (int k = 0; k < headers.size(); k++) {
        NameTypeValue header = headers.get(k);
        Origin field = origin.at("headers[" + k + "]");
        if (header.name() == null || header.name().isEmpty()) {
          unsupported(field.at("name"), "a header match needs a name", Findings.MISSING_FIELD);
          return Optional.empty();
        }
        String name = header.name().toLowerCase(Locale.ROOT);
        Optional<RouteMatch.Condition> condition = condition(header, field);
        if (condition.isEmpty()) {
          return Optional.empty();
        }
        byName.putIfAbsent(name, new HeaderMatch(name, condition.get(), false));
      }
      return Optional.of(List.copyOf(byName.values()));
    }

    /** Query parameter matches; names are case-sensitive, a repeated one counts only at its first entry. */
    private Optional<List<QueryParameterMatch>> queryMatches(List<HTTPQueryParamMatch> params, Origin origin) {
      Map<String, QueryParameterMatch> byName = new LinkedHashMap<>();
      for (int k = 0; k < params.size(); k++) {
        HTTPQueryParamMatch param = params.get(k);
        Origin field = origin.at("queryParams[" + k + "]");
        if (param.getName() == null || param.getName().isEmpty()) {
          unsupported(field.at("name"), "a query parameter match needs a name", Findings.MISSING_FIELD);
          return Optional.empty();
        }
        Optional<RouteMatch.Condition> condition =
            condition(new NameTypeValue(param.getName(), param.getType(), param.getValue()), field);
        if (condition.isEmpty()) {
          return Optional.empty();
        }
        byName.putIfAbsent(param.getName(), new QueryParameterMatch(param.getName(), condition.get()));
      }
      return Optional.of(List.copyOf(byName.values()));
    }

    private Optional<RouteMatch.Condition> condition(NameTypeValue match, Origin field) {
      String type = match.type() == null ? "Exact" : match.type();
      String value = match.value() == null ? "" : match.value();
      return switch (type) {
        case "Exact" -> Optional.of(new RouteMatch.Exact(value));
        case "RegularExpression" -> validRegex(value, field.at("value"))
            ? Optional.of(new RouteMatch.Regex(value)) : Optional.empty();
        default -> {
          unsupported(field.at("type"), "match type " + type + " is not one of Exact, RegularExpression",
              Findings.INVALID_ENUM);
          yield Optional.empty();
        }
      };
    }

    private boolean validRegex(String regex, Origin field) {
      if (regex.isEmpty()) {
        unsupported(field, "empty regular expression");
        return false;
      }
      Optional<Re2Check.Refusal> refusal = Re2Check.refusal(regex, limits);
      refusal.ifPresent(r -> notAccepted.add(new AcceptedProblem(r.reason().equals(Reasons.REGEX_TOO_COMPLEX)
          ? r.reason() : AcceptedProblem.UNSUPPORTED_VALUE, r.message(), field)));
      return refusal.isEmpty();
    }

    // ---- actions

    private Optional<RouteAction> httpAction(RuleFilters filters, Optional<RouteAction> backendAction,
        Optional<ForwardPolicy> timeouts, PathVariant variant, Origin origin) {
      if (filters.unsupported()) {
        return Optional.of(internalError());
      }
      Optional<String> prefixReplacement = filters.redirect().isPresent()
          ? filters.redirect().get().prefixReplacement() : filters.rewrite().flatMap(RuleFilters.Rewrite::prefix);
      Optional<String> prefixRewrite = Optional.empty();
      if (prefixReplacement.isPresent()) {
        prefixRewrite = variant.prefixRewrite(prefixReplacement.get());
        if (prefixRewrite.isEmpty()) {
          unsupported(origin.at("path"), "ReplacePrefixMatch needs a PathPrefix path match");
          return Optional.of(internalError());
        }
      }
      if (filters.redirect().isPresent()) {
        return Optional.of(filters.redirect().get().action(prefixRewrite));
      }
      RouteAction action = backendAction.orElseThrow();
      if (!(action instanceof RouteAction.Forwarding forwarding)) {
        return Optional.of(action);
      }
      ForwardPolicy base = timeouts.orElse(ForwardPolicy.NONE);
      Optional<RuleFilters.Rewrite> rewrite = filters.rewrite();
      ForwardPolicy policy = new ForwardPolicy(base.timeout(), base.retries(), prefixRewrite,
          rewrite.flatMap(RuleFilters.Rewrite::fullPath), rewrite.flatMap(RuleFilters.Rewrite::host),
          Optional.empty(), Optional.empty(), Optional.empty(), List.of(), filters.mirror());
      return Optional.of(withPolicy(forwarding, policy));
    }

    private static ForwardPolicy mirrorPolicy(RuleFilters filters) {
      return new ForwardPolicy(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
          Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(), filters.mirror());
    }

    private static RouteAction withPolicy(RouteAction.Forwarding forwarding, ForwardPolicy policy) {
      if (forwarding instanceof RouteAction.Forward forward) {
        return new RouteAction.Forward(forward.cluster(), policy);
      }
      return new RouteAction.Split(((RouteAction.Split) forwarding).targets(), policy);
    }

    private Optional<ForwardPolicy> timeouts(HTTPRouteTimeouts timeouts, Origin ruleOrigin) {
      if (timeouts == null) {
        return Optional.empty();
      }
      Optional<Duration> request = duration(timeouts.getRequest(), ruleOrigin.at("timeouts.request"));
      Optional<Duration> backend = duration(timeouts.getBackendRequest(), ruleOrigin.at("timeouts.backendRequest"));
      // backendRequest bounds each try to the backend: a retry policy of no retries with that per-try timeout.
      Optional<RouteAction.Retries> retries = backend.filter(d -> !d.isZero())
          .map(d -> new RouteAction.Retries(0, Optional.of(d), List.of()));
      return Optional.of(new ForwardPolicy(request, retries, Optional.empty()));
    }

    private Optional<Duration> duration(String value, Origin field) {
      if (value == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(GatewayDurations.parse(value));
      } catch (IllegalArgumentException e) {
        unsupported(field, e.getMessage());
        return Optional.empty();
      }
    }

    // ---- backends

    private List<Ref> httpRefs(HTTPRouteRule rule, Origin ruleOrigin, Backends backends) {
      List<HTTPBackendRef> refs = nullToEmpty(rule.getBackendRefs());
      List<Ref> result = new ArrayList<>();
      for (int k = 0; k < refs.size(); k++) {
        HTTPBackendRef ref = refs.get(k);
        Origin origin = ruleOrigin.at("backendRefs[" + k + "]");
        List<HTTPRouteFilter> filters = nullToEmpty(ref.getFilters());
        boolean others = filters.stream().anyMatch(f -> !ExtensionRefs.TYPE.equals(f.getType()));
        Optional<RuleFilters> extensions = others || filters.isEmpty() ? Optional.empty()
            : Optional.of(RuleFilters.http(filters, origin, context(backends, BackendProtocol.HTTP)));
        result.add(ref(BackendReference.of(ref), ref.getWeight(), origin, others, extensions));
      }
      return result;
    }

    private List<Ref> grpcRefs(GRPCRouteRule rule, Origin ruleOrigin, Backends backends) {
      List<GRPCBackendRef> refs = nullToEmpty(rule.getBackendRefs());
      List<Ref> result = new ArrayList<>();
      for (int k = 0; k < refs.size(); k++) {
        GRPCBackendRef ref = refs.get(k);
        Origin origin = ruleOrigin.at("backendRefs[" + k + "]");
        List<GRPCRouteFilter> filters = nullToEmpty(ref.getFilters());
        boolean others = filters.stream().anyMatch(f -> !ExtensionRefs.TYPE.equals(f.getType()));
        Optional<RuleFilters> extensions = others || filters.isEmpty() ? Optional.empty()
            : Optional.of(RuleFilters.grpc(filters, origin, context(backends, BackendProtocol.GRPC)));
        result.add(ref(BackendReference.of(ref), ref.getWeight(), origin, others, extensions));
      }
      return result;
    }

    /**
     * A backendRef: filters other than ExtensionRef are not supported there; ExtensionRef filters naming policies
     * are read like a rule's, and one that cannot be resolved makes the rule answer 500.
     */
    private Ref ref(BackendReference reference, Integer weight, Origin origin, boolean otherFilters,
        Optional<RuleFilters> extensions) {
      if (otherFilters) {
        unsupported(origin.at("filters"), "filters on a backendRef are not supported, but for ExtensionRef to a"
            + " Holdfast policy; put them on the rule");
      }
      boolean fails = otherFilters || extensions.map(RuleFilters::unsupported).orElse(false);
      return new Ref(reference, weight(weight), origin, fails,
          extensions.map(RuleFilters::policies).orElse(RulePolicies.NONE));
    }

    /**
     * The policies of a rule: those its own ExtensionRef filters name, else those its backendRefs name. Envoy applies
     * them per route, not per backend, so every backendRef of the rule must name the same ones, and a rule's and a
     * backendRef's policy of one kind must be the same policy; otherwise the route is not accepted.
     */
    private RulePolicies rulePolicies(RulePolicies rule, List<Ref> refs, Origin ruleOrigin) {
      if (refs.stream().allMatch(r -> r.policies().isEmpty())) {
        return rule;
      }
      RulePolicies first = refs.get(0).policies();
      if (refs.stream().anyMatch(r -> !r.policies().equals(first))) {
        unsupported(ruleOrigin.at("backendRefs"), "the backendRefs of a rule name different policies through"
            + " ExtensionRef; Envoy applies them to the whole rule: name them on the rule or on every backendRef");
        return rule;
      }
      if (conflicts(rule.security(), first.security()) || conflicts(rule.traffic(), first.traffic())) {
        unsupported(ruleOrigin.at("filters"), "the rule and its backendRefs name different policies of one kind"
            + " through ExtensionRef");
        return rule;
      }
      return new RulePolicies(rule.security().or(first::security), rule.traffic().or(first::traffic));
    }

    private static boolean conflicts(Optional<ResourceKey> a, Optional<ResourceKey> b) {
      return a.isPresent() && b.isPresent() && !a.equals(b);
    }

    private static int weight(Integer weight) {
      return weight == null ? DEFAULT_WEIGHT : weight;
    }

    /**
     * Resolves every reference (so each failure is reported, even at weight 0) and forwards to the resolved ones
     * by weight; 500 when none is left. A failed reference's weight share is not kept: the IR's split has no
     * "answer 500" target, so the resolved backends share all traffic.
     */
    private RouteAction forwardTargets(List<Ref> refs, BackendProtocol protocol, Backends backends) {
      Map<ResourceKey, Integer> weights = new LinkedHashMap<>();
      boolean refFilters = false;
      for (Ref ref : refs) {
        refFilters |= ref.hasFilters();
        BackendResolution resolution = backends.resolve(key.namespace(), ref.reference(), protocol, ref.origin());
        if (resolution instanceof BackendResolution.Resolved resolved) {
          if (ref.weight() > 0) {
            weights.merge(resolved.cluster(), ref.weight(), Integer::sum);
          }
        } else if (resolution instanceof BackendResolution.Unresolved unresolved) {
          problems.add(unresolved.problem(ref.origin()));
        }
      }
      if (weights.isEmpty() || refFilters) {
        return internalError();
      }
      if (weights.size() == 1) {
        return new RouteAction.Forward(weights.keySet().iterator().next(), ForwardPolicy.NONE);
      }
      return new RouteAction.Split(weights.entrySet().stream()
          .map(e -> new WeightedCluster(e.getKey(), e.getValue())).toList(), ForwardPolicy.NONE);
    }

    private RuleFilters.Context context(Backends backends, BackendProtocol protocol) {
      return new RuleFilters.Context(key.namespace(), backends, protocol, limits, notAccepted::add, problems::add,
          policies);
    }

    private void unsupported(Origin field, String message) {
      unsupported(field, message, AcceptedProblem.UNSUPPORTED_VALUE);
    }

    private void unsupported(Origin field, String message, String finding) {
      notAccepted.add(new AcceptedProblem(AcceptedProblem.UNSUPPORTED_VALUE, message, field, finding));
    }
  }

  static RouteAction internalError() {
    return new RouteAction.DirectResponse(INTERNAL_ERROR, Optional.empty());
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  /** {@code literal} as an RE2 regex matching exactly it. */
  static String quote(String literal) {
    StringBuilder quoted = new StringBuilder();
    for (char c : literal.toCharArray()) {
      if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
        quoted.append('\\');
      }
      quoted.append(c);
    }
    return quoted.toString();
  }

  private record NameTypeValue(String name, String type, String value) {
  }

  /** @param hasFilters whether the backendRef holds a filter that cannot be applied (the rule answers 500) */
  private record Ref(BackendReference reference, int weight, Origin origin, boolean hasFilters,
      RulePolicies policies) {
  }

  private record HttpMatch(List<PathVariant> paths, List<HeaderMatch> headers, List<String> methods,
      List<QueryParameterMatch> queryParameters, Specificity specificity) {
  }

  private record GrpcMatch(PathMatch path, List<HeaderMatch> headers, Specificity specificity) {
  }

  /** How one IR path match stands for the written one; a prefix replacement depends on it. */
  private enum VariantKind {
    EXACT, REGEX, ROOT_PREFIX, SEGMENT_EXACT, SEGMENT_PREFIX
  }

  /** One IR path match of a written path match, and the suffix of its route name. */
  private record PathVariant(PathMatch path, String suffix, VariantKind kind) {

    /**
     * What replaces the matched part of the path so that the written prefix ends up replaced by
     * {@code replacement}, the slash after it kept once; empty when the match is not a prefix match.
     */
    Optional<String> prefixRewrite(String replacement) {
      String trimmed = replacement.endsWith("/") ? replacement.substring(0, replacement.length() - 1) : replacement;
      return switch (kind) {
        case SEGMENT_EXACT -> Optional.of(trimmed.isEmpty() ? "/" : trimmed);
        case SEGMENT_PREFIX, ROOT_PREFIX -> Optional.of(trimmed + "/");
        case EXACT, REGEX -> Optional.empty();
      };
    }
  }
}
