package io.holdfast.xds.translate;

import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.grpc_web.v3.GrpcWeb;
import io.envoyproxy.envoy.extensions.filters.http.health_check.v3.HealthCheck;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.holdfast.ir.ExtProc;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.VirtualHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
  static final String HEALTH_CHECK = "envoy.filters.http.health_check";
  static final String GRPC_WEB = "envoy.filters.http.grpc_web";

  private HttpFilters() {
  }

  /**
   * The filters of a gRPC client listener: fault only (gRPC clients have no CORS or traffic filters).
   */
  static List<HttpFilter> beforeRouter(List<VirtualHost> hosts, RouteTranslator.Flavor flavor) {
    return beforeRouter(flavor == RouteTranslator.Flavor.ENVOY && hosts.stream().anyMatch(HttpFilters::usesCors),
        hosts.stream().anyMatch(HttpFilters::injectsFaults));
  }

  /** The filters for routes of which some have a CORS policy ({@code cors}) or inject faults ({@code faults}). */
  static List<HttpFilter> beforeRouter(boolean cors, boolean faults) {
    return beforeRouter(cors, List.of(), faults, TrafficFilters.Usage.NONE, HttpListenerOptions.NONE);
  }

  /**
   * In this order: CORS; authentication and authorisation ({@code security}, from {@link SecurityFilters}, RBAC
   * last); the health check; the rate limits ({@link TrafficFilters#rateLimits}); CSRF and buffer
   * ({@link TrafficFilters#afterRateLimits}); fault; the compressors ({@link TrafficFilters#afterFault}). CORS before
   * everything: preflights are answered without authentication, limits or injected faults, and a refusal or
   * injected error passes back through the CORS filter, so it carries CORS headers and the browser lets the page
   * read it. Authentication before authorisation (rules may read the verified claims), both before rate limits
   * (descriptors may read claims too, and an unauthenticated flood does not spend the callers' budget). Limits
   * before fault: a refused request is not delayed first. The chain's health check ({@link #healthCheck}), if any,
   * between authorisation and the traffic filters, where Gloo Edge puts it: a probe is never rate limited or
   * delayed, and a route that requires credentials on the probe's path requires them of the probe too. The chain's
   * external processing service ({@link ExtProcFilters}) where its {@link ExtProc.Position} says: by default after
   * the health check, before the rate limits, so it sees only requests that were allowed in, as Gloo Edge's
   * {@code extProc} after its AuthZStage. The gRPC-Web filter ({@link #grpcWeb}), when the chain's options ask
   * for it, after that external processor and before the rate limits, where Gloo Edge's AfterStage(AuthZStage) and
   * its name order put it: CORS answers a browser's preflight first, authentication, authorisation and the external
   * processor see the request as the browser sent it, and the rate limits, CSRF, buffer, fault, compressors and
   * Router see plain gRPC (and the answer is turned back into gRPC-Web before the filters in front see it). Gloo
   * also sorts it before its health check; the two act on different requests, so the health check stays put.
   *
   * @param traffic the traffic filters the chain's routes use
   * @param options the chain's options (the global rate-limit filter needs its rate-limit service)
   */
  static List<HttpFilter> beforeRouter(boolean cors, List<HttpFilter> security, boolean faults,
      TrafficFilters.Usage traffic, HttpListenerOptions options) {
    ExtProcSlot extProc = new ExtProcSlot(options.extProc());
    List<HttpFilter> filters = new ArrayList<>();
    extProc.at(ExtProc.Position.FIRST, filters);
    if (cors) {
      filters.add(HttpFilter.newBuilder().setName(CORS).setTypedConfig(Protos.pack(Cors.getDefaultInstance()))
          .build());
    }
    extProc.at(ExtProc.Position.AFTER_CORS, filters);
    // SecurityFilters puts RBAC last, after every authentication and external authorisation filter.
    security.stream().filter(f -> !f.getName().equals(SecurityFilters.RBAC_FILTER)).forEach(filters::add);
    extProc.at(ExtProc.Position.BEFORE_RBAC, filters);
    security.stream().filter(f -> f.getName().equals(SecurityFilters.RBAC_FILTER)).forEach(filters::add);
    options.healthCheckPath().ifPresent(path -> filters.add(healthCheck(path)));
    extProc.at(ExtProc.Position.AFTER_AUTHORIZATION, filters);
    if (options.grpcWeb().orElse(false)) {
      filters.add(grpcWeb());
    }
    filters.addAll(TrafficFilters.rateLimits(traffic, options));
    extProc.at(ExtProc.Position.AFTER_RATE_LIMITS, filters);
    filters.addAll(TrafficFilters.afterRateLimits(traffic));
    if (faults) {
      filters.add(HttpFilter.newBuilder().setName(FAULT).setTypedConfig(Protos.pack(HTTPFault.getDefaultInstance()))
          .build());
    }
    filters.addAll(TrafficFilters.afterFault(traffic));
    extProc.at(ExtProc.Position.LAST, filters);
    return filters;
  }

  /**
   * Envoy's gRPC-Web filter, always on: a request whose {@code content-type} is {@code application/grpc-web*}
   * (base64 for {@code -text}) goes on as gRPC and its answer, trailers in the body, comes back as gRPC-Web; any
   * other request passes untouched.
   */
  static HttpFilter grpcWeb() {
    return HttpFilter.newBuilder().setName(GRPC_WEB).setTypedConfig(Protos.pack(GrpcWeb.getDefaultInstance()))
        .build();
  }

  /** The chain's ext_proc filter, if any, added once at its position as the chain is built in order. */
  private record ExtProcSlot(Optional<ExtProc.Service> service) {
    void at(ExtProc.Position position, List<HttpFilter> filters) {
      service.filter(s -> s.position() == position).ifPresent(s -> filters.add(ExtProcFilters.filter(s)));
    }
  }

  /**
   * Envoy's health check filter, not in pass-through mode: a request whose {@code :path} is exactly {@code path}
   * is answered by the proxy (200, or 503 once it is draining or failed by its admin) and never forwarded.
   */
  static HttpFilter healthCheck(String path) {
    return HttpFilter.newBuilder().setName(HEALTH_CHECK).setTypedConfig(Protos.pack(HealthCheck.newBuilder()
        .setPassThroughMode(com.google.protobuf.BoolValue.of(false))
        .addHeaders(HeaderMatcher.newBuilder().setName(":path")
            .setStringMatch(StringMatcher.newBuilder().setExact(path)))
        .build())).build();
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
