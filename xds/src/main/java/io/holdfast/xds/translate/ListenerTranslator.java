package io.holdfast.xds.translate;

import io.envoyproxy.envoy.config.core.v3.Address;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.listener.v3.ListenerFilter;
import io.envoyproxy.envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.holdfast.ir.Listener.Socket;
import java.util.List;
import java.util.function.Function;

/**
 * Socket listeners (one filter chain per IR chain: HTTP chains with an RDS-over-ADS HttpConnectionManager, TLS
 * terminated with SDS certificates where the IR says so; TCP chains through {@link TcpChains}) and proxyless-gRPC
 * API listeners.
 */
final class ListenerTranslator {

  static final String HCM_FILTER = "envoy.filters.network.http_connection_manager";
  static final String ROUTER_FILTER = "envoy.filters.http.router";
  static final String TLS_INSPECTOR_FILTER = "envoy.filters.listener.tls_inspector";

  private ListenerTranslator() {
  }

  /**
   * One Envoy filter chain per IR chain, each fetching its route configuration ({@link EnvoyNames#chainRoutes}) over
   * ADS; chains with server names match on them, a TLS chain terminates TLS with certificates from SDS, and the
   * listener reads the SNI with the TLS inspector when any chain needs it.
   *
   * @param httpFilters each HTTP chain's filters before the Router ({@link HttpFilters}), which the caller knows
   *                    from its virtual hosts without scanning their routes again
   */
  static Listener socket(Socket socket,
      Function<io.holdfast.ir.Listener.FilterChain.Http, List<HttpFilter>> httpFilters) {
    String name = EnvoyNames.socket(socket);
    Listener.Builder listener = bound(socket);
    ConnectionOptions.socket(socket.socketOptions(), listener);
    if (socket.inspectsTls()) {
      listener.addListenerFilters(ListenerFilter.newBuilder()
          .setName(TLS_INSPECTOR_FILTER)
          .setTypedConfig(Protos.pack(TlsInspector.getDefaultInstance())));
    }
    for (io.holdfast.ir.Listener.FilterChain chain : socket.filterChains()) {
      if (chain instanceof io.holdfast.ir.Listener.FilterChain.Tcp tcp) {
        listener.addFilterChains(TcpChains.filterChain(name, tcp));
        continue;
      }
      io.holdfast.ir.Listener.FilterChain.Http http = (io.holdfast.ir.Listener.FilterChain.Http) chain;
      String routes = EnvoyNames.chainRoutes(socket, chain);
      FilterChain.Builder out = FilterChain.newBuilder();
      if (!routes.equals(name)) {
        out.setName(chain.name());
      }
      TcpChains.chainMatch(chain.match()).ifPresent(out::setFilterChainMatch);
      chain.tls().ifPresent(tls -> out.setTransportSocket(TlsTranslator.transportSocket(tls)));
      listener.addFilterChains(out.addFilters(Filter.newBuilder()
          .setName(HCM_FILTER)
          .setTypedConfig(Protos.pack(connectionManager(routes, routes, httpFilters.apply(http), http.options())))));
    }
    return listener.build();
  }

  /** A listener named for {@code socket} on its address and port, with nothing else yet. */
  static Listener.Builder bound(Socket socket) {
    return Listener.newBuilder()
        .setName(EnvoyNames.socket(socket))
        .setAddress(Address.newBuilder().setSocketAddress(SocketAddress.newBuilder()
            .setAddress(socket.address())
            .setPortValue(socket.port())));
  }

  /** The listener grpc-java asks for when a channel targets {@code xds:///domain}. */
  static Listener api(String domain, io.holdfast.ir.VirtualHost host) {
    return Listener.newBuilder()
        .setName(EnvoyNames.apiListener(domain))
        .setApiListener(ApiListener.newBuilder()
            .setApiListener(Protos.pack(connectionManager(domain, EnvoyNames.apiRoutes(domain),
                HttpFilters.beforeRouter(java.util.List.of(host), RouteTranslator.Flavor.GRPC),
                io.holdfast.ir.HttpListenerOptions.NONE))))
        .build();
  }

  /** The Router must be the last HTTP filter; {@code filters} (those the routes need) go before it. */
  static HttpConnectionManager connectionManager(String statPrefix, String routeConfigName,
      java.util.List<HttpFilter> filters, io.holdfast.ir.HttpListenerOptions options) {
    HttpConnectionManager.Builder hcm = HttpConnectionManager.newBuilder()
        .setStatPrefix(statPrefix.replaceAll("[^A-Za-z0-9-]", "_"))
        .setRds(Rds.newBuilder().setConfigSource(Protos.ADS).setRouteConfigName(routeConfigName))
        .addAllHttpFilters(filters)
        .addHttpFilters(HttpFilter.newBuilder()
            .setName(ROUTER_FILTER)
            .setTypedConfig(Protos.pack(Router.getDefaultInstance())));
    ConnectionOptions.connectionManager(options, hcm);
    return hcm.build();
  }
}
