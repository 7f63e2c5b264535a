package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.api.HeaderMatch;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.VirtualService;
import java.util.List;
import java.util.Locale;

/**
 * The rules of a Gateway served to proxyless gRPC servers ({@code spec.grpcServer: true}, gRFC A36): what such a
 * server cannot do is refused or warned on the Gateway, which is what chose that data plane. gRPC servers run the
 * RBAC filter only (gRFC A41), so routes that require a JWT or external authorisation, and authorisation rules on
 * headers gRPC refuses ({@code grpc-*}, {@code :scheme}), are translated to deny every call (fail closed); this
 * warns about them.
 */
final class GrpcServerRules {

  private GrpcServerRules() {
  }

  /** The Gateway's own settings. */
  static void check(Gateway gateway, Ledger.Sink sink) {
    if (!gateway.grpcServer()) {
      return;
    }
    if (gateway.ssl()) {
      sink.error("spec.ssl", Reasons.GRPC_SERVER_UNSUPPORTED, "a gRPC server listener is plain text: gRPC servers"
          + " take TLS certificates from their own bootstrap's certificate providers");
    }
    if (gateway.options().proxyProtocol()) {
      sink.error("spec.options.proxyProtocol", Reasons.GRPC_SERVER_UNSUPPORTED,
          "gRPC servers accept no listener filters, so they cannot read a PROXY protocol header");
    } else if (!gateway.options().equals(TrafficOptions.Listener.NONE)) {
      sink.warn("spec.options", Reasons.GRPC_IGNORED_OPTION, "gRPC servers apply no listener options (timeouts,"
          + " HTTP/2 settings, trusted XFF hops, access logs, rate-limit service); they are left out");
    }
  }

  /** The VirtualServices {@code gateway} serves: one warning per VirtualService with routes that deny every call. */
  static void checkServed(Gateway gateway, List<VirtualService> served, Ledger ledger) {
    if (!gateway.grpcServer()) {
      return;
    }
    for (VirtualService vs : served) {
      if (deniesSomeRoute(vs)) {
        ledger.warn(gateway.key(), "spec.grpcServer", Reasons.GRPC_SERVER_DENIES_ROUTE, describe(vs.key())
            + " has routes that require a JWT, basic authentication, an OAuth2 login or external authorisation, or"
            + " authorisation rules"
            + " on grpc-* or :scheme headers; gRPC servers perform none of these, so every call to those routes is denied");
      }
    }
  }

  private static String describe(ResourceKey key) {
    return "VirtualService " + key.namespace() + "/" + key.name();
  }

  /** Bounded by the VirtualService's routes and their rules, which the object's own limits bound. */
  private static boolean deniesSomeRoute(VirtualService vs) {
    if (denies(vs.options().security())) {
      return true;
    }
    for (Route route : vs.routes()) {
      if (denies(route.options().security())) {
        return true;
      }
    }
    return false;
  }

  private static boolean denies(SecurityOptions security) {
    boolean jwt = security.jwt().filter(j -> j.mode() != SecurityOptions.JwtMode.DISABLED).isPresent()
        || security.jwtAfterAuthz().filter(j -> j.mode() != SecurityOptions.JwtMode.DISABLED).isPresent();
    boolean authz = security.extAuthz().filter(a -> !a.disabled()).isPresent();
    boolean basic = security.basicAuth().filter(b -> !b.disabled()).isPresent();
    boolean login = security.oauth2().filter(o -> !o.disabled()).isPresent();
    boolean headers = security.rbac().filter(r -> !r.disabled()).stream()
        .flatMap(r -> r.rules().stream()).flatMap(rule -> rule.headers().stream())
        .anyMatch(GrpcServerRules::refusedByGrpc);
    return jwt || authz || basic || login || headers;
  }

  /** grpc-java's RBAC filter refuses these header names (RbacFilter.parseHeaderMatcher). */
  static boolean refusedByGrpc(HeaderMatch header) {
    String name = header.name().toLowerCase(Locale.ROOT);
    return name.startsWith("grpc-") || name.equals(":scheme");
  }
}
