package io.holdfast.xds.translate;

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
import io.holdfast.xds.model.HeaderMatch;
import io.holdfast.xds.model.HttpMethod;
import io.holdfast.xds.model.ObjectRef;
import io.holdfast.xds.model.PathMatch;
import io.holdfast.xds.model.ResourceKey;
import io.holdfast.xds.model.VirtualService;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** VirtualService to an Envoy virtual host, in one of two flavours. */
final class RouteTranslator {

  /**
   * {@code ENVOY} for gateway listeners. {@code GRPC} for proxyless-gRPC API listeners, which differs in three
   * ways. Redirect and direct-response routes become {@code non_forwarding_action}: grpc-java rejects a whole
   * RouteConfiguration containing them, and gRPC clients fail matching calls with UNAVAILABLE (gRFC A36), so
   * these routes still shadow later ones as in Envoy. Leaving them out instead would let those calls fall
   * through to a later route (a route meant to block a path would then forward it), so they stay, with a
   * warning (Reasons.GRPC_NON_FORWARDING_ROUTE) since one gRPC client crashes on the action. Methods are not
   * matched on {@code :method}, a pseudo-header gRPC clients treat as absent: gRPC calls are always POST, so a
   * route whose methods include POST matches them without it and one whose methods do not is left out. And a
   * route timeout is also set as {@code max_stream_duration}, the field gRPC clients read.
   */
  enum Flavor {
    ENVOY, GRPC
  }

  private RouteTranslator() {
  }

  static VirtualHost virtualHost(VirtualService vs, Flavor flavor) {
    VirtualHost.Builder host = VirtualHost.newBuilder()
        .setName(EnvoyNames.virtualHost(vs.key()))
        .addAllDomains(vs.domains());
    for (int i = 0; i < vs.routes().size(); i++) {
      io.holdfast.xds.model.Route route = vs.routes().get(i);
      if (flavor == Flavor.GRPC && !route.match().admitsGrpcCalls()) {
        continue;
      }
      host.addRoutes(route(route, i, vs.metadata().namespace(), flavor));
    }
    return host.build();
  }

  private static Route route(io.holdfast.xds.model.Route route, int index, String namespace, Flavor flavor) {
    Route.Builder envoy = Route.newBuilder()
        .setName(route.name().orElse("routes[" + index + "]"))
        .setMatch(match(route.match(), flavor));
    io.holdfast.xds.model.RouteAction action = route.action();
    if (action instanceof io.holdfast.xds.model.RouteAction.Forward
        || action instanceof io.holdfast.xds.model.RouteAction.Split) {
      envoy.setRoute(forward(route, namespace, flavor));
    } else if (flavor == Flavor.GRPC) {
      envoy.setNonForwardingAction(NonForwardingAction.getDefaultInstance());
    } else if (action instanceof io.holdfast.xds.model.RouteAction.Redirect redirect) {
      envoy.setRedirect(redirect(redirect));
    } else if (action instanceof io.holdfast.xds.model.RouteAction.DirectResponse direct) {
      DirectResponseAction.Builder response = DirectResponseAction.newBuilder().setStatus(direct.status());
      direct.body().ifPresent(body -> response.setBody(DataSource.newBuilder().setInlineString(body)));
      envoy.setDirectResponse(response);
    }
    return envoy.build();
  }

