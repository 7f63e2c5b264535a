package io.holdfast.xds.translate;

import com.google.protobuf.Any;
import com.google.protobuf.BoolValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.config.core.v3.RuntimeFractionalPercent;
import io.envoyproxy.envoy.config.route.v3.QueryParameterMatcher;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.extensions.filters.common.fault.v3.FaultDelay;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.FaultAbort;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatchAndSubstitute;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.holdfast.ir.RouteAction.Backoff;
import io.holdfast.ir.RouteAction.ForwardPolicy;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.RoutePolicies;
import io.holdfast.ir.RoutePolicies.Percent;
import io.holdfast.xds.translate.RouteTranslator.Flavor;
import java.util.List;

/**
 * The route policies of {@link RoutePolicies} on Envoy routes: header mutations and CORS on the route, faults
 * (CORS and fault configs go in {@code typed_per_filter_config}, under the names of the HTTP filters
 * {@link HttpFilters} puts in the connection manager), rewrites, timeouts, hashing, backoff and mirroring on the
 * route action. In the {@code GRPC} flavour CORS is left out: gRPC clients have no CORS filter and reject a route
 * whose per-filter config names a filter they lack.
 */
final class RoutePolicyTranslator {

  private RoutePolicyTranslator() {
  }

  /** Header mutations, CORS and faults of {@code route} on the Envoy route. */
  static void decorate(io.holdfast.ir.Route route, Route.Builder envoy, Flavor flavor) {
    RoutePolicies.HeaderMutation headers = route.headers();
    headers.requestAdd().forEach(h -> envoy.addRequestHeadersToAdd(header(h)));
    envoy.addAllRequestHeadersToRemove(headers.requestRemove());
    headers.responseAdd().forEach(h -> envoy.addResponseHeadersToAdd(header(h)));
    envoy.addAllResponseHeadersToRemove(headers.responseRemove());
    if (flavor == Flavor.ENVOY) {
      route.cors().ifPresent(cors -> envoy.putTypedPerFilterConfig(HttpFilters.CORS, Any.pack(cors(cors))));
      SecurityFilters.decorate(route, envoy);
    }
    if (route.action() instanceof io.holdfast.ir.RouteAction.Forwarding forwarding) {
      forwarding.policy().fault().ifPresent(fault ->
          envoy.putTypedPerFilterConfig(HttpFilters.FAULT, Any.pack(fault(fault))));
    }
  }

