package io.holdfast.frontend.holdfast;

import io.holdfast.api.Cidr;
import io.holdfast.api.HeaderMatch;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.RouteSecurity;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Lowers {@code security} options into the IR: each served VirtualService's JWT providers become its listener
 * chain's providers, named {@code namespace/virtualservice/provider} so VirtualServices sharing a chain never
 * collide; each route gets its effective {@link RouteSecurity} (its own {@code jwt} and {@code rbac} replacing the
 * VirtualService's). Fails closed: a route (from a RouteTable, which validation cannot check against every
 * VirtualService delegating to it) naming a provider its VirtualService lacks refuses every request.
 */
final class SecurityLowering {

  private SecurityLowering() {
  }

  /** The providers of {@code served}, for the chain that serves them. */
  static ListenerSecurity listener(Collection<VirtualService> served) {
    List<ListenerSecurity.JwtProvider> providers = new ArrayList<>();
    for (VirtualService vs : served) {
      for (SecurityOptions.JwtProvider provider : vs.options().security().jwtProviders()) {
        providers.add(provider(vs, provider));
      }
    }
    return new ListenerSecurity(providers);
  }

  /**
   * The effective security of {@code route}, one of {@code vs}'s routes or of a RouteTable under it.
   */
  static RouteSecurity route(VirtualService vs, Route route) {
    SecurityOptions defaults = vs.options().security();
    SecurityOptions own = route.options().security();
    Set<String> defined = new java.util.HashSet<>();
    defaults.jwtProviders().forEach(p -> defined.add(p.name()));
    Optional<SecurityOptions.Jwt> jwt = own.jwt().or(defaults::jwt)
        .filter(j -> j.mode() != SecurityOptions.JwtMode.DISABLED);
    Optional<SecurityOptions.Rbac> rbac = own.rbac().or(defaults::rbac).filter(r -> !r.disabled());
    Set<String> verified = SecurityChecks.effective(jwt);
    boolean broken = jwt.map(j -> !defined.containsAll(j.providers()) || j.providers().isEmpty()).orElse(false)
        || rbac.map(r -> r.rules().isEmpty() || r.rules().stream().flatMap(rule -> rule.claims().stream())
            .anyMatch(c -> !verified.contains(c.provider()) || !defined.contains(c.provider()))).orElse(false);
    if (broken) {
      return new RouteSecurity(Optional.empty(), Optional.of(RouteSecurity.AccessRules.denyAll()));
    }
    Optional<RouteSecurity.JwtRequirement> requirement = jwt.map(j -> new RouteSecurity.JwtRequirement(
        j.providers().stream().map(p -> providerName(vs.key(), p)).toList(),
        j.mode() == SecurityOptions.JwtMode.OPTIONAL));
    try {
      return new RouteSecurity(requirement, rbac.map(r -> rules(vs.key(), r)));
    } catch (IllegalArgumentException e) {
      // Only input validation did not see (a RouteTable's rule) gets here; refuse rather than serve unchecked.
      return new RouteSecurity(Optional.empty(), Optional.of(RouteSecurity.AccessRules.denyAll()));
    }
  }

  /** {@code host} for proxyless gRPC clients, which run no security filters (validation warns). */
  static io.holdfast.ir.VirtualHost withoutSecurity(io.holdfast.ir.VirtualHost host) {
    return RouteSecurity.withoutSecurity(host);
  }

  static String providerName(ResourceKey vs, String provider) {
    return vs.namespace() + "/" + vs.name() + "/" + provider;
  }

  private static ListenerSecurity.JwtProvider provider(VirtualService vs, SecurityOptions.JwtProvider provider) {
    ListenerSecurity.Jwks jwks;
    if (provider.remoteJwks().isPresent()) {
      SecurityOptions.RemoteJwks remote = provider.remoteJwks().get();
      jwks = new ListenerSecurity.RemoteJwks(remote.uri(), Lowering.upstream(remote.upstream(),
          vs.metadata().namespace()), remote.timeout(), remote.cacheDuration());
    } else {
      SecurityOptions.LocalJwks local = provider.localJwks().orElseThrow(() -> new IllegalArgumentException(
          vs.key() + ": JWT provider " + provider.name() + " has no key set; lower only Validator output"));
      jwks = local.inline().<ListenerSecurity.Jwks>map(ListenerSecurity.InlineJwks::new)
          .orElseGet(() -> new ListenerSecurity.FileJwks(local.file().orElseThrow()));
    }
    List<ListenerSecurity.TokenSource> from = new ArrayList<>();
    provider.fromHeaders().forEach(h -> from.add(new ListenerSecurity.HeaderToken(h.name(), h.prefix())));
    provider.fromCookies().forEach(c -> from.add(new ListenerSecurity.CookieToken(c)));
    provider.fromParams().forEach(q -> from.add(new ListenerSecurity.QueryToken(q)));
    return new ListenerSecurity.JwtProvider(providerName(vs.key(), provider.name()), provider.issuer(),
        provider.audiences(), jwks, from, provider.claimsToHeaders().stream()
            .map(c -> new ListenerSecurity.ClaimToHeader(c.claim(), c.header())).toList(),
        provider.forwardToken());
  }

  private static RouteSecurity.AccessRules rules(ResourceKey vs, SecurityOptions.Rbac rbac) {
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
      rule.claims().forEach(c -> all.add(new RouteSecurity.Claim(providerName(vs, c.provider()),
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

  private static RouteMatch.HeaderMatch header(HeaderMatch h) {
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
