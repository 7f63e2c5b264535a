package io.holdfast.frontend.holdfast;

import io.holdfast.api.Route;
import io.holdfast.api.VirtualService;
import io.holdfast.api.GatewayConfig;
import io.holdfast.frontend.options.OAuth2Lowering;
import io.holdfast.frontend.options.SecurityOptionsLowering;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.OAuth2Login;
import io.holdfast.ir.Secret;
import io.holdfast.ir.RouteSecurity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Security options of Holdfast's kinds into the IR ({@link SecurityOptionsLowering}): each served VirtualService
 * owns its JWT providers (named {@code namespace/virtualservice/provider} in its chain), and each route, its
 * RouteTables' included, gets the VirtualService's {@code jwt} and {@code rbac} unless it sets its own.
 */
final class SecurityLowering {

  private SecurityLowering() {
  }

  /** The providers of {@code served}, for the chain that serves them. */
  static ListenerSecurity listener(Collection<VirtualService> served) {
    List<ListenerSecurity.JwtProvider> providers = new ArrayList<>();
    List<ListenerSecurity.ExtAuthzService> services = new ArrayList<>();
    List<OAuth2Login> logins = new ArrayList<>();
    for (VirtualService vs : served) {
      providers.addAll(SecurityOptionsLowering.providers(vs.key(), vs.options().security()));
      SecurityOptionsLowering.extAuthz(vs.key(), vs.options().security()).ifPresent(services::add);
      OAuth2Lowering.login(vs.key(), vs.options().security()).ifPresent(logins::add);
    }
    return new ListenerSecurity(providers, services, logins);
  }

  /** The generic secrets of {@code vs}'s OAuth2 login (its client secret and HMAC key), if it has one. */
  static List<Secret> secrets(VirtualService vs, GatewayConfig config) {
    return OAuth2Lowering.secrets(vs.key(), "spec.options.security.oauth2", vs.options().security(), config);
  }

  /** The effective security of {@code route}, one of {@code vs}'s routes or of a RouteTable under it. */
  static RouteSecurity route(VirtualService vs, Route route) {
    return SecurityOptionsLowering.route(vs.key(), vs.options().security(), route.options().security());
  }

  /** {@code host} for proxyless gRPC clients, which run no security filters (validation warns). */
  static io.holdfast.ir.VirtualHost withoutSecurity(io.holdfast.ir.VirtualHost host) {
    return RouteSecurity.withoutSecurity(host);
  }
}