  static void queryParameters(RouteMatch match, io.envoyproxy.envoy.config.route.v3.RouteMatch.Builder envoy) {
    for (RouteMatch.QueryParameterMatch query : match.queryParameters()) {
      QueryParameterMatcher.Builder matcher = QueryParameterMatcher.newBuilder().setName(query.name());
      if (query.condition() instanceof RouteMatch.Exact exact) {
        matcher.setStringMatch(StringMatcher.newBuilder().setExact(exact.value()));
      } else if (query.condition() instanceof RouteMatch.Prefix prefix) {
        matcher.setStringMatch(StringMatcher.newBuilder().setPrefix(prefix.value()));
      } else if (query.condition() instanceof RouteMatch.Regex regex) {
        matcher.setStringMatch(StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder()
            .setRegex(regex.value())));
      } else {
        matcher.setPresentMatch(true);
      }
      envoy.addQueryParameters(matcher);
    }
  }

  /** The forwarding policies beyond timeout, retries and prefix rewrite. */
  static void forward(ForwardPolicy policy, RouteAction.Builder action) {
    policy.regexRewrite().ifPresent(rewrite -> action.setRegexRewrite(RegexMatchAndSubstitute.newBuilder()
        .setPattern(RegexMatcher.newBuilder().setRegex(rewrite.pattern()))
        .setSubstitution(rewrite.substitution())));
    policy.hostRewrite().ifPresent(host -> {
      if (host instanceof RoutePolicies.LiteralHost literal) {
        action.setHostRewriteLiteral(literal.host());
      } else {
        action.setAutoHostRewrite(BoolValue.of(true));
      }
      if (host.appendXForwardedHost()) {
        action.setAppendXForwardedHost(true);
      }
    });
    policy.idleTimeout().ifPresent(timeout -> action.setIdleTimeout(Protos.duration(timeout)));
    policy.maxStreamDuration().ifPresent(duration -> action.setMaxStreamDuration(
        RouteAction.MaxStreamDuration.newBuilder().setMaxStreamDuration(Protos.duration(duration))));
    for (RoutePolicies.HashPolicy hash : policy.hashPolicies()) {
      action.addHashPolicy(hashPolicy(hash));
    }
    policy.mirror().ifPresent(mirror -> action.addRequestMirrorPolicies(RouteAction.RequestMirrorPolicy.newBuilder()
        .setCluster(EnvoyNames.cluster(mirror.cluster()))
        .setRuntimeFraction(RuntimeFractionalPercent.newBuilder().setDefaultValue(fraction(mirror.percent())))));
  }

  static void backoff(Backoff backoff, RetryPolicy.Builder retries) {
    RetryPolicy.RetryBackOff.Builder envoy = RetryPolicy.RetryBackOff.newBuilder()
        .setBaseInterval(Protos.duration(backoff.baseInterval()));
    backoff.maxInterval().ifPresent(max -> envoy.setMaxInterval(Protos.duration(max)));
    retries.setRetryBackOff(envoy);
  }

  static void rateLimitedBackoff(io.holdfast.ir.RouteAction.RateLimitedBackoff backoff,
      RetryPolicy.Builder retries) {
    RetryPolicy.RateLimitedRetryBackOff.Builder envoy = RetryPolicy.RateLimitedRetryBackOff.newBuilder();
    for (io.holdfast.ir.RouteAction.ResetHeader header : backoff.resetHeaders()) {
      envoy.addResetHeaders(RetryPolicy.ResetHeader.newBuilder().setName(header.name())
          .setFormat(header.unixTimestamp() ? RetryPolicy.ResetHeaderFormat.UNIX_TIMESTAMP
              : RetryPolicy.ResetHeaderFormat.SECONDS));
    }
    backoff.maxInterval().ifPresent(max -> envoy.setMaxInterval(Protos.duration(max)));
    retries.setRateLimitedRetryBackOff(envoy);
  }

  /** Values are literal: Envoy reads {@code %} as the start of a substitution, so it is escaped as {@code %%}. */
  private static HeaderValueOption header(RoutePolicies.HeaderValue header) {
    return HeaderValueOption.newBuilder()
        .setHeader(HeaderValue.newBuilder().setKey(header.name()).setValue(header.value().replace("%", "%%")))
        .setAppendAction(header.append() ? HeaderValueOption.HeaderAppendAction.APPEND_IF_EXISTS_OR_ADD
            : HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)
        .build();
  }

  /**
   * The route's CORS policy. A preflight from an origin that is not allowed is answered by the proxy without the
   * allow headers and never forwarded ({@code forward_not_matching_preflights: false}; Envoy's default, true, would
   * hand it to the backend, which the Gateway API's CORS filter and its conformance tests rule out). The CORS
   * filter's answer to an allowed preflight passes through the filter's own response path, which adds
   * {@code access-control-expose-headers} from {@code expose_headers}, as on every other allowed response.
   */
  static CorsPolicy cors(RoutePolicies.Cors cors) {
    CorsPolicy.Builder envoy = CorsPolicy.newBuilder().setForwardNotMatchingPreflights(BoolValue.of(false));
    cors.origins().forEach(origin -> envoy.addAllowOriginStringMatch(StringMatcher.newBuilder().setExact(origin)));
    cors.originRegexes().forEach(regex -> envoy.addAllowOriginStringMatch(StringMatcher.newBuilder()
        .setSafeRegex(RegexMatcher.newBuilder().setRegex(regex))));
    joined(cors.methods()).ifPresent(envoy::setAllowMethods);
    joined(cors.headers()).ifPresent(envoy::setAllowHeaders);
    joined(cors.exposeHeaders()).ifPresent(envoy::setExposeHeaders);
    cors.maxAge().ifPresent(age -> envoy.setMaxAge(Long.toString(age.getSeconds())));
    cors.allowCredentials().ifPresent(allow -> envoy.setAllowCredentials(BoolValue.of(allow)));
    return envoy.build();
  }

  private static java.util.Optional<String> joined(List<String> values) {
    return values.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(String.join(",", values));
  }

  static HTTPFault fault(RoutePolicies.Fault fault) {
    HTTPFault.Builder envoy = HTTPFault.newBuilder();
    fault.abort().ifPresent(abort -> {
      FaultAbort.Builder envoyAbort = FaultAbort.newBuilder().setPercentage(fraction(abort.percent()));
      abort.httpStatus().ifPresent(envoyAbort::setHttpStatus);
      abort.grpcStatus().ifPresent(envoyAbort::setGrpcStatus);
      envoy.setAbort(envoyAbort);
    });
    fault.delay().ifPresent(delay -> envoy.setDelay(FaultDelay.newBuilder()
        .setFixedDelay(Protos.duration(delay.fixedDelay()))
        .setPercentage(fraction(delay.percent()))));
    return envoy.build();
  }

  private static RouteAction.HashPolicy hashPolicy(RoutePolicies.HashPolicy hash) {
    RouteAction.HashPolicy.Builder envoy = RouteAction.HashPolicy.newBuilder().setTerminal(hash.terminal());
    if (hash instanceof RoutePolicies.HeaderHash header) {
      envoy.setHeader(RouteAction.HashPolicy.Header.newBuilder().setHeaderName(header.header()));
    } else if (hash instanceof RoutePolicies.CookieHash cookie) {
      RouteAction.HashPolicy.Cookie.Builder envoyCookie = RouteAction.HashPolicy.Cookie.newBuilder()
          .setName(cookie.name());
      cookie.ttl().ifPresent(ttl -> envoyCookie.setTtl(Protos.duration(ttl)));
      cookie.path().ifPresent(envoyCookie::setPath);
      envoy.setCookie(envoyCookie);
    } else {
      envoy.setConnectionProperties(RouteAction.HashPolicy.ConnectionProperties.newBuilder().setSourceIp(true));
    }
    return envoy.build();
  }

  /** The coarsest denominator that states the share exactly, so configs read as operators write them. */
  private static FractionalPercent fraction(Percent percent) {
    int perMillion = percent.perMillion();
    if (perMillion % 10_000 == 0) {
      return FractionalPercent.newBuilder().setNumerator(perMillion / 10_000)
          .setDenominator(FractionalPercent.DenominatorType.HUNDRED).build();
    }
    if (perMillion % 100 == 0) {
      return FractionalPercent.newBuilder().setNumerator(perMillion / 100)
          .setDenominator(FractionalPercent.DenominatorType.TEN_THOUSAND).build();
    }
    return FractionalPercent.newBuilder().setNumerator(perMillion)
        .setDenominator(FractionalPercent.DenominatorType.MILLION).build();
  }
}
