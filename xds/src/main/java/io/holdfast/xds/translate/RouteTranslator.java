package io.holdfast.xds.translate;

import com.google.protobuf.BoolValue;
import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.config.route.v3.DirectResponseAction;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.NonForwardingAction;
import io.envoyproxy.envoy.config.route.v3.RedirectAction;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteAction;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.config.route.v3.WeightedCluster;
import io.envoyproxy.envoy.type.matcher.v3.RegexMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.holdfast.ir.RouteAction.DirectResponse;
import io.holdfast.ir.RouteAction.ForwardPolicy;
import io.holdfast.ir.RouteAction.Forwarding;
import io.holdfast.ir.RouteAction.Redirect;
import io.holdfast.ir.RouteAction.Split;
import io.holdfast.ir.RouteMatch.Condition;
import io.holdfast.ir.RouteMatch.Exact;
import io.holdfast.ir.RouteMatch.HeaderMatch;
import io.holdfast.ir.RouteMatch.PathMatch;
import io.holdfast.ir.RouteMatch.Prefix;
import io.holdfast.ir.RouteMatch.Present;
import io.holdfast.ir.RouteMatch.Regex;
import java.util.List;

/** An IR virtual host to an Envoy virtual host, in one of two flavours. */
final class RouteTranslator {

  /** gRPC calls are always POST. */
  private static final String GRPC_METHOD = "POST";

  /**
   * {@code ENVOY} for socket listeners. {@code GRPC} for proxyless-gRPC client listeners (and the route matches
   * of gRPC server listeners, {@link GrpcServerListeners}), which differs in these ways. Redirect and direct-response routes become {@code non_forwarding_action}: grpc-java rejects a whole
   * RouteConfiguration containing them, and gRPC clients fail matching calls with UNAVAILABLE (gRFC A36), so
   * these routes still shadow later ones as in Envoy. Leaving them out instead would let those calls fall
   * through to a later route (a route meant to block a path would then forward it), so they stay, with a
   * warning (Reasons.GRPC_NON_FORWARDING_ROUTE) since one gRPC client crashes on the action. Methods are not
   * matched on {@code :method}, a pseudo-header gRPC clients treat as absent: gRPC calls are always POST, so a
   * route whose methods include POST matches them without it and one whose methods do not is left out (as is one
   * matching query parameters: gRPC calls have no query string). A route timeout is also set as
   * {@code max_stream_duration}, the field gRPC clients read, unless the route sets that itself. CORS
   * policies are left out ({@link RoutePolicyTranslator}). And a prefix or exact path always states
   * {@code case_sensitive}: grpc-java reads the field unset as false (its {@code parsePathMatcher} takes
   * {@code getCaseSensitive().getValue()}) where Envoy's default is true, so leaving it out would let a call
   * differing only in case take, or bypass, a route. A regex never states it: Envoy ignores the field there and
   * grpc-java matches a regex case-sensitively whatever it says.
   */
  enum Flavor {
    ENVOY, GRPC
  }

  private RouteTranslator() {
  }

  static VirtualHost virtualHost(io.holdfast.ir.VirtualHost host, Flavor flavor) {
    VirtualHost.Builder envoy = VirtualHost.newBuilder()
        .setName(EnvoyNames.virtualHost(host))
        .addAllDomains(host.domains());
    for (io.holdfast.ir.Route route : host.routes()) {
      if (flavor == Flavor.GRPC && !matchesGrpcCalls(route)) {
        continue; // gRPC calls are POST and have no query string: such routes never match them
      }
      envoy.addRoutes(route(route, flavor));
    }
    return envoy.build();
  }

  /** False for a route no gRPC call can match: one without POST among its methods, or matching query parameters. */
  static boolean matchesGrpcCalls(io.holdfast.ir.Route route) {
    return route.match().admitsMethod(GRPC_METHOD) && route.match().queryParameters().isEmpty();
  }

  private static Route route(io.holdfast.ir.Route route, Flavor flavor) {
    Route.Builder envoy = Route.newBuilder()
        .setName(route.name())
        .setMatch(match(route.match(), flavor));
    io.holdfast.ir.RouteAction action = route.action();
    if (action instanceof Forwarding forwarding) {
      envoy.setRoute(forward(forwarding, flavor));
    } else if (flavor == Flavor.GRPC) {
      envoy.setNonForwardingAction(NonForwardingAction.getDefaultInstance());
    } else if (action instanceof Redirect redirect) {
      envoy.setRedirect(redirect(redirect));
    } else if (action instanceof DirectResponse direct) {
      DirectResponseAction.Builder response = DirectResponseAction.newBuilder().setStatus(direct.status());
      direct.body().ifPresent(body -> response.setBody(DataSource.newBuilder().setInlineString(body)));
      envoy.setDirectResponse(response);
    }
    RoutePolicyTranslator.decorate(route, envoy, flavor);
    if (flavor == Flavor.ENVOY) {
      TrafficFilters.decorate(route, envoy);
      ExtProcFilters.decorate(route, envoy);
    }
    return envoy.build();
  }

