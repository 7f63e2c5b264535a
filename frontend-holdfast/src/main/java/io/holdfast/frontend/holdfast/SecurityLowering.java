package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Route;
import io.holdfast.api.VirtualService;
import io.holdfast.frontend.options.BasicAuthLowering;
import io.holdfast.frontend.options.OAuth2Lowering;
import io.holdfast.frontend.options.SecretLookup;
import io.holdfast.frontend.options.SecurityOptionsLowering;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.OAuth2Login;
import io.holdfast.ir.Secret;
import io.holdfast.ir.RouteSecurity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Security options of Holdfast's kinds into the IR ({@link SecurityOptionsLowering}): each served VirtualService
 * owns its JWT providers (named {@code namespace/virtualservice/provider} in its chain), and each route, its
 * RouteTables' included, gets the VirtualService's {@code jwt} and {@code rbac} unless it sets its own.
 */
final class SecurityLowering {

  private SecurityLowering() {
  }

  /**
   * The providers, authorisation services and basic-auth users of {@code served}, for the chain that serves them;
   * Secrets read from {@code config} as {@code consent} lets each VirtualService read them.
   */
  static ListenerSecurity listener(Collection<VirtualService> served, GatewayConfig config, Consent consent) {
    List<ListenerSecurity.JwtProvider> providers = new ArrayList<>();
    List<ListenerSecurity.ExtAuthzService> services = new ArrayList<>();
    List<ListenerSecurity.BasicAuthUsers> users = new ArrayList<>();
    List<OAuth2Login> logins = new ArrayList<>();
    for (VirtualService vs : served) {
      SecretLookup secrets = secrets(vs, config, consent);
      providers.addAll(SecurityOptionsLowering.providers(vs.key(), vs.options().security(), secrets));
      SecurityOptionsLowering.extAuthz(vs.key(), vs.options().security()).ifPresent(services::add);
      BasicAuthLowering.users(vs.key(), vs.options().security(), secrets).ifPresent(users::add);
      OAuth2Lowering.login(vs.key(), vs.options().security()).ifPresent(logins::add);
    }
    return new ListenerSecurity(providers, services, users, logins);
  }

  /**
   * The generic secrets of {@code vs}'s OAuth2 login (its client secret and HMAC key), if it has one, read as
   * {@code consent} lets it read them (as its basic-auth users and key sets are).
   */
  static List<Secret> oauth2Secrets(VirtualService vs, GatewayConfig config, Consent consent) {
    return OAuth2Lowering.secrets(vs.key(), "spec.options.security.oauth2", vs.options().security(),
        secrets(vs, config, consent));
  }

  /** The Secret entries {@code vs} may read: none of another namespace without consent. */
  private static SecretLookup secrets(VirtualService vs, GatewayConfig config, Consent consent) {
    return (secret, entry) -> consent.secret(vs.key(), secret).isPresent() ? Optional.empty()
        : config.secretOf(secret).map(data -> data.entries().get(entry));
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
