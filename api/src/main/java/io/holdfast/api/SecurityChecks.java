package io.holdfast.api;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shape rules of {@code security} options ({@link SecurityOptions}), for both front ends: what Envoy would
 * reject, and what would serve a route with less protection than written, is an error on the object that wrote it.
 * References (upstreams) are each front end's to check. Inline key sets are never quoted in a message.
 */
public final class SecurityChecks {

  /** Where findings go: the caller's status of the object that wrote the options. */
  public interface Report {
    void error(String field, String reason, String message);

    void warn(String field, String reason, String message);

    /** The bounds regexes are checked against. */
    InputLimits limits();
  }


  /** JWT providers per VirtualService: each one is a verifier in every proxy serving it. */
  public static final int MAX_JWT_PROVIDERS = 16;
  /** Rules per authorisation policy, and conditions per rule: each is evaluated on every request. */
  public static final int MAX_RBAC_RULES = 64;
  public static final int MAX_RULE_CONDITIONS = 64;
  /** The inline key-set size Envoy holds in every listener config. */
  public static final int MAX_INLINE_JWKS_CHARS = 65536;

  public static final String JWT_PROVIDER_NOT_FOUND = "JwtProviderNotFound";
  public static final String DUPLICATE_JWT_PROVIDER = "DuplicateJwtProvider";
  public static final String INVALID_JWKS = "InvalidJwks";
  public static final String PRIVATE_KEY_IN_JWKS = "PrivateKeyInJwks";
  public static final String SYMMETRIC_KEY_IN_JWKS = "SymmetricKeyInJwks";
  public static final String INVALID_EXT_AUTHZ = "InvalidExtAuthz";
  /** The request body Envoy buffers per request for the authorisation service (BufferSettings). */
  public static final int MAX_AUTHZ_BODY_BYTES = 1 << 20;
  public static final String INVALID_CIDR = "InvalidCidr";
  public static final String EMPTY_RULE = "EmptyRule";
  public static final String CLAIM_WITHOUT_JWT = "ClaimWithoutJwt";
  public static final String TOO_MANY = "TooManySecurityElements";

  private static final Pattern HEADER_NAME = Pattern.compile(":?[!#$%&'*+.^_`|~0-9A-Za-z-]+");
  private static final Pattern PROVIDER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private SecurityChecks() {
  }

  /** The VirtualService's {@code spec.options.security} and each of its routes' {@code options.security}. */
  public static void check(VirtualService vs, Report sink) {
    SecurityOptions defaults = vs.options().security();
    String at = "spec.options.security";
    Optional<Set<String>> names = checkDefinitions(defaults, at, sink);
    if (names.isEmpty()) {
      return;
    }
    boolean used = !defaults.jwtProviders().isEmpty() || defaults.rbac().isPresent()
        || defaults.extAuthz().isPresent() || defaults.basicAuth().isPresent() || defaults.oauth2().isPresent();
    defaults.oauth2().ifPresent(oauth2 -> OAuth2Checks.checkPathsRouted(oauth2, vs.routes(), at + ".oauth2", sink));
    for (int i = 0; i < vs.routes().size(); i++) {
      check(vs.routes().get(i), "spec.routes[" + i + "].options.security", names.get(), defaults.jwt(),
          defaults.jwtAfterAuthz(), sink);
      used |= !vs.routes().get(i).options().security().equals(SecurityOptions.NONE);
    }
    if (used && !vs.grpcDomains().isEmpty()) {
      sink.warn(at, Reasons.GRPC_IGNORED_OPTION, "proxyless gRPC clients of " + vs.grpcDomains()
          + " do not run JWT or authorisation filters: only Envoy proxies enforce this security");
    }
  }

