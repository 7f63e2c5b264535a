package io.holdfast.xds.translate;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.RouteTraffic;
import io.holdfast.ir.SocketOptions;
import io.holdfast.ir.VirtualHost;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Hand-built IR with traffic options, translated and checked against Envoy's validation rules. */
final class TrafficFixtures {

  static final ResourceKey UPSTREAM = ResourceKey.upstream("demo", "echo");
  static final ResourceKey LOGS = ResourceKey.upstream("demo", "als");
  static final ResourceKey GATEWAY = ResourceKey.gateway("demo", "gw");
  static final ResourceKey ROUTES = ResourceKey.virtualService("demo", "web");

  private TrafficFixtures() {
  }

  static Cluster cluster(ResourceKey key) {
    return new Cluster(Origin.of(key), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
        List.of(new Cluster.WeightedEndpoint("127.0.0.1", 8080, 1)));
  }

  static Route route(String name, RouteAction action, RouteTraffic traffic) {
    return new Route(Origin.of(ROUTES).at("spec.routes[0]"), name,
        new RouteMatch(new RouteMatch.PathMatch.Prefix("/" + name), List.of(), List.of()), action,
        io.holdfast.ir.RoutePolicies.HeaderMutation.NONE, Optional.empty(), traffic);
  }

  static Route route(String name, RouteTraffic traffic) {
    return route(name, new RouteAction.Forward(UPSTREAM, RouteAction.ForwardPolicy.NONE), traffic);
  }

  /** One gateway socket with one HTTP chain of {@code routes}, translated and checked. */
  static Translation translate(SocketOptions socket, HttpListenerOptions options, List<Route> routes,
      List<Cluster> clusters) {
    Origin gateway = Origin.of(GATEWAY);
    io.holdfast.ir.Listener.Socket listener = new io.holdfast.ir.Listener.Socket(gateway, "0.0.0.0", 8080,
        List.of(new io.holdfast.ir.Listener.FilterChain.Http(gateway, "http", io.holdfast.ir.Listener.ChainMatch.ANY,
            Optional.empty(), List.of(new VirtualHost(Origin.of(ROUTES), List.of("*"), routes)), options)),
        io.holdfast.ir.Listener.DEFAULT_PROXY_NAMES, socket);
    return EnvoyConstraints.checked(new Translator().translate(new Ir(List.of(listener), clusters, List.of())));
  }

  static Listener listener(Translation translation) {
    return (Listener) translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).values().iterator().next();
  }

  static HttpConnectionManager hcm(Translation translation) throws Exception {
    return listener(translation).getFilterChains(0).getFilters(0).getTypedConfig()
        .unpack(HttpConnectionManager.class);
  }

  static RouteConfiguration routes(Translation translation) {
    return (RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL).values().iterator()
        .next();
  }
}
