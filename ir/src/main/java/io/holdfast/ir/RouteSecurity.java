package io.holdfast.ir;

import com.google.common.net.InetAddresses;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The security a route enforces, already resolved by the front end (a route's own setting replaces its virtual
 * host's): who must present a JWT, and which requests the authorisation rules let through. Provider names refer to
 * the {@link ListenerSecurity} of the filter chain serving the route.
 *
 * @param jwt      the JWT the request must (or may) carry; empty: none is checked
 * @param rbac     the authorisation rules; empty: every request passes them
 * @param extAuthz the external authorisation service (of the chain's {@link ListenerSecurity}) that must allow
 *                 the request; empty: none is asked
 * @param basicAuth the basic-auth user set (of the chain's {@link ListenerSecurity}) whose credentials the request
 *                 must carry; empty: none is checked
 * @param oauth2   the OAuth2 login (of the chain's {@link ListenerSecurity}) a request without a session goes
 *                 through; empty: none
 * @param jwtAfterAuthz the JWT checked after the external authorisation service allowed the request (e.g. one that
 *                 service put in a header); empty: none is checked then. Its providers are the chain's too, and
 *                 claim rules may name them
 */
public record RouteSecurity(Optional<JwtRequirement> jwt, Optional<AccessRules> rbac, Optional<String> extAuthz,
    Optional<String> basicAuth, Optional<String> oauth2, Optional<JwtRequirement> jwtAfterAuthz) {

  public static final RouteSecurity NONE = new RouteSecurity(Optional.empty(), Optional.empty());

  public RouteSecurity {
    Objects.requireNonNull(jwt, "jwt");
    Objects.requireNonNull(rbac, "rbac");
    Objects.requireNonNull(extAuthz, "extAuthz");
    Objects.requireNonNull(basicAuth, "basicAuth");
    Objects.requireNonNull(oauth2, "oauth2");
    Objects.requireNonNull(jwtAfterAuthz, "jwtAfterAuthz");
  }

  /** Without a JWT check after external authorisation. */
  public RouteSecurity(Optional<JwtRequirement> jwt, Optional<AccessRules> rbac, Optional<String> extAuthz,
      Optional<String> basicAuth, Optional<String> oauth2) {
    this(jwt, rbac, extAuthz, basicAuth, oauth2, Optional.empty());
  }

  /** Without OAuth2 login and without a JWT check after external authorisation. */
  public RouteSecurity(Optional<JwtRequirement> jwt, Optional<AccessRules> rbac, Optional<String> extAuthz,
      Optional<String> basicAuth) {
    this(jwt, rbac, extAuthz, basicAuth, Optional.empty(), Optional.empty());
  }

  /** This security with {@code value} as the JWT checked after external authorisation, the rest as it is. */
  public RouteSecurity withJwtAfterAuthz(Optional<JwtRequirement> value) {
    return new RouteSecurity(jwt, rbac, extAuthz, basicAuth, oauth2, value);
  }

  /** Without basic authentication. */
  public RouteSecurity(Optional<JwtRequirement> jwt, Optional<AccessRules> rbac, Optional<String> extAuthz) {
    this(jwt, rbac, extAuthz, Optional.empty());
  }

  /** Without external authorisation. */
  public RouteSecurity(Optional<JwtRequirement> jwt, Optional<AccessRules> rbac) {
    this(jwt, rbac, Optional.empty());
  }

  public boolean isNone() {
    return jwt.isEmpty() && rbac.isEmpty() && extAuthz.isEmpty() && basicAuth.isEmpty() && oauth2.isEmpty()
        && jwtAfterAuthz.isEmpty();
  }

  /**
   * {@code host} with its routes' security left out: for proxyless gRPC clients' listeners, which run no security
   * filters and have no {@link ListenerSecurity} for routes to name providers of. The same instance if none has any.
   */
  public static VirtualHost withoutSecurity(VirtualHost host) {
    if (host.routes().stream().allMatch(r -> r.security().isNone())) {
      return host;
    }
    return new VirtualHost(host.origin(), host.domains(), host.routes().stream()
        .map(r -> r.withSecurity(NONE)).toList());
  }

  /** The providers this route's rules and requirement name, in order, without duplicates. */
  public List<String> providers() {
    List<String> names = new java.util.ArrayList<>();
    jwt.ifPresent(j -> names.addAll(j.providers()));
    jwtAfterAuthz.ifPresent(j -> names.addAll(j.providers()));
    rbac.ifPresent(r -> r.rules().forEach(rule -> rule.all().forEach(c -> {
      if (c instanceof Claim claim) {
        names.add(claim.provider());
      }
    })));
    return names.stream().distinct().toList();
  }

  /**
   * A JWT verified by any one of {@code providers}.
   *
   * @param allowMissing a request without a token passes (one with an invalid token is still refused)
   */
  public record JwtRequirement(List<String> providers, boolean allowMissing) {
    public JwtRequirement {
      providers = List.copyOf(providers);
      if (providers.isEmpty()) {
        throw new IllegalArgumentException("a JWT requirement needs at least one provider");
      }
      if (new HashSet<>(providers).size() != providers.size()) {
        throw new IllegalArgumentException("JWT providers listed twice: " + providers);
      }
    }
  }

  /** What a matching request gets. */
  public enum Action {
    /** Only requests matching some rule pass; the others are answered 403. */
    ALLOW,
    /** Requests matching some rule are answered 403; the others pass. */
    DENY
  }

  /**
   * Authorisation rules: a request matches when it matches any rule. {@code ALLOW} with no rules refuses
   * everything (the front end uses it to fail closed).
   */
  public record AccessRules(Action action, List<Rule> rules) {
    public AccessRules {
      Objects.requireNonNull(action, "action");
      rules = List.copyOf(rules);
    }

    /** Refuses every request. */
    public static AccessRules denyAll() {
      return new AccessRules(Action.ALLOW, List.of());
    }
  }

  /** A request matches a rule when it meets all its conditions (at least one). */
  public record Rule(List<Condition> all) {
    public Rule {
      all = List.copyOf(all);
      if (all.isEmpty()) {
        throw new IllegalArgumentException("a rule needs at least one condition");
      }
    }
  }

  /** One thing a request is checked for. */
  public sealed interface Condition {
  }

  /**
   * The client address is in one of {@code ranges}.
   *
   * @param direct true: the peer of the connection; false: the client address Envoy derives from
   *               X-Forwarded-For under the connection manager's trusted hops
   */
  public record ClientIp(List<IpRange> ranges, boolean direct) implements Condition {
    public ClientIp {
      ranges = List.copyOf(ranges);
      if (ranges.isEmpty()) {
        throw new IllegalArgumentException("a client IP condition needs at least one range");
      }
    }
  }

  /** An IP network: an address literal and a prefix length. */
  public record IpRange(String address, int prefixLength) {
    public IpRange {
      Objects.requireNonNull(address, "address");
      if (!InetAddresses.isInetAddress(address)) {
        throw new IllegalArgumentException(address + " is not an IP literal");
      }
      int bits = InetAddresses.forString(address).getAddress().length * 8;
      if (prefixLength < 0 || prefixLength > bits) {
        throw new IllegalArgumentException("prefix length " + prefixLength + " is out of range 0-" + bits);
      }
    }
  }

  /** A request header meets {@code match} (its {@code invert} included). */
  public record Header(RouteMatch.HeaderMatch match) implements Condition {
    public Header {
      Objects.requireNonNull(match, "match");
    }
  }

  /**
   * A claim of the JWT {@code provider} verified has one of {@code values} (a string claim equal to one, or a
   * list claim holding one).
   *
   * @param path the claim's name, then the names of nested objects' members
   */
  public record Claim(String provider, List<String> path, List<String> values) implements Condition {
    public Claim {
      Objects.requireNonNull(provider, "provider");
      path = List.copyOf(path);
      values = List.copyOf(values);
      if (path.isEmpty() || values.isEmpty()) {
        throw new IllegalArgumentException("a claim condition needs a claim name and at least one value");
      }
    }
  }
}