  /**
   * Providers, {@code jwt} and {@code rbac} written together at {@code at} (a VirtualService's options, a
   * SecurityPolicy's spec); the provider names defined, empty if there are too many to look at.
   */
  public static Optional<Set<String>> checkDefinitions(SecurityOptions security, String at, Report sink) {
    List<SecurityOptions.JwtProvider> providers = security.jwtProviders();
    if (providers.size() > MAX_JWT_PROVIDERS) {
      sink.error(at + ".jwtProviders", TOO_MANY, providers.size() + " JWT providers; at most " + MAX_JWT_PROVIDERS);
      return Optional.empty();
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < providers.size(); i++) {
      checkProvider(providers.get(i), at + ".jwtProviders[" + i + "]", names, sink);
    }
    security.jwt().ifPresent(jwt -> checkJwt(jwt, at + ".jwt", names, sink));
    security.jwtAfterAuthz().ifPresent(jwt -> checkJwt(jwt, at + ".jwtAfterAuthz", names, sink));
    security.rbac().ifPresent(rbac -> checkRbac(rbac, at + ".rbac", names, effective(security.jwt(),
        security.jwtAfterAuthz()), sink));
    security.extAuthz().ifPresent(authz -> checkExtAuthz(authz, at + ".extAuthz", sink));
    security.basicAuth().ifPresent(basic -> checkBasicAuth(basic, at + ".basicAuth", sink));
    security.oauth2().ifPresent(oauth2 -> OAuth2Checks.check(oauth2, at + ".oauth2", sink));
    return Optional.of(names);
  }

  /**
   * A route's {@code options.security}; {@code providers} are the names its VirtualService defines (a
   * RouteTable's routes are checked against their VirtualService when lowered, as only then is it known).
   */
  public static void check(Route route, String at, Set<String> providers, Optional<SecurityOptions.Jwt> inherited,
      Report sink) {
    check(route, at, providers, inherited, Optional.empty(), sink);
  }

  /**
   * As {@link #check(Route, String, Set, Optional, Report)}, {@code inheritedAfterAuthz} being the VirtualService's
   * JWT check after external authorisation: claims may name providers of either stage.
   */
  public static void check(Route route, String at, Set<String> providers, Optional<SecurityOptions.Jwt> inherited,
      Optional<SecurityOptions.Jwt> inheritedAfterAuthz, Report sink) {
    SecurityOptions security = route.options().security();
    security.jwt().ifPresent(jwt -> checkJwt(jwt, at + ".jwt", providers, sink));
    security.jwtAfterAuthz().ifPresent(jwt -> checkJwt(jwt, at + ".jwtAfterAuthz", providers, sink));
    Optional<SecurityOptions.Jwt> jwt = security.jwt().or(() -> inherited);
    Optional<SecurityOptions.Jwt> afterAuthz = security.jwtAfterAuthz().or(() -> inheritedAfterAuthz);
    security.rbac().ifPresent(rbac -> checkRbac(rbac, at + ".rbac", providers, effective(jwt, afterAuthz), sink));
  }

  /** A RouteTable's routes: their own shape only. */
  public static void check(List<Route> routes, Report sink) {
    for (int i = 0; i < routes.size(); i++) {
      SecurityOptions security = routes.get(i).options().security();
      String at = "spec.routes[" + i + "].options.security";
      security.jwt().ifPresent(jwt -> checkJwt(jwt, at + ".jwt", null, sink));
      security.jwtAfterAuthz().ifPresent(jwt -> checkJwt(jwt, at + ".jwtAfterAuthz", null, sink));
      security.rbac().ifPresent(rbac -> checkRbac(rbac, at + ".rbac", null, null, sink));
    }
  }

  /** The providers whose tokens a request under {@code jwt} may carry verified; empty if none is checked. */
  public static Set<String> effective(Optional<SecurityOptions.Jwt> jwt) {
    return jwt.filter(j -> j.mode() != SecurityOptions.JwtMode.DISABLED)
        .map(j -> Set.copyOf(j.providers())).orElse(Set.of());
  }

  /** The providers verified by either JWT stage: before and after external authorisation. */
  public static Set<String> effective(Optional<SecurityOptions.Jwt> jwt, Optional<SecurityOptions.Jwt> afterAuthz) {
    Set<String> both = new HashSet<>(effective(jwt));
    both.addAll(effective(afterAuthz));
    return Set.copyOf(both);
  }