  private static RouteMatch match(io.holdfast.xds.model.RouteMatch match, Flavor flavor) {
    RouteMatch.Builder envoy = RouteMatch.newBuilder();
    PathMatch path = match.path().orElse(new PathMatch.Prefix("/"));
    if (path instanceof PathMatch.Prefix prefix) {
      envoy.setPrefix(prefix.value());
    } else if (path instanceof PathMatch.Exact exact) {
      envoy.setPath(exact.value());
    } else {
      envoy.setSafeRegex(RegexMatcher.newBuilder().setRegex(path.value()));
    }
    for (HeaderMatch header : match.headers()) {
      envoy.addHeaders(header(header));
    }
    List<HttpMethod> methods = flavor == Flavor.GRPC
        ? List.of() : match.methods().stream().distinct().sorted().toList();
    if (methods.size() == 1) {
      envoy.addHeaders(HeaderMatcher.newBuilder().setName(":method")
          .setStringMatch(StringMatcher.newBuilder().setExact(methods.get(0).name())));
    } else if (methods.size() > 1) {
      String alternatives = methods.stream().map(Enum::name).collect(Collectors.joining("|"));
      envoy.addHeaders(HeaderMatcher.newBuilder().setName(":method")
          .setStringMatch(StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex(alternatives))));
    }
    return envoy.build();
  }

  private static HeaderMatcher header(HeaderMatch header) {
    HeaderMatcher.Builder envoy = HeaderMatcher.newBuilder()
        .setName(header.name().toLowerCase(Locale.ROOT))
        .setInvertMatch(header.invert());
    HeaderMatch.Condition condition = header.condition();
    if (condition instanceof HeaderMatch.Exact exact) {
      envoy.setStringMatch(StringMatcher.newBuilder().setExact(exact.value()));
    } else if (condition instanceof HeaderMatch.Prefix prefix) {
      envoy.setStringMatch(StringMatcher.newBuilder().setPrefix(prefix.value()));
    } else if (condition instanceof HeaderMatch.Regex regex) {
      envoy.setStringMatch(StringMatcher.newBuilder().setSafeRegex(RegexMatcher.newBuilder().setRegex(regex.value())));
    } else if (condition instanceof HeaderMatch.Present present) {
      envoy.setPresentMatch(present.present());
    }
    return envoy.build();
  }

  private static RouteAction forward(io.holdfast.xds.model.Route route, String namespace, Flavor flavor) {
    RouteAction.Builder action = RouteAction.newBuilder();
    if (route.action() instanceof io.holdfast.xds.model.RouteAction.Split split) {
      WeightedCluster.Builder clusters = WeightedCluster.newBuilder();
      for (io.holdfast.xds.model.RouteAction.WeightedTarget target : split.targets()) {
        clusters.addClusters(WeightedCluster.ClusterWeight.newBuilder()
            .setName(clusterName(target.upstream(), namespace))
            .setWeight(UInt32Value.of(target.weight())));
      }
      action.setWeightedClusters(clusters);
    } else {
      action.setCluster(clusterName(route.action().upstreams().get(0), namespace));
    }
    route.timeout().ifPresent(timeout -> {
      action.setTimeout(Protos.duration(timeout));
      if (flavor == Flavor.GRPC && !timeout.isZero()) {
        action.setMaxStreamDuration(RouteAction.MaxStreamDuration.newBuilder()
            .setMaxStreamDuration(Protos.duration(timeout)));
      }
    });
    route.retries().ifPresent(retries -> {
      RetryPolicy.Builder policy = RetryPolicy.newBuilder()
          .setRetryOn(String.join(",", retries.retryOn()))
          .setNumRetries(UInt32Value.of(retries.attempts()));
      retries.perTryTimeout().ifPresent(t -> policy.setPerTryTimeout(Protos.duration(t)));
      action.setRetryPolicy(policy);
    });
    route.prefixRewrite().ifPresent(action::setPrefixRewrite);
    return action.build();
  }

  private static RedirectAction redirect(io.holdfast.xds.model.RouteAction.Redirect redirect) {
    RedirectAction.Builder envoy = RedirectAction.newBuilder();
    redirect.host().ifPresent(envoy::setHostRedirect);
    redirect.path().ifPresent(envoy::setPathRedirect);
    redirect.prefixRewrite().ifPresent(envoy::setPrefixRewrite);
    if (redirect.httpsRedirect()) {
      envoy.setHttpsRedirect(true);
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

  private static String clusterName(ObjectRef upstream, String namespace) {
    return EnvoyNames.cluster(upstream.resolve(ResourceKey.UPSTREAM, namespace));
  }
}
