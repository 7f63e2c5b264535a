package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.Fraction;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRouteFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPCORSFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeader;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPHeaderFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPPathModifier;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRequestMirrorFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRequestRedirectFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPURLRewriteFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.LocalObjectReference;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.InputLimits;
import io.holdfast.api.Re2Check;
import io.holdfast.api.Reasons;
import io.holdfast.frontend.gatewayapi.Backends.BackendProtocol;
import io.holdfast.ir.Origin;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RoutePolicies.Cors;
import io.holdfast.ir.RoutePolicies.HeaderMutation;
import io.holdfast.ir.RoutePolicies.HeaderValue;
import io.holdfast.ir.RoutePolicies.HostRewrite;
import io.holdfast.ir.RoutePolicies.LiteralHost;
import io.holdfast.ir.RoutePolicies.Mirror;
import io.holdfast.ir.RoutePolicies.Percent;
import io.holdfast.ir.RoutePolicies.RegexRewrite;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The filters of one route rule, read into what the IR applies: header mutations, a redirect, a URL rewrite, a
 * mirror. A filter Holdfast cannot apply sets {@link #unsupported()}: the rule then answers 500 (the spec forbids
 * skipping it) and the route reports Accepted=False. An {@code ExtensionRef} filter names a Holdfast policy
 * ({@link ExtensionRefs#KINDS}) in the route's namespace for this rule ({@link #policies()}); one naming another
 * kind or group is {@code InvalidKind}, one naming a policy that does not exist {@code BackendNotFound}: the route
 * then reports ResolvedRefs=False and the rule answers 500, as the spec asks of a custom filter that cannot be
 * resolved.
 */
record RuleFilters(HeaderMutation headers, Optional<Redirect> redirect, Optional<Rewrite> rewrite,
    Optional<Mirror> mirror, Optional<Cors> cors, boolean unsupported, RulePolicies policies) {

  static final String REQUEST_HEADER_MODIFIER = "RequestHeaderModifier";
  static final String RESPONSE_HEADER_MODIFIER = "ResponseHeaderModifier";
  static final String REQUEST_REDIRECT = "RequestRedirect";
  static final String URL_REWRITE = "URLRewrite";
  static final String REQUEST_MIRROR = "RequestMirror";
  static final String CORS = "CORS";
  /** The filter types of the specification's HTTPRouteFilter enum (standard and experimental channels). */
  static final List<String> HTTP_FILTER_TYPES = List.of(REQUEST_HEADER_MODIFIER, RESPONSE_HEADER_MODIFIER,
      REQUEST_REDIRECT, URL_REWRITE, REQUEST_MIRROR, CORS, "ExternalAuth", "ExtensionRef");
  /** The filter types of the specification's GRPCRouteFilter enum. */
  static final List<String> GRPC_FILTER_TYPES = List.of(REQUEST_HEADER_MODIFIER, RESPONSE_HEADER_MODIFIER,
      REQUEST_MIRROR, "ExtensionRef");
  /** The specification's default CORS maxAge. */
  static final int DEFAULT_CORS_MAX_AGE_SECONDS = 5;
  /** Rewrites a whole path (Envoy replaces every match of the pattern; anchored, it matches once). */
  static final String WHOLE_PATH = "^/.*$";

  /**
   * What reading filters needs from the rule's route: its namespace, backends, the bounds regexes it generates
   * must keep, and where problems go.
   */
  record Context(String namespace, Backends backends, BackendProtocol protocol, InputLimits limits,
      Consumer<AcceptedProblem> notAccepted, Consumer<ResolvedRefsProblem> problems, Set<ResourceKey> policies) {

    Context(String namespace, Backends backends, BackendProtocol protocol, InputLimits limits,
        Consumer<AcceptedProblem> notAccepted, Consumer<ResolvedRefsProblem> problems) {
      this(namespace, backends, protocol, limits, notAccepted, problems, Set.of());
    }
  }

  /**
   * A RequestRedirect filter; the prefix replacement becomes a prefix rewrite per match
   * ({@link #action(Optional)}).
   */
  record Redirect(Optional<String> scheme, Optional<String> host, Optional<Integer> port, Optional<String> fullPath,
      Optional<String> prefixReplacement, int statusCode) {

    /**
     * The spec: without a port, a scheme's well-known port, and Location leaves a scheme's well-known port out. A
     * port the proxy is given always appears in Location (Envoy appends it as is), so a scheme's well-known port,
     * written or implied, is left to the proxy, which drops the request's port when it was the old scheme's
     * default or the host is replaced.
     */
    RouteAction.Redirect action(Optional<String> prefixRewrite) {
      Optional<Integer> shownPort = port.filter(p -> scheme.isEmpty() || p != wellKnownPort(scheme.get()));
      return new RouteAction.Redirect(host, fullPath, prefixRewrite, statusCode, false, scheme, shownPort);
    }

    private static int wellKnownPort(String scheme) {
      return scheme.equals("https") ? 443 : 80;
    }
  }

  /** A URLRewrite filter. */
  record Rewrite(Optional<HostRewrite> host, Optional<RegexRewrite> fullPath, Optional<String> prefix) {
  }

  static RuleFilters http(List<HTTPRouteFilter> filters, Origin ruleOrigin, Context context) {
    Reader reader = new Reader(context);
    for (int i = 0; i < filters.size(); i++) {
      HTTPRouteFilter filter = filters.get(i);
      Origin origin = ruleOrigin.at("filters[" + i + "]");
      String type = filter.getType() == null ? "" : filter.getType();
      switch (type) {
        case REQUEST_HEADER_MODIFIER -> reader.requestHeaders(filter.getRequestHeaderModifier(), origin);
        case RESPONSE_HEADER_MODIFIER -> reader.responseHeaders(filter.getResponseHeaderModifier(), origin);
        case REQUEST_REDIRECT -> reader.redirect(filter.getRequestRedirect(), origin);
        case URL_REWRITE -> reader.rewrite(filter.getUrlRewrite(), origin);
        case REQUEST_MIRROR -> reader.mirror(filter.getRequestMirror(), origin);
        case CORS -> reader.cors(filter.getCors(), origin);
        case ExtensionRefs.TYPE -> reader.extension(filter.getExtensionRef(), origin);
        default -> reader.unsupportedType(origin.at("type"), type, HTTP_FILTER_TYPES);
      }
    }
    if (reader.redirect.isPresent() && reader.rewrite.isPresent()) {
      reader.unsupported(ruleOrigin.at("filters"), "RequestRedirect and URLRewrite cannot be used together");
    }
    return reader.result();
  }

  static RuleFilters grpc(List<GRPCRouteFilter> filters, Origin ruleOrigin, Context context) {
    Reader reader = new Reader(context);
    for (int i = 0; i < filters.size(); i++) {
      GRPCRouteFilter filter = filters.get(i);
      Origin origin = ruleOrigin.at("filters[" + i + "]");
      String type = filter.getType() == null ? "" : filter.getType();
      switch (type) {
        case REQUEST_HEADER_MODIFIER -> reader.requestHeaders(filter.getRequestHeaderModifier(), origin);
        case RESPONSE_HEADER_MODIFIER -> reader.responseHeaders(filter.getResponseHeaderModifier(), origin);
        case REQUEST_MIRROR -> reader.mirror(filter.getRequestMirror(), origin);
        case ExtensionRefs.TYPE -> reader.extension(filter.getExtensionRef(), origin);
        default -> reader.unsupportedType(origin.at("type"), type, GRPC_FILTER_TYPES);
      }
    }
    return reader.result();
  }

  /** Accumulates filters in order. */
  private static final class Reader {
    private final Context context;
    private final List<HeaderValue> requestAdd = new ArrayList<>();
    private final List<String> requestRemove = new ArrayList<>();
    private final List<HeaderValue> responseAdd = new ArrayList<>();
    private final List<String> responseRemove = new ArrayList<>();
    private Optional<Redirect> redirect = Optional.empty();
    private Optional<Rewrite> rewrite = Optional.empty();
    private Optional<Mirror> mirror = Optional.empty();
    private Optional<Cors> cors = Optional.empty();
    private Optional<ResourceKey> securityPolicy = Optional.empty();
    private Optional<ResourceKey> trafficPolicy = Optional.empty();
    private boolean unsupported;

    Reader(Context context) {
      this.context = context;
    }

    RuleFilters result() {
      return new RuleFilters(new HeaderMutation(requestAdd, requestRemove, responseAdd, responseRemove), redirect,
          rewrite, mirror, cors, unsupported, new RulePolicies(securityPolicy, trafficPolicy));
    }

    /**
     * An ExtensionRef filter: a SecurityPolicy or TrafficPolicy of the route's namespace for this rule, at most one
     * of each kind (two could only be merged field by field, which no policy does).
     */
    void extension(LocalObjectReference ref, Origin origin) {
      Origin field = origin.at("extensionRef");
      if (ref == null || ref.getName() == null || ref.getName().isEmpty() || ref.getKind() == null) {
        unsupported(field, "an ExtensionRef filter needs extensionRef with group, kind and name",
            Findings.MISSING_FIELD);
        return;
      }
      String group = ref.getGroup() == null ? "" : ref.getGroup();
      if (!group.equals(PolicyKinds.GROUP) || !ExtensionRefs.KINDS.contains(ref.getKind())) {
        unresolved(new ResolvedRefsProblem(BackendResolution.Reason.INVALID_KIND.reason(), "ExtensionRef "
            + (group.isEmpty() ? "" : group + "/") + ref.getKind() + " " + ref.getName() + " is not a kind Holdfast"
            + " implements; it takes a SecurityPolicy or TrafficPolicy of " + PolicyKinds.GROUP, field));
        return;
      }
      ResourceKey policy = new ResourceKey(PolicyKinds.GROUP, ref.getKind(), context.namespace(), ref.getName());
      if (!context.policies().contains(policy)) {
        unresolved(new ResolvedRefsProblem(BackendResolution.Reason.BACKEND_NOT_FOUND.reason(), ref.getKind() + " "
            + context.namespace() + "/" + ref.getName() + " named by an ExtensionRef filter does not exist", field));
        return;
      }
      boolean security = ref.getKind().equals(PolicyKinds.SECURITY_POLICY);
      Optional<ResourceKey> held = security ? securityPolicy : trafficPolicy;
      if (held.isPresent() && !held.get().equals(policy)) {
        unsupported(field, "a rule takes one " + ref.getKind() + " through ExtensionRef; it names "
            + held.get().name() + " and " + ref.getName());
        return;
      }
      if (security) {
        securityPolicy = Optional.of(policy);
      } else {
        trafficPolicy = Optional.of(policy);
      }
    }

    /** A reference that cannot be resolved: ResolvedRefs=False, and the rule answers 500 rather than skip it. */
    private void unresolved(ResolvedRefsProblem problem) {
      unsupported = true;
      context.problems().accept(problem);
    }

    void requestHeaders(HTTPHeaderFilter filter, Origin origin) {
      headers(filter, origin.at("requestHeaderModifier"), requestAdd, requestRemove);
    }

    void responseHeaders(HTTPHeaderFilter filter, Origin origin) {
      headers(filter, origin.at("responseHeaderModifier"), responseAdd, responseRemove);
    }

    /** {@code set} replaces a header's values, {@code add} appends a value, {@code remove} drops the header. */
    private void headers(HTTPHeaderFilter filter, Origin origin, List<HeaderValue> add, List<String> remove) {
      if (filter == null) {
        unsupported(origin, "the filter's configuration is missing");
        return;
      }
      for (HTTPHeader header : nullToEmpty(filter.getSet())) {
        headerValue(header, false, origin.at("set")).ifPresent(add::add);
      }
      for (HTTPHeader header : nullToEmpty(filter.getAdd())) {
        headerValue(header, true, origin.at("add")).ifPresent(add::add);
      }
      for (String name : nullToEmpty(filter.getRemove())) {
        if (name == null || name.isEmpty()) {
          unsupported(origin.at("remove"), "a header name must not be empty");
        } else {
          remove.add(name.toLowerCase(Locale.ROOT));
        }
      }
    }

    private Optional<HeaderValue> headerValue(HTTPHeader header, boolean append, Origin origin) {
      if (header.getName() == null || header.getName().isEmpty()) {
        unsupported(origin, "a header name must not be empty");
        return Optional.empty();
      }
      return Optional.of(new HeaderValue(header.getName().toLowerCase(Locale.ROOT),
          header.getValue() == null ? "" : header.getValue(), append));
    }

    void redirect(HTTPRequestRedirectFilter filter, Origin origin) {
      Origin field = origin.at("requestRedirect");
      if (filter == null) {
        unsupported(field, "the filter's configuration is missing");
        return;
      }
      if (redirect.isPresent()) {
        unsupported(field, "a rule has at most one RequestRedirect filter");
        return;
      }
      Optional<String> scheme = Optional.ofNullable(filter.getScheme()).map(s -> s.toLowerCase(Locale.ROOT));
      if (scheme.isPresent() && !scheme.get().equals("http") && !scheme.get().equals("https")) {
        unsupported(field.at("scheme"), "redirect scheme " + scheme.get() + " is not http or https",
            Findings.INVALID_ENUM);
        return;
      }
      int code = filter.getStatusCode() == null ? RouteRules.DEFAULT_REDIRECT_CODE : filter.getStatusCode();
      if (code != 301 && code != 302) {
        // 301 and 302 are the standard channel's enum; 303, 307, 308 the experimental channel's extension.
        unsupported(field.at("statusCode"), "redirect status code " + code + " is not 301 or 302",
            List.of(303, 307, 308).contains(code) ? AcceptedProblem.UNSUPPORTED_VALUE : Findings.INVALID_ENUM);
        return;
      }
      Optional<Integer> port = Optional.ofNullable(filter.getPort());
      if (port.isPresent() && (port.get() < 1 || port.get() > 65535)) {
        unsupported(field.at("port"), "redirect port " + port.get() + " is out of range 1-65535");
        return;
      }
      Optional<PathModifier> path = pathModifier(filter.getPath(), field.at("path"));
      if (path == null) {
        return;
      }
      redirect = Optional.of(new Redirect(scheme, Optional.ofNullable(filter.getHostname()), port,
          path.flatMap(PathModifier::fullPath), path.flatMap(PathModifier::prefix), code));
    }

    void rewrite(HTTPURLRewriteFilter filter, Origin origin) {
      Origin field = origin.at("urlRewrite");
      if (filter == null) {
        unsupported(field, "the filter's configuration is missing");
        return;
      }
      if (rewrite.isPresent()) {
        unsupported(field, "a rule has at most one URLRewrite filter");
        return;
      }
      Optional<PathModifier> path = pathModifier(filter.getPath(), field.at("path"));
      if (path == null) {
        return;
      }
      rewrite = Optional.of(new Rewrite(
          Optional.ofNullable(filter.getHostname()).filter(h -> !h.isEmpty()).map(LiteralHost::new),
          path.flatMap(PathModifier::fullPath).map(full -> new RegexRewrite(WHOLE_PATH, full)),
          path.flatMap(PathModifier::prefix)));
    }

    /** The path modifier; empty when absent, null when invalid (reported). */
    private Optional<PathModifier> pathModifier(HTTPPathModifier path, Origin field) {
      if (path == null) {
        return Optional.empty();
      }
      String type = path.getType() == null ? "" : path.getType();
      switch (type) {
        case "ReplaceFullPath" -> {
          String full = path.getReplaceFullPath() == null || path.getReplaceFullPath().isEmpty() ? "/"
              : path.getReplaceFullPath();
          return Optional.of(new PathModifier(Optional.of(full), Optional.empty()));
        }
        case "ReplacePrefixMatch" -> {
          String prefix = path.getReplacePrefixMatch() == null ? "/" : path.getReplacePrefixMatch();
          return Optional.of(new PathModifier(Optional.empty(), Optional.of(prefix)));
        }
        default -> {
          unsupported(field.at("type"), "path modifier type \"" + type + "\" is not one of ReplaceFullPath, "
              + "ReplacePrefixMatch", type.isEmpty() ? Findings.MISSING_FIELD : Findings.INVALID_ENUM);
          return null;
        }
      }
    }

    void mirror(HTTPRequestMirrorFilter filter, Origin origin) {
      Origin field = origin.at("requestMirror");
      if (filter == null || filter.getBackendRef() == null) {
        unsupported(field, "a RequestMirror filter needs a backendRef");
        return;
      }
      if (mirror.isPresent()) {
        // The IR mirrors to one cluster per route; a second mirror must not be silently dropped.
        unsupported(field, "Holdfast supports one RequestMirror filter per rule");
        return;
      }
      Optional<Percent> percent = percent(filter, field);
      if (percent.isEmpty()) {
        return;
      }
      Origin refField = field.at("backendRef");
      BackendResolution resolution = context.backends().resolve(context.namespace(),
          BackendReference.of(filter.getBackendRef()), context.protocol(), refField);
      if (resolution instanceof BackendResolution.Resolved resolved) {
        mirror = Optional.of(new Mirror(resolved.cluster(), percent.get()));
      } else if (resolution instanceof BackendResolution.Unresolved unresolved) {
        // Mirrored traffic has no answer to turn into a 500: the mirror is left out and the status says why.
        context.problems().accept(unresolved.problem(refField));
      }
    }

    private Optional<Percent> percent(HTTPRequestMirrorFilter filter, Origin field) {
      if (filter.getPercent() != null && filter.getFraction() != null) {
        unsupported(field, "percent and fraction cannot both be set");
        return Optional.empty();
      }
      if (filter.getPercent() != null) {
        int value = filter.getPercent();
        if (value < 0 || value > 100) {
          unsupported(field.at("percent"), "percent " + value + " is out of range 0-100");
          return Optional.empty();
        }
        return Optional.of(Percent.of(value));
      }
      Fraction fraction = filter.getFraction();
      if (fraction != null) {
        int numerator = fraction.getNumerator() == null ? 0 : fraction.getNumerator();
        int denominator = fraction.getDenominator() == null ? 100 : fraction.getDenominator();
        if (denominator < 1 || numerator < 0 || numerator > denominator) {
          unsupported(field.at("fraction"), "fraction " + numerator + "/" + denominator
              + " must have 0 <= numerator <= denominator and denominator >= 1");
          return Optional.empty();
        }
        return Optional.of(new Percent((int) ((long) numerator * Percent.MILLION / denominator)));
      }
      return Optional.of(Percent.ALL);
    }

    /**
     * A CORS filter: an origin with {@code *} (e.g. {@code https://*.example.test}, or {@code *} alone) becomes a
     * regex in which {@code *} stands for any characters; the rest is matched exactly.
     */
    void cors(HTTPCORSFilter filter, Origin origin) {
      Origin field = origin.at("cors");
      if (filter == null || nullToEmpty(filter.getAllowOrigins()).isEmpty()) {
        unsupported(field, "a CORS filter needs at least one allowOrigins entry");
        return;
      }
      List<String> exact = new ArrayList<>();
      List<String> regexes = new ArrayList<>();
      for (int i = 0; i < filter.getAllowOrigins().size(); i++) {
        String allowed = filter.getAllowOrigins().get(i);
        if (allowed.contains("*")) {
          List<String> parts = new ArrayList<>();
          for (String part : allowed.split("\\*", -1)) {
            parts.add(RouteRules.quote(part));
          }
          String regex = String.join(".*", parts);
          // The regex is ours, but its size is the user's: a long origin compiles past Envoy's program size
          // limit, and Envoy would NACK the whole route configuration for every tenant on the listener.
          Optional<Re2Check.Refusal> refusal = Re2Check.refusal(regex, context.limits());
          if (refusal.isPresent()) {
            unsupported(field.at("allowOrigins[" + i + "]"), "origin pattern " + refusal.get().message(),
                refusal.get().reason().equals(Reasons.REGEX_TOO_COMPLEX) ? Reasons.REGEX_TOO_COMPLEX
                    : AcceptedProblem.UNSUPPORTED_VALUE);
            return;
          }
          regexes.add(regex);
        } else {
          exact.add(allowed);
        }
      }
      int maxAge = filter.getMaxAge() == null ? DEFAULT_CORS_MAX_AGE_SECONDS : filter.getMaxAge();
      if (maxAge < 0) {
        unsupported(field.at("maxAge"), "maxAge " + maxAge + " is negative");
        return;
      }
      cors = Optional.of(new Cors(exact, regexes,
          nullToEmpty(filter.getAllowMethods()).stream().map(m -> m.toUpperCase(Locale.ROOT)).toList(),
          nullToEmpty(filter.getAllowHeaders()), nullToEmpty(filter.getExposeHeaders()),
          Optional.of(java.time.Duration.ofSeconds(maxAge)), Optional.ofNullable(filter.getAllowCredentials())));
    }

    void unsupported(Origin field, String message) {
      unsupported(field, message, AcceptedProblem.UNSUPPORTED_VALUE);
    }

    void unsupported(Origin field, String message, String finding) {
      unsupported = true;
      context.notAccepted().accept(new AcceptedProblem(AcceptedProblem.UNSUPPORTED_VALUE, message, field, finding));
    }

    /**
     * A filter type Holdfast does not implement: a value of the specification's enum that Holdfast leaves out
     * (ExternalAuth) is UnsupportedValue, anything else an invalid enum value, a missing one a missing field.
     */
    void unsupportedType(Origin field, String type, List<String> specified) {
      String finding = type.isEmpty() ? Findings.MISSING_FIELD
          : specified.contains(type) ? AcceptedProblem.UNSUPPORTED_VALUE : Findings.INVALID_ENUM;
      unsupported(field, type.isEmpty() ? "a filter needs a type" : "filter type \"" + type + "\" is not supported",
          finding);
    }

    private static <T> List<T> nullToEmpty(List<T> list) {
      return list == null ? List.of() : list;
    }
  }

  private record PathModifier(Optional<String> fullPath, Optional<String> prefix) {
  }
}