  private static void checkProvider(SecurityOptions.JwtProvider provider, String at, Set<String> names,
      Report sink) {
    if (!PROVIDER_NAME.matcher(provider.name()).matches()) {
      sink.error(at + ".name", Reasons.INVALID_NAME, "\"" + provider.name() + "\" is not a provider name"
          + " (letters, digits, '.', '_', '-'; at most 63)");
    } else if (!names.add(provider.name())) {
      sink.error(at + ".name", DUPLICATE_JWT_PROVIDER, "JWT provider " + provider.name() + " is defined twice");
    }
    if (provider.issuer().isEmpty()) {
      sink.error(at + ".issuer", Reasons.INVALID_VALUE, "issuer must not be empty");
    }
    if (provider.remoteJwks().isPresent() == provider.localJwks().isPresent()) {
      sink.error(at, provider.remoteJwks().isPresent() ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "give exactly one of remoteJwks and localJwks");
    }
    provider.remoteJwks().ifPresent(remote -> {
      if (!remote.uri().startsWith("https://") && !remote.uri().startsWith("http://")) {
        sink.error(at + ".remoteJwks.uri", Reasons.INVALID_VALUE, "the JWKS uri must be an http(s) URL");
      }
      headerSafe(remote.uri(), at + ".remoteJwks.uri", sink);
      positive(remote.timeout(), at + ".remoteJwks.timeout", sink);
      positive(remote.cacheDuration(), at + ".remoteJwks.cacheDuration", sink);
    });
    provider.localJwks().ifPresent(local -> checkLocal(local, at + ".localJwks", sink));
    for (int i = 0; i < provider.fromHeaders().size(); i++) {
      SecurityOptions.TokenHeader header = provider.fromHeaders().get(i);
      headerName(header.name(), at + ".fromHeaders[" + i + "].name", sink);
      headerSafe(header.prefix(), at + ".fromHeaders[" + i + "].prefix", sink);
    }
    for (int i = 0; i < provider.fromCookies().size(); i++) {
      if (provider.fromCookies().get(i).isEmpty()) {
        sink.error(at + ".fromCookies[" + i + "]", Reasons.INVALID_VALUE, "a cookie name must not be empty");
      }
    }
    for (int i = 0; i < provider.fromParams().size(); i++) {
      if (provider.fromParams().get(i).isEmpty()) {
        sink.error(at + ".fromParams[" + i + "]", Reasons.INVALID_VALUE, "a parameter name must not be empty");
      }
    }
    for (int i = 0; i < provider.claimsToHeaders().size(); i++) {
      SecurityOptions.ClaimToHeader claim = provider.claimsToHeaders().get(i);
      headerName(claim.header(), at + ".claimsToHeaders[" + i + "].header", sink);
      if (claim.claim().isEmpty()) {
        sink.error(at + ".claimsToHeaders[" + i + "].claim", Reasons.INVALID_VALUE, "claim must not be empty");
      }
    }
  }

  private static void checkExtAuthz(SecurityOptions.ExtAuthz authz, String at, Report sink) {
    boolean service = authz.grpc().isPresent() || authz.http().isPresent();
    if (authz.disabled()) {
      if (service) {
        sink.warn(at, Reasons.FIELD_IGNORED, "a service means nothing with disabled: true");
      }
      return;
    }
    if (authz.grpc().isPresent() == authz.http().isPresent()) {
      sink.error(at, INVALID_EXT_AUTHZ, "give exactly one of grpc and http");
    }
    positive(authz.timeout(), at + ".timeout", sink);
    for (int i = 0; i < authz.headersToAuthz().size(); i++) {
      headerName(authz.headersToAuthz().get(i), at + ".headersToAuthz[" + i + "]", sink);
    }
    authz.maxRequestBytes().filter(b -> b < 1 || b > MAX_AUTHZ_BODY_BYTES).ifPresent(b -> sink.error(
        at + ".withRequestBody.maxRequestBytes", INVALID_EXT_AUTHZ, b + " is not in 1-" + MAX_AUTHZ_BODY_BYTES));
    authz.http().ifPresent(http -> {
      if (!http.pathPrefix().isEmpty() && !http.pathPrefix().startsWith("/")) {
        sink.error(at + ".http.pathPrefix", Reasons.INVALID_PATH, "pathPrefix must start with /");
      }
      headerSafe(http.pathPrefix(), at + ".http.pathPrefix", sink);
      for (int i = 0; i < http.headersToUpstream().size(); i++) {
        headerName(http.headersToUpstream().get(i), at + ".http.headersToUpstream[" + i + "]", sink);
      }
      for (int i = 0; i < http.headersToClient().size(); i++) {
        headerName(http.headersToClient().get(i), at + ".http.headersToClient[" + i + "]", sink);
      }
    });
  }

  private static void checkBasicAuth(SecurityOptions.BasicAuth basic, String at, Report sink) {
    if (basic.disabled()) {
      if (basic.users().isPresent() || basic.forwardUsernameHeader().isPresent()) {
        sink.warn(at, Reasons.FIELD_IGNORED, "users and forwardUsernameHeader mean nothing with disabled: true");
      }
      return;
    }
    if (basic.users().isEmpty()) {
      sink.error(at + ".users", Reasons.MISSING_FIELD, "name the Secret holding the htpasswd users");
    }
    basic.users().filter(u -> u.key().isEmpty())
        .ifPresent(u -> sink.error(at + ".users.key", Reasons.INVALID_VALUE, "key must not be empty"));
    basic.forwardUsernameHeader().ifPresent(h -> headerName(h, at + ".forwardUsernameHeader", sink));
  }

