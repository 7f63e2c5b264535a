package io.holdfast.frontend.options;

import io.holdfast.api.Cidr;
import io.holdfast.api.HeaderMatch;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.RouteSecurity;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Lowers {@code security} options ({@link SecurityOptions}) into the IR, for both front ends that read them (the
 * Holdfast kinds' options and the Gateway API's SecurityPolicy): one module, because two front ends never see
 * each other and the IR never reads the API's parsing. The owner of a set of
 * providers (a VirtualService, a SecurityPolicy) prefixes their names with its {@code namespace/name}, so owners
 * sharing a filter chain never collide. Fails closed: a requirement or claim rule naming a provider its owner does
 * not define (what validation cannot see, such as a RouteTable's route) refuses every request.
 */
public final class SecurityOptionsLowering {

  private SecurityOptionsLowering() {
  }

  /** The providers {@code owner} defines in {@code security}; remote key sets' upstreams resolve in its namespace. */
  public static List<ListenerSecurity.JwtProvider> providers(ResourceKey owner, SecurityOptions security) {
    return providers(owner, security, SecretLookup.NONE);
  }

  /** As {@link #providers(ResourceKey, SecurityOptions)}, key sets in Secrets read through {@code secrets}. */
  public static List<ListenerSecurity.JwtProvider> providers(ResourceKey owner, SecurityOptions security,
      SecretLookup secrets) {
    List<ListenerSecurity.JwtProvider> providers = new ArrayList<>();
    for (SecurityOptions.JwtProvider provider : security.jwtProviders()) {
      providers.add(provider(owner, provider, secrets));
    }
    return providers;
  }

  /** The external authorisation service {@code owner} defines in {@code security}, named after it. */
  public static Optional<ListenerSecurity.ExtAuthzService> extAuthz(ResourceKey owner, SecurityOptions security) {
    return security.extAuthz().filter(a -> !a.disabled() && (a.grpc().isPresent() || a.http().isPresent()))
        .map(a -> {
          boolean grpc = a.grpc().isPresent();
          ResourceKey cluster = (grpc ? a.grpc().get() : a.http().get().upstream())
              .resolve(ResourceKey.UPSTREAM, owner.namespace());
          return new ListenerSecurity.ExtAuthzService(serviceName(owner), grpc
              ? ListenerSecurity.AuthzProtocol.GRPC : ListenerSecurity.AuthzProtocol.HTTP, cluster,
              a.http().map(SecurityOptions.HttpAuthz::pathPrefix).orElse(""), a.timeout(), a.failureModeAllow(),
              a.headersToAuthz(), a.http().map(SecurityOptions.HttpAuthz::headersToUpstream).orElse(List.of()),
              a.http().map(SecurityOptions.HttpAuthz::headersToClient).orElse(List.of()), a.maxRequestBytes());
        });
  }

  /** The name of {@code owner}'s external authorisation service in its chain. */
  public static String serviceName(ResourceKey owner) {
    return owner.namespace() + "/" + owner.name();
  }

  /**
   * The effective security of a route: its {@code own} {@code jwt}, {@code jwtAfterAuthz} and {@code rbac}
   * replacing those of
   * {@code defaults}, which define the providers (of {@code owner}).
   */
  public static RouteSecurity route(ResourceKey owner, SecurityOptions defaults, SecurityOptions own) {
    Set<String> defined = new java.util.HashSet<>();
    defaults.jwtProviders().forEach(p -> defined.add(p.name()));
    Optional<SecurityOptions.Jwt> jwt = own.jwt().or(defaults::jwt)
        .filter(j -> j.mode() != SecurityOptions.JwtMode.DISABLED);
    Optional<SecurityOptions.Jwt> afterAuthz = own.jwtAfterAuthz().or(defaults::jwtAfterAuthz)
        .filter(j -> j.mode() != SecurityOptions.JwtMode.DISABLED);
    Optional<SecurityOptions.Rbac> rbac = own.rbac().or(defaults::rbac).filter(r -> !r.disabled());
    Set<String> verified = SecurityChecks.effective(jwt, afterAuthz);
    boolean broken = unknownProviders(jwt, defined) || unknownProviders(afterAuthz, defined)
        || rbac.map(r -> r.rules().isEmpty() || r.rules().stream().flatMap(rule -> rule.claims().stream())
            .anyMatch(c -> !verified.contains(c.provider()) || !defined.contains(c.provider()))).orElse(false);
    if (broken) {
      return denyAll();
    }
    // A route only turns its owner's service off; the service is the owner's.
    boolean authzOff = own.extAuthz().map(SecurityOptions.ExtAuthz::disabled).orElse(false);
    Optional<String> authz = authzOff ? Optional.empty()
        : extAuthz(owner, defaults).map(ListenerSecurity.ExtAuthzService::name);
    // Likewise a route only turns its owner's OAuth2 login off.
    boolean oauth2Off = own.oauth2().map(io.holdfast.api.OAuth2Options::disabled).orElse(false);
    Optional<String> oauth2 = oauth2Off ? Optional.empty()
        : OAuth2Lowering.login(owner, defaults).map(io.holdfast.ir.OAuth2Login::name);
    try {
      return new RouteSecurity(jwt.map(j -> requirement(owner, j)), rbac.map(r -> rules(owner, r)), authz,
          BasicAuthLowering.route(owner, defaults, own), oauth2, afterAuthz.map(j -> requirement(owner, j)));
    } catch (IllegalArgumentException e) {
      // Only input validation did not see gets here; refuse rather than serve unchecked.
      return denyAll();
    }
  }

  /** True when {@code jwt} names no provider or one {@code defined} lacks: the route must then refuse all. */
  private static boolean unknownProviders(Optional<SecurityOptions.Jwt> jwt, Set<String> defined) {
    return jwt.map(j -> !defined.containsAll(j.providers()) || j.providers().isEmpty()).orElse(false);
  }

  private static RouteSecurity.JwtRequirement requirement(ResourceKey owner, SecurityOptions.Jwt jwt) {
    return new RouteSecurity.JwtRequirement(jwt.providers().stream().map(p -> providerName(owner, p)).toList(),
        jwt.mode() == SecurityOptions.JwtMode.OPTIONAL);
  }

  /** Security that refuses every request (403): for routes whose policy cannot be applied as written. */
  public static RouteSecurity denyAll() {
    return new RouteSecurity(Optional.empty(), Optional.of(RouteSecurity.AccessRules.denyAll()));
  }

  public static String providerName(ResourceKey owner, String provider) {
    return owner.namespace() + "/" + owner.name() + "/" + provider;
  }

  /**
   * A key set with no key: a provider whose Secret cannot be read (validation reports it; a last-good object may
   * outlive its Secret) verifies no token, so its routes refuse every request that needs one.
   */
  static final String NO_KEYS = "{\"keys\":[]}";

  private static ListenerSecurity.JwtProvider provider(ResourceKey owner, SecurityOptions.JwtProvider provider,
      SecretLookup secrets) {
    ListenerSecurity.Jwks jwks;
    if (provider.remoteJwks().isPresent()) {
      SecurityOptions.RemoteJwks remote = provider.remoteJwks().get();
      jwks = new ListenerSecurity.RemoteJwks(remote.uri(), remote.upstream().resolve(ResourceKey.UPSTREAM,
          owner.namespace()), remote.timeout(), remote.cacheDuration());
    } else {
      SecurityOptions.LocalJwks local = provider.localJwks().orElseThrow(() -> new IllegalArgumentException(
          owner + ": JWT provider " + provider.name() + " has no key set; lower only Validator output"));
      if (local.secretRef().isPresent()) {
        SecurityOptions.SecretKeyRef ref = local.secretRef().get();
        jwks = new ListenerSecurity.InlineJwks(secrets.entry(TlsSecretData.secretKey(ref.secret(),
            owner.namespace()), ref.key()).filter(io.holdfast.api.SecretChecks::usableJwks).orElse(NO_KEYS));
      } else {
        jwks = local.inline().<ListenerSecurity.Jwks>map(ListenerSecurity.InlineJwks::new)
            .orElseGet(() -> new ListenerSecurity.FileJwks(local.file().orElseThrow()));
      }
    }
    List<ListenerSecurity.TokenSource> from = new ArrayList<>();
    provider.fromHeaders().forEach(h -> from.add(new ListenerSecurity.HeaderToken(h.name(), h.prefix())));
    provider.fromCookies().forEach(c -> from.add(new ListenerSecurity.CookieToken(c)));
    provider.fromParams().forEach(q -> from.add(new ListenerSecurity.QueryToken(q)));
    return new ListenerSecurity.JwtProvider(providerName(owner, provider.name()), provider.issuer(),
        provider.audiences(), jwks, from, provider.claimsToHeaders().stream()
            .map(c -> new ListenerSecurity.ClaimToHeader(c.claim(), c.header())).toList(),
        provider.forwardToken());
  }

  private static RouteSecurity.AccessRules rules(ResourceKey owner, SecurityOptions.Rbac rbac) {
    List<RouteSecurity.Rule> rules = new ArrayList<>();
    for (SecurityOptions.RbacRule rule : rbac.rules()) {
      List<RouteSecurity.Condition> all = new ArrayList<>();
      if (!rule.clientIp().isEmpty()) {
        all.add(new RouteSecurity.ClientIp(ranges(rule.clientIp()), false));
      }
      if (!rule.directClientIp().isEmpty()) {
        all.add(new RouteSecurity.ClientIp(ranges(rule.directClientIp()), true));
      }
      rule.headers().forEach(h -> all.add(new RouteSecurity.Header(header(h))));
      rule.claims().forEach(c -> all.add(new RouteSecurity.Claim(providerName(owner, c.provider()),
          Arrays.asList(c.name().split("\\.")), c.values())));
      rules.add(new RouteSecurity.Rule(all));
    }
    return new RouteSecurity.AccessRules(rbac.action() == SecurityOptions.RbacAction.ALLOW
        ? RouteSecurity.Action.ALLOW : RouteSecurity.Action.DENY, rules);
  }

  /** Each CIDR as its network address (Envoy wants the address with host bits as written; zeroing is harmless). */
  private static List<RouteSecurity.IpRange> ranges(List<String> cidrs) {
    List<RouteSecurity.IpRange> ranges = new ArrayList<>();
    for (String text : cidrs) {
      Cidr cidr = Cidr.parse(text);
      try {
        ranges.add(new RouteSecurity.IpRange(InetAddress.getByAddress(cidr.network()).getHostAddress(),
            cidr.prefixLength()));
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException(text + " is not an address", e);
      }
    }
    return ranges;
  }

  static RouteMatch.HeaderMatch header(HeaderMatch h) {
    RouteMatch.Condition condition;
    if (h.condition() instanceof HeaderMatch.Exact exact) {
      condition = new RouteMatch.Exact(exact.value());
    } else if (h.condition() instanceof HeaderMatch.Prefix prefix) {
      condition = new RouteMatch.Prefix(prefix.value());
    } else if (h.condition() instanceof HeaderMatch.Regex regex) {
      condition = new RouteMatch.Regex(regex.value());
    } else {
      condition = new RouteMatch.Present(((HeaderMatch.Present) h.condition()).present());
    }
    return new RouteMatch.HeaderMatch(h.name(), condition, h.invert());
  }
}