  static RouteMatch match(io.holdfast.ir.RouteMatch match, Flavor flavor) {
    RouteMatch.Builder envoy = RouteMatch.newBuilder();
    PathMatch path = match.path();
    if (path instanceof PathMatch.Prefix prefix) {
      envoy.setPrefix(prefix.value());
    } else if (path instanceof PathMatch.Exact exact) {
      envoy.setPath(exact.value());
    } else {
      envoy.setSafeRegex(RegexMatcher.newBuilder().setRegex(path.value()));
    }
    if (flavor == Flavor.GRPC && !(path instanceof PathMatch.Regex)) {
      envoy.setCaseSensitive(BoolValue.of(path.caseSensitive())); // always: gRPC clients read unset as false
    } else if (!path.caseSensitive()) {
      envoy.setCaseSensitive(BoolValue.of(false)); // only when false: Envoy's default is true
    }
    for (HeaderMatch header : match.headers()) {
      envoy.addHeaders(header(header));
    }
    RoutePolicyTranslator.queryParameters(match, envoy);
    List<String> methods = flavor == Flavor.GRPC ? List.of() : match.methods();
    if (methods.size() == 1) {
      envoy.addHeaders(HeaderMatcher.newBuilder().setName(":method")
          .setStringMatch(StringMatcher.newBuilder().setExact(methods.get(0))));
    } else if (methods.size() > 1) {
      envoy.addHeaders(HeaderMatcher.newBuilder().setName(":method")
          .setStringMatch(StringMatcher.newBuilder()
              .setSafeRegex(RegexMatcher.newBuilder().setRegex(String.join("|", methods)))));
    }
    return envoy.build();
  }

  static HeaderMatcher header(HeaderMatch header) {
    HeaderMatcher.Builder envoy = HeaderMatcher.newBuilder()
        .setName(header.name())
        .setInvertMatch(header.invert());
    Condition condition = header.condition();
    if (condition instanceof Exact exact) {
      envoy.setStringMatch(StringMatcher.newBuilder().setExact(exact.value()));
    } else if (condition instanceof Prefix prefix) {
      envoy.setStringMatch(StringMatcher.newBuilder().setPrefix(prefix.value()));
    } else if (condition instanceof Regex regex) {
      envoy.setStringMatch(StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex(regex.value())));
    } else if (condition instanceof Present present) {
      envoy.setPresentMatch(present.present());
    }
    return envoy.build();
  }

  private static RouteAction forward(Forwarding forwarding, Flavor flavor) {
    RouteAction.Builder action = RouteAction.newBuilder();
    if (forwarding instanceof Split split) {
      WeightedCluster.Builder clusters = WeightedCluster.newBuilder();
      for (io.holdfast.ir.RouteAction.WeightedCluster target : split.targets()) {
        clusters.addClusters(WeightedCluster.ClusterWeight.newBuilder()
            .setName(EnvoyNames.cluster(target.cluster()))
            .setWeight(UInt32Value.of(target.weight())));
      }
      action.setWeightedClusters(clusters);
    } else {
      action.setCluster(EnvoyNames.cluster(forwarding.clusters().get(0)));
    }
    ForwardPolicy policy = forwarding.policy();
    policy.timeout().ifPresent(timeout -> {
      action.setTimeout(Protos.duration(timeout));
      if (flavor == Flavor.GRPC && !timeout.isZero()) {
        action.setMaxStreamDuration(RouteAction.MaxStreamDuration.newBuilder()
            .setMaxStreamDuration(Protos.duration(timeout)));
      }
    });
    policy.retries().ifPresent(retries -> {
      RetryPolicy.Builder envoy = RetryPolicy.newBuilder()
          .setRetryOn(String.join(",", retries.retryOn()))
          .setNumRetries(UInt32Value.of(retries.attempts()));
      retries.perTryTimeout().ifPresent(t -> envoy.setPerTryTimeout(Protos.duration(t)));
      retries.backoff().ifPresent(backoff -> RoutePolicyTranslator.backoff(backoff, envoy));
      retries.retriableStatusCodes().forEach(envoy::addRetriableStatusCodes);
      retries.rateLimitedBackoff().ifPresent(backoff -> RoutePolicyTranslator.rateLimitedBackoff(backoff, envoy));
      action.setRetryPolicy(envoy);
    });
    policy.prefixRewrite().ifPresent(action::setPrefixRewrite);
    RoutePolicyTranslator.forward(policy, action);
    return action.build();
  }

  private static RedirectAction redirect(Redirect redirect) {
    RedirectAction.Builder envoy = RedirectAction.newBuilder();
    redirect.host().ifPresent(envoy::setHostRedirect);
    redirect.path().ifPresent(envoy::setPathRedirect);
    redirect.prefixRewrite().ifPresent(envoy::setPrefixRewrite);
    if (redirect.httpsRedirect()) {
      envoy.setHttpsRedirect(true);
    }
    redirect.scheme().ifPresent(envoy::setSchemeRedirect);
    redirect.port().ifPresent(envoy::setPortRedirect);
    if (redirect.stripQuery()) {
      envoy.setStripQuery(true);
    }
    envoy.setResponseCode(switch (redirect.responseCode()) {
      case 302 -> RedirectAction.RedirectResponseCode.FOUND;
      case 303 -> RedirectAction.RedirectResponseCode.SEE_OTHER;
      case 307 -> RedirectAction.RedirectResponseCode.TEMPORARY_REDIRECT;
      case 308 -> RedirectAction.RedirectResponseCode.PERMANENT_REDIRECT;
      default -> RedirectAction.RedirectResponseCode.MOVED_PERMANENTLY;
    });
    return envoy.build();
  }
}
