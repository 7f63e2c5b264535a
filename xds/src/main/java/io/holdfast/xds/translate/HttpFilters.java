package io.holdfast.xds.translate;

import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.VirtualHost;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP filters a connection manager needs before the Router for the routes it serves: fault injection when
 * a route injects faults, CORS when a route has a policy (Envoy listeners only: gRPC clients have no CORS filter
 * and reject a listener naming one). Each is empty in the connection manager and configured per route. A
 * filter is there only when some route uses it, so configs without these options keep their listeners as they
 * were; adding the first such route changes the listener once (Envoy drains its connections over the drain time).
 */
final class HttpFilters {

  static final String FAULT = "envoy.filters.http.fault";
  static final String CORS = "envoy.filters.http.cors";

  private HttpFilters() {
  }

  /**
   * CORS before fault: preflights are answered without injected faults, and an injected error passes back
   * through the CORS filter, so it carries CORS headers and the browser lets the page read it.
   */
  static List<HttpFilter> beforeRouter(List<VirtualHost> hosts, RouteTranslator.Flavor flavor) {
    return beforeRouter(flavor == RouteTranslator.Flavor.ENVOY && hosts.stream().anyMatch(HttpFilters::usesCors),
        hosts.stream().anyMatch(HttpFilters::injectsFaults));
  }

  /** The filters for routes of which some have a CORS policy ({@code cors}) or inject faults ({@code faults}). */
  static List<HttpFilter> beforeRouter(boolean cors, boolean faults) {
    return beforeRouter(cors, List.of(), faults);
  }

  /** As {@link #beforeRouter(boolean, boolean)}, with {@code security} ({@link SecurityFilters}) after CORS. */
  static List<HttpFilter> beforeRouter(boolean cors, List<HttpFilter> security, boolean faults) {
    List<HttpFilter> filters = new ArrayList<>();
    if (cors) {
      filters.add(HttpFilter.newBuilder().setName(CORS).setTypedConfig(Protos.pack(Cors.getDefaultInstance()))
          .build());
    }
    filters.addAll(security);
    if (faults) {
      filters.add(HttpFilter.newBuilder().setName(FAULT).setTypedConfig(Protos.pack(HTTPFault.getDefaultInstance()))
          .build());
    }
    return filters;
  }

  /** Whether a route of {@code host} has a CORS policy (the filter is for Envoy listeners only). */
  static boolean usesCors(VirtualHost host) {
    return host.routes().stream().anyMatch(route -> route.cors().isPresent());
  }

  /** Whether a route of {@code host} injects faults. */
  static boolean injectsFaults(VirtualHost host) {
    return host.routes().stream().anyMatch(HttpFilters::injectsFaults);
  }

  private static boolean injectsFaults(Route route) {
    return route.action() instanceof RouteAction.Forwarding forwarding && forwarding.policy().fault().isPresent();
  }
}
