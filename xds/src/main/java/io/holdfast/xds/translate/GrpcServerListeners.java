package io.holdfast.xds.translate;

import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.rbac.v3.RBAC;
import io.envoyproxy.envoy.config.route.v3.NonForwardingAction;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.Listener.Socket;
import io.holdfast.ir.RouteSecurity;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Socket listeners served to proxyless gRPC servers ({@link io.holdfast.ir.Listener.DataPlane#GRPC_SERVER}), in
 * the shape grpc-java's {@code XdsServerWrapper} accepts (gRFC A36): the listener on the server's address and port
 * (it must equal the server's own, else the server does not serve), no listener filters, one filter chain per IR
 * chain with a connection manager fetching its routes over ADS, and no connection-manager options (gRPC servers
 * refuse {@code xff_num_trusted_hops}). The only HTTP filters are RBAC (gRFC A41), when some route has rules, and
 * the Router; any other filter a gRPC server does not implement would make it reject the whole listener.
 *
 * <p>Every route carries {@code non_forwarding_action}: a gRPC server handles the calls a route matches itself
 * and fails them with UNAVAILABLE for any other action. A route's authorisation rules go in its RBAC per-route
 * config. A route that also requires what gRPC servers do not perform (a JWT, external authorisation) or whose
 * rules name a header gRPC's RBAC refuses ({@code grpc-*}, {@code :scheme}: the server would reject the whole route
 * configuration) denies every call instead: fail closed, as the front end warns (GrpcServerDeniesRoute).
 */
final class GrpcServerListeners {

  /** An ALLOW policy set with no policies: no call is allowed. */
  private static final RBACPerRoute DENY_ALL = RBACPerRoute.newBuilder()
      .setRbac(io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC.newBuilder()
          .setRules(RBAC.newBuilder().setAction(RBAC.Action.ALLOW)))
      .build();

  private GrpcServerListeners() {
  }

  /** The listener of a gRPC server socket; {@code socket} is one of those (the IR guarantees plain HTTP chains). */
  static Listener listener(Socket socket) {
    String name = EnvoyNames.socket(socket);
    Listener.Builder listener = ListenerTranslator.bound(socket);
    for (io.holdfast.ir.Listener.FilterChain chain : socket.filterChains()) {
      io.holdfast.ir.Listener.FilterChain.Http http = (io.holdfast.ir.Listener.FilterChain.Http) chain;
      String routes = EnvoyNames.chainRoutes(socket, chain);
      List<HttpFilter> filters = http.virtualHosts().stream()
          .flatMap(host -> host.routes().stream())
          .anyMatch(route -> RouteTranslator.matchesGrpcCalls(route) && perRoute(route).isPresent())
          ? List.of(HttpFilter.newBuilder().setName(SecurityFilters.RBAC_FILTER)
              .setTypedConfig(Protos.pack(
                  io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC.getDefaultInstance())).build())
          : List.of();
      FilterChain.Builder out = FilterChain.newBuilder();
      if (!routes.equals(name)) {
        out.setName(chain.name());
      }
      listener.addFilterChains(out.addFilters(Filter.newBuilder()
          .setName(ListenerTranslator.HCM_FILTER)
          .setTypedConfig(Protos.pack(ListenerTranslator.connectionManager(routes, routes, filters,
              HttpListenerOptions.NONE)))));
    }
    return listener.build();
  }

  /**
   * A virtual host of a gRPC server listener: its routes that can match gRPC calls (see
   * {@link RouteTranslator#matchesGrpcCalls}), each with {@code non_forwarding_action} and its authorisation.
   */
  static VirtualHost virtualHost(io.holdfast.ir.VirtualHost host) {
    VirtualHost.Builder envoy = VirtualHost.newBuilder()
        .setName(EnvoyNames.virtualHost(host))
        .addAllDomains(host.domains());
    for (io.holdfast.ir.Route route : host.routes()) {
      if (!RouteTranslator.matchesGrpcCalls(route)) {
        continue;
      }
      Route.Builder out = Route.newBuilder()
          .setName(route.name())
          .setMatch(RouteTranslator.match(route.match(), RouteTranslator.Flavor.GRPC))
          .setNonForwardingAction(NonForwardingAction.getDefaultInstance());
      perRoute(route).ifPresent(rbac -> out.putTypedPerFilterConfig(SecurityFilters.RBAC_FILTER, Protos.pack(rbac)));
      envoy.addRoutes(out);
    }
    return envoy.build();
  }

  /** The route's RBAC per-route config: its rules, or {@link #DENY_ALL}; empty if it checks nothing. */
  private static Optional<RBACPerRoute> perRoute(io.holdfast.ir.Route route) {
    RouteSecurity security = route.security();
    if (deniesEveryCall(security)) {
      return Optional.of(DENY_ALL);
    }
    return security.rbac().map(SecurityFilters::rbacPerRoute);
  }

  /**
   * Whether the route requires more than authorisation rules (compared with a route carrying its rules alone, so
   * a security setting added later counts too), or its rules name a header gRPC's RBAC refuses.
   */
  static boolean deniesEveryCall(RouteSecurity security) {
    if (!security.equals(new RouteSecurity(Optional.empty(), security.rbac()))) {
      return true;
    }
    return security.rbac().stream()
        .flatMap(rules -> rules.rules().stream())
        .flatMap(rule -> rule.all().stream())
        .anyMatch(condition -> condition instanceof RouteSecurity.Header header
            && refusedByGrpc(header.match().name()));
  }

  /** grpc-java's RBAC filter rejects header matchers on these names (RbacFilter.parseHeaderMatcher). */
  private static boolean refusedByGrpc(String header) {
    String name = header.toLowerCase(Locale.ROOT);
    return name.startsWith("grpc-") || name.equals(":scheme");
  }
}