  private static void checkLocal(SecurityOptions.LocalJwks local, String at, Report sink) {
    int given = (local.inline().isPresent() ? 1 : 0) + (local.file().isPresent() ? 1 : 0)
        + (local.secretRef().isPresent() ? 1 : 0);
    if (given != 1) {
      sink.error(at, given > 1 ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "give exactly one of inline, file and secretRef");
      return;
    }
    local.secretRef().filter(r -> r.key().isEmpty())
        .ifPresent(r -> sink.error(at + ".secretRef.key", Reasons.INVALID_VALUE, "key must not be empty"));
    local.file().ifPresent(file -> {
      if (!file.startsWith("/")) {
        sink.error(at + ".file", Reasons.INVALID_VALUE, "the JWKS file must be an absolute path on the proxy");
      }
    });
    local.inline().ifPresent(json -> checkJwks(json, at + ".inline", "the key set", sink));
  }

  /**
   * A JSON Web Key Set as Envoy holds it inline: JSON with a non-empty {@code keys} list of public keys, at most
   * {@link #MAX_INLINE_JWKS_CHARS}. {@code what} names it in messages; its content is never quoted (it may hold
   * keys).
   */
  static void checkJwks(String json, String field, String what, Report sink) {
    if (json.length() > MAX_INLINE_JWKS_CHARS) {
      sink.error(field, INVALID_JWKS, what + " has " + json.length() + " characters; at most "
          + MAX_INLINE_JWKS_CHARS);
      return;
    }
    // Envoy refuses the listener if the key set does not parse.
    JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (RuntimeException e) {
      sink.error(field, INVALID_JWKS, what + " is not JSON");
      return;
    }
    if (!tree.path("keys").isArray() || tree.path("keys").isEmpty()) {
      sink.error(field, INVALID_JWKS, "a JWKS is a JSON object with a non-empty \"keys\" list");
      return;
    }
    for (int i = 0; i < tree.path("keys").size(); i++) {
      JsonNode key = tree.path("keys").get(i);
      if (key.has("d")) {
        // A private key verifies nothing more than its public half, and would sit in every proxy's config.
        sink.error(field, PRIVATE_KEY_IN_JWKS, "keys[" + i + "] holds a private key (member d); give"
            + " the public key only");
      } else if ("oct".equals(key.path("kty").asString(""))) {
        sink.warn(field, SYMMETRIC_KEY_IN_JWKS, "keys[" + i + "] is a symmetric (oct) key: anyone"
            + " who can read " + what + " can sign tokens; prefer asymmetric keys or remoteJwks");
      }
    }
  }

  private static void checkJwt(SecurityOptions.Jwt jwt, String at, Set<String> providers, Report sink) {
    if (jwt.mode() == SecurityOptions.JwtMode.DISABLED) {
      if (!jwt.providers().isEmpty()) {
        sink.warn(at + ".providers", Reasons.FIELD_IGNORED, "providers mean nothing with mode Disabled");
      }
      return;
    }
    if (jwt.providers().isEmpty()) {
      sink.error(at + ".providers", Reasons.MISSING_FIELD, "name at least one JWT provider");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < jwt.providers().size(); i++) {
      String name = jwt.providers().get(i);
      if (!seen.add(name)) {
        sink.error(at + ".providers[" + i + "]", Reasons.INVALID_VALUE, "provider " + name + " is listed twice");
      } else if (providers != null && !providers.contains(name)) {
        sink.error(at + ".providers[" + i + "]", JWT_PROVIDER_NOT_FOUND, "the VirtualService defines no JWT"
            + " provider " + name + " (spec.options.security.jwtProviders)");
      }
    }
  }

