package io.holdfast.xds.translate;

import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.holdfast.ir.Listener.Socket;

/**
 * Socket listeners and proxyless-gRPC API listeners: HTTP chains with an RDS-over-ADS HttpConnectionManager, TCP
 * chains through {@link TcpChains}.
 */
final class ListenerTranslator {

  static final String HCM_FILTER = "envoy.filters.network.http_connection_manager";
  static final String ROUTER_FILTER = "envoy.filters.http.router";

  private ListenerTranslator() {
  }

  /** The listener's route configuration has its name ({@link EnvoyNames#listener}). */
  static Listener socket(Socket socket) {
    String name = EnvoyNames.listener(socket.origin().object());
    Listener.Builder listener = Listener.newBuilder()
        .setName(name)
        .setAddress(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder()
            .setAddress(socket.address())
            .setPortValue(socket.port())));
    for (io.holdfast.ir.Listener.FilterChain chain : socket.filterChains()) {
      if (chain instanceof io.holdfast.ir.Listener.FilterChain.Tcp tcp) {
        listener.addFilterChains(TcpChains.filterChain(name, tcp));
        continue;
      }
      if (chain.tls().isPresent()
          || !chain.match().serverNames().isEmpty()) {
        throw new IllegalArgumentException(chain.origin() + ": only plain-text HTTP filter chains are translated yet");
      }
      listener.addFilterChains(FilterChain.newBuilder().addFilters(Filter.newBuilder()
          .setName(HCM_FILTER)
          .setTypedConfig(Protos.pack(connectionManager(name, name,
              HttpFilters.beforeRouter(socket.virtualHosts(), RouteTranslator.Flavor.ENVOY))))));
    }
    if (socket.inspectsTls()) {
      listener.addListenerFilters(TcpChains.tlsInspector());
    }
    return listener.build();
  }

  /** The listener grpc-java asks for when a channel targets {@code xds:///domain}. */
  static Listener api(String domain, io.holdfast.ir.VirtualHost host) {
    return Listener.newBuilder()
        .setName(EnvoyNames.apiListener(domain))
        .setApiListener(ApiListener.newBuilder()
            .setApiListener(Protos.pack(connectionManager(domain, EnvoyNames.apiRoutes(domain),
                HttpFilters.beforeRouter(java.util.List.of(host), RouteTranslator.Flavor.GRPC)))))
        .build();
  }

  /** The Router must be the last HTTP filter; {@code filters} (those the routes need) go before it. */
  private static HttpConnectionManager connectionManager(String statPrefix, String routeConfigName,
      java.util.List<HttpFilter> filters) {
    return HttpConnectionManager.newBuilder()
        .setStatPrefix(statPrefix.replaceAll("[^A-Za-z0-9-]", "_"))
        .setRds(Rds.newBuilder().setConfigSource(Protos.ADS).setRouteConfigName(routeConfigName))
        .addAllHttpFilters(filters)
        .addHttpFilters(HttpFilter.newBuilder()
            .setName(ROUTER_FILTER)
            .setTypedConfig(Protos.pack(Router.getDefaultInstance())))
        .build();
  }
}
