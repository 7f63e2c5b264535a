package io.holdfast.frontend.holdfast;

import io.holdfast.api.QueryParameterMatch;
import io.holdfast.api.RetryPolicy;
import io.holdfast.api.Route;
import io.holdfast.api.RouteMatch;
import io.holdfast.api.RouteOptions;
import io.holdfast.api.VirtualHostOptions;
import io.holdfast.ir.RouteAction.Backoff;
import io.holdfast.ir.RouteAction.ForwardPolicy;
import io.holdfast.ir.RouteAction.Retries;
import io.holdfast.ir.RoutePolicies;
import io.holdfast.ir.RoutePolicies.Percent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Lowers route options into the IR, merging the VirtualService's defaults into each route: a route's own retries
 * and CORS policy replace the defaults; header mutations add up, the route's value winning for a header both add.
 * The IR thus holds the effective policy of every route, which is what both Envoy and gRPC clients need (gRPC
 * clients read no virtual-host retry policy). Pure.
 */
final class LoweringOptions {

  private LoweringOptions() {
  }

  static List<io.holdfast.ir.RouteMatch.QueryParameterMatch> queryParameters(RouteMatch match) {
    return match.queryParameters().stream().map(q -> new io.holdfast.ir.RouteMatch.QueryParameterMatch(q.name(),
        condition(q.condition()))).toList();
  }

  private static io.holdfast.ir.RouteMatch.Condition condition(QueryParameterMatch.Condition c) {
    if (c instanceof QueryParameterMatch.Exact exact) {
      return new io.holdfast.ir.RouteMatch.Exact(exact.value());
    }
    if (c instanceof QueryParameterMatch.Regex regex) {
      return new io.holdfast.ir.RouteMatch.Regex(regex.value());
    }
    return new io.holdfast.ir.RouteMatch.Present(((QueryParameterMatch.Present) c).present());
  }

  /** Policies of a forwarding route (validation warns where options are given on other routes). */
  static ForwardPolicy policy(Route route, VirtualHostOptions defaults, String namespace) {
    RouteOptions options = route.options();
    Optional<RoutePolicies.HostRewrite> hostRewrite = options.hostRewrite()
        .<RoutePolicies.HostRewrite>map(host -> new RoutePolicies.LiteralHost(host, options.appendXForwardedHost()))
        .or(() -> options.autoHostRewrite() ? Optional.of(new RoutePolicies.UpstreamHost(
            options.appendXForwardedHost())) : Optional.empty());
    return new ForwardPolicy(route.timeout(), route.retries().or(defaults::retries).map(LoweringOptions::retries),
        route.prefixRewrite(),
        options.regexRewrite().map(r -> new RoutePolicies.RegexRewrite(r.pattern(), r.substitution())),
        hostRewrite, options.idleTimeout(), options.maxStreamDuration(), options.faults().map(LoweringOptions::fault),
        options.hashPolicies().stream().map(LoweringOptions::hashPolicy).toList(),
        options.mirror().map(m -> new RoutePolicies.Mirror(Lowering.upstream(m.upstream(), namespace),
            Percent.of(m.percentage()))));
  }

  private static Retries retries(RetryPolicy r) {
    return new Retries(r.attempts(), r.perTryTimeout(), r.retryOn(),
        r.backoff().map(b -> new Backoff(b.baseInterval(), b.maxInterval())), r.retriableStatusCodes(),
        r.rateLimitedBackoff().map(b -> new io.holdfast.ir.RouteAction.RateLimitedBackoff(b.resetHeaders().stream()
            .map(h -> new io.holdfast.ir.RouteAction.ResetHeader(h.name(),
                h.format() == RetryPolicy.ResetFormat.UNIX_TIMESTAMP)).toList(), b.maxInterval())));
  }

  private static RoutePolicies.Fault fault(RouteOptions.Faults faults) {
    return new RoutePolicies.Fault(
        faults.abort().map(a -> new RoutePolicies.Abort(Percent.of(a.percentage()), a.httpStatus(), a.grpcStatus())),
        faults.delay().map(d -> new RoutePolicies.Delay(Percent.of(d.percentage()), d.fixedDelay())));
  }

  private static RoutePolicies.HashPolicy hashPolicy(RouteOptions.HashPolicy policy) {
    if (policy instanceof RouteOptions.HeaderHash header) {
      return new RoutePolicies.HeaderHash(lower(header.header()), header.terminal());
    }
    if (policy instanceof RouteOptions.CookieHash cookie) {
      return new RoutePolicies.CookieHash(cookie.name(), cookie.ttl(), cookie.path(), cookie.terminal());
    }
    return new RoutePolicies.SourceIpHash(policy.terminal());
  }

  static RoutePolicies.Cors cors(RouteOptions.Cors cors) {
    return new RoutePolicies.Cors(cors.allowOrigin(), cors.allowOriginRegex(), cors.allowMethods(),
        cors.allowHeaders(), cors.exposeHeaders(), cors.maxAge(), cors.allowCredentials());
  }

  /** The defaults' mutations, then the route's; a header the route adds drops the defaults' entries for it. */
  static RoutePolicies.HeaderMutation headers(Optional<RouteOptions.HeaderManipulation> defaults,
      Optional<RouteOptions.HeaderManipulation> own) {
    if (defaults.isEmpty() && own.isEmpty()) {
      return RoutePolicies.HeaderMutation.NONE;
    }
    RouteOptions.HeaderManipulation none = new RouteOptions.HeaderManipulation(List.of(), List.of(), List.of(),
        List.of());
    RouteOptions.HeaderManipulation base = defaults.orElse(none);
    RouteOptions.HeaderManipulation route = own.orElse(none);
    return new RoutePolicies.HeaderMutation(
        adds(base.requestHeadersToAdd(), route.requestHeadersToAdd()),
        removes(base.requestHeadersToRemove(), route.requestHeadersToRemove()),
        adds(base.responseHeadersToAdd(), route.responseHeadersToAdd()),
        removes(base.responseHeadersToRemove(), route.responseHeadersToRemove()));
  }

  private static List<RoutePolicies.HeaderValue> adds(List<RouteOptions.HeaderValue> base,
      List<RouteOptions.HeaderValue> route) {
    Set<String> overridden = new LinkedHashSet<>();
    route.forEach(h -> overridden.add(lower(h.name())));
    List<RoutePolicies.HeaderValue> out = new ArrayList<>();
    base.stream().filter(h -> !overridden.contains(lower(h.name())))
        .forEach(h -> out.add(new RoutePolicies.HeaderValue(lower(h.name()), h.value(), h.append())));
    route.forEach(h -> out.add(new RoutePolicies.HeaderValue(lower(h.name()), h.value(), h.append())));
    return out;
  }

  private static List<String> removes(List<String> base, List<String> route) {
    Set<String> names = new LinkedHashSet<>();
    base.forEach(name -> names.add(lower(name)));
    route.forEach(name -> names.add(lower(name)));
    return List.copyOf(names);
  }

  private static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