  /**
   * @param providers null for a RouteTable's rules: claims are then checked when lowered
   * @param verified  the providers the same request's tokens are verified by (claims need one of them)
   */
  private static void checkRbac(SecurityOptions.Rbac rbac, String at, Set<String> providers, Set<String> verified,
      Report sink) {
    if (rbac.disabled()) {
      if (!rbac.rules().isEmpty()) {
        sink.warn(at + ".rules", Reasons.FIELD_IGNORED, "rules mean nothing with disabled: true");
      }
      return;
    }
    if (rbac.rules().isEmpty()) {
      sink.error(at + ".rules", Reasons.MISSING_FIELD, "give at least one rule, or disabled: true");
      return;
    }
    if (rbac.rules().size() > MAX_RBAC_RULES) {
      sink.error(at + ".rules", TOO_MANY, rbac.rules().size() + " rules; at most " + MAX_RBAC_RULES);
      return;
    }
    for (int i = 0; i < rbac.rules().size(); i++) {
      SecurityOptions.RbacRule rule = rbac.rules().get(i);
      String field = at + ".rules[" + i + "]";
      int conditions = rule.clientIp().size() + rule.directClientIp().size() + rule.headers().size()
          + rule.claims().size();
      if (conditions == 0) {
        sink.error(field, EMPTY_RULE, "a rule needs at least one of clientIp, directClientIp, headers, claims");
        continue;
      }
      if (conditions > MAX_RULE_CONDITIONS) {
        sink.error(field, TOO_MANY, conditions + " conditions; at most " + MAX_RULE_CONDITIONS);
        continue;
      }
      cidrs(rule.clientIp(), field + ".clientIp", sink);
      cidrs(rule.directClientIp(), field + ".directClientIp", sink);
      for (int j = 0; j < rule.headers().size(); j++) {
        HeaderMatch header = rule.headers().get(j);
        String h = field + ".headers[" + j + "]";
        headerName(header.name(), h + ".name", sink);
        if (header.condition() instanceof HeaderMatch.Regex regex) {
          Re2Check.refusal(regex.value(), sink.limits()).ifPresent(r -> sink.error(h + ".regex", r.reason(),
              r.message()));
        } else if (header.condition() instanceof HeaderMatch.Prefix prefix && prefix.value().isEmpty()) {
          sink.error(h + ".prefix", Reasons.EMPTY_MATCHER, "empty prefix matches everything; use present: true");
        }
      }
      for (int j = 0; j < rule.claims().size(); j++) {
        checkClaim(rule.claims().get(j), field + ".claims[" + j + "]", providers, verified, sink);
      }
    }
  }

  private static void checkClaim(SecurityOptions.ClaimMatch claim, String at, Set<String> providers,
      Set<String> verified, Report sink) {
    if (claim.name().isEmpty() || claim.name().startsWith(".") || claim.name().endsWith(".")
        || claim.name().contains("..")) {
      sink.error(at + ".name", Reasons.INVALID_VALUE, "a claim name is non-empty, with '.' between nested names");
    }
    if (claim.values().isEmpty()) {
      sink.error(at + ".values", Reasons.MISSING_FIELD, "give at least one value");
    }
    if (providers == null) {
      return;
    }
    if (!providers.contains(claim.provider())) {
      sink.error(at + ".provider", JWT_PROVIDER_NOT_FOUND, "the VirtualService defines no JWT provider "
          + claim.provider());
    } else if (!verified.contains(claim.provider())) {
      // Without the provider in the route's requirement no token is verified, so the claim could never match.
      sink.error(at + ".provider", CLAIM_WITHOUT_JWT, "the route does not verify tokens of " + claim.provider()
          + "; add it to the jwt providers that apply here");
    }
  }

  private static void cidrs(List<String> ranges, String at, Report sink) {
    for (int i = 0; i < ranges.size(); i++) {
      try {
        Cidr.parse(ranges.get(i));
      } catch (IllegalArgumentException e) {
        sink.error(at + "[" + i + "]", INVALID_CIDR, e.getMessage());
      }
    }
  }

  static void headerName(String name, String at, Report sink) {
    if (!HEADER_NAME.matcher(name).matches()) {
      sink.error(at, Reasons.INVALID_HEADER_NAME, "\"" + name + "\" is not a header name");
    }
  }

  static void positive(java.time.Duration duration, String at, Report sink) {
    if (duration.isZero() || duration.isNegative()) {
      sink.error(at, Reasons.INVALID_VALUE, "must be positive");
    }
  }

  /** Envoy refuses NUL, CR and LF in header values (and letting them through would allow header injection). */
  static void headerSafe(String value, String field, Report sink) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == 0 || c == '\n' || c == '\r') {
        sink.error(field, Reasons.INVALID_VALUE, "must not contain NUL, CR or LF (found at index " + i + ")");
        return;
      }
    }
  }
}
