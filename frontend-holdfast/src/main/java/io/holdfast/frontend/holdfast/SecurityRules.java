package io.holdfast.frontend.holdfast;

import io.holdfast.api.Cidr;
import io.holdfast.api.HeaderMatch;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.VirtualService;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Rules of {@code security} options ({@link SecurityOptions}): what Envoy would reject, and what would serve a
 * route with less protection than written, is an error on the object that wrote it, so its last good version keeps
 * serving. Secret-like values (inline key sets) are never quoted in a message.
 */
final class SecurityRules {

  /** JWT providers per VirtualService: each one is a verifier in every proxy serving it. */
  static final int MAX_JWT_PROVIDERS = 16;
  /** Rules per authorisation policy, and conditions per rule: each is evaluated on every request. */
  static final int MAX_RBAC_RULES = 64;
  static final int MAX_RULE_CONDITIONS = 64;
  /** The inline key-set size Envoy holds in every listener config. */
  static final int MAX_INLINE_JWKS_CHARS = 65536;

  static final String JWT_PROVIDER_NOT_FOUND = "JwtProviderNotFound";
  static final String DUPLICATE_JWT_PROVIDER = "DuplicateJwtProvider";
  static final String INVALID_JWKS = "InvalidJwks";
  static final String JWKS_UPSTREAM_NOT_FOUND = "JwksUpstreamNotFound";
  static final String JWKS_UPSTREAM_REJECTED = "JwksUpstreamRejected";
  static final String PRIVATE_KEY_IN_JWKS = "PrivateKeyInJwks";
  static final String SYMMETRIC_KEY_IN_JWKS = "SymmetricKeyInJwks";
  static final String INVALID_CIDR = "InvalidCidr";
  static final String EMPTY_RULE = "EmptyRule";
  static final String CLAIM_WITHOUT_JWT = "ClaimWithoutJwt";
  static final String TOO_MANY = "TooManySecurityElements";

  private static final Pattern PROVIDER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private SecurityRules() {
  }

  /** The VirtualService's {@code spec.options.security} and each of its routes' {@code options.security}. */
  static void check(VirtualService vs, Ledger.Sink sink) {
    SecurityOptions defaults = vs.options().security();
    String at = "spec.options.security";
    List<SecurityOptions.JwtProvider> providers = defaults.jwtProviders();
    if (providers.size() > MAX_JWT_PROVIDERS) {
      sink.error(at + ".jwtProviders", TOO_MANY, providers.size() + " JWT providers; at most " + MAX_JWT_PROVIDERS);
      return;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < providers.size(); i++) {
      checkProvider(providers.get(i), at + ".jwtProviders[" + i + "]", names, sink);
    }
    Optional<SecurityOptions.Jwt> vsJwt = defaults.jwt();
    vsJwt.ifPresent(jwt -> checkJwt(jwt, at + ".jwt", names, sink));
    defaults.rbac().ifPresent(rbac -> checkRbac(rbac, at + ".rbac", names, effective(vsJwt), sink));
    boolean used = !providers.isEmpty() || defaults.rbac().isPresent();
    for (int i = 0; i < vs.routes().size(); i++) {
      check(vs.routes().get(i), "spec.routes[" + i + "].options.security", names, vsJwt, sink);
      used |= !vs.routes().get(i).options().security().equals(SecurityOptions.NONE);
    }
    if (used && !vs.grpcDomains().isEmpty()) {
      sink.warn(at, Reasons.GRPC_IGNORED_OPTION, "proxyless gRPC clients of " + vs.grpcDomains()
          + " do not run JWT or authorisation filters: only Envoy proxies enforce this security");
    }
  }

  /**
   * A route's {@code options.security}; {@code providers} are the names its VirtualService defines (a
   * RouteTable's routes are checked against their VirtualService when lowered, as only then is it known).
   */
  static void check(Route route, String at, Set<String> providers, Optional<SecurityOptions.Jwt> inherited,
      Ledger.Sink sink) {
    SecurityOptions security = route.options().security();
    security.jwt().ifPresent(jwt -> checkJwt(jwt, at + ".jwt", providers, sink));
    Optional<SecurityOptions.Jwt> jwt = security.jwt().or(() -> inherited);
    security.rbac().ifPresent(rbac -> checkRbac(rbac, at + ".rbac", providers, effective(jwt), sink));
  }

  /** A RouteTable's routes: their own shape only. */
  static void check(List<Route> routes, Ledger.Sink sink) {
    for (int i = 0; i < routes.size(); i++) {
      SecurityOptions security = routes.get(i).options().security();
      String at = "spec.routes[" + i + "].options.security";
      security.jwt().ifPresent(jwt -> checkJwt(jwt, at + ".jwt", null, sink));
      security.rbac().ifPresent(rbac -> checkRbac(rbac, at + ".rbac", null, null, sink));
    }
  }

  /**
   * Each remote key set's upstream must exist and be served (checked after the upstreams, as the mirror's is).
   */
  static void checkReferences(VirtualService vs, Ledger ledger, Consent consent) {
    List<SecurityOptions.JwtProvider> providers = vs.options().security().jwtProviders();
    for (int i = 0; i < providers.size() && i < MAX_JWT_PROVIDERS; i++) {
      Optional<SecurityOptions.RemoteJwks> remote = providers.get(i).remoteJwks();
      if (remote.isEmpty()) {
        continue;
      }
      String field = "spec.options.security.jwtProviders[" + i + "].remoteJwks.upstream";
      ObjectRef ref = remote.get().upstream();
      if (!Syntax.isObjectName(ref.name()) || !ref.namespace().map(Syntax::isNamespace).orElse(true)) {
        ledger.error(vs.key(), field, Reasons.INVALID_NAME, "\"" + ref.name() + "\" is not an Upstream name");
        continue;
      }
      ResourceKey target = ref.resolve(ResourceKey.UPSTREAM, vs.metadata().namespace());
      if (!ConsentRules.reference(vs.key(), target, field, consent, ledger)) {
        continue;
      }
      if (!ledger.isKnown(target)) {
        ledger.error(vs.key(), field, JWKS_UPSTREAM_NOT_FOUND, target + " does not exist");
      } else if (ledger.isRejected(target)) {
        ledger.error(vs.key(), field, JWKS_UPSTREAM_REJECTED, target + " is rejected; see its status");
      }
    }
  }

  /** The providers whose tokens a request under {@code jwt} may carry verified; empty if none is checked. */
  static Set<String> effective(Optional<SecurityOptions.Jwt> jwt) {
    return jwt.filter(j -> j.mode() != SecurityOptions.JwtMode.DISABLED)
        .map(j -> Set.copyOf(j.providers())).orElse(Set.of());
  }

  private static void checkProvider(SecurityOptions.JwtProvider provider, String at, Set<String> names,
      Ledger.Sink sink) {
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
      RouteRules.headerSafe(remote.uri(), at + ".remoteJwks.uri", sink);
      positive(remote.timeout(), at + ".remoteJwks.timeout", sink);
      positive(remote.cacheDuration(), at + ".remoteJwks.cacheDuration", sink);
    });
    provider.localJwks().ifPresent(local -> checkLocal(local, at + ".localJwks", sink));
    for (int i = 0; i < provider.fromHeaders().size(); i++) {
      SecurityOptions.TokenHeader header = provider.fromHeaders().get(i);
      headerName(header.name(), at + ".fromHeaders[" + i + "].name", sink);
      RouteRules.headerSafe(header.prefix(), at + ".fromHeaders[" + i + "].prefix", sink);
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

  private static void checkLocal(SecurityOptions.LocalJwks local, String at, Ledger.Sink sink) {
    if (local.inline().isPresent() == local.file().isPresent()) {
      sink.error(at, local.inline().isPresent() ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "give exactly one of inline and file");
      return;
    }
    local.file().ifPresent(file -> {
      if (!file.startsWith("/")) {
        sink.error(at + ".file", Reasons.INVALID_VALUE, "the JWKS file must be an absolute path on the proxy");
      }
    });
    local.inline().ifPresent(json -> {
      if (json.length() > MAX_INLINE_JWKS_CHARS) {
        sink.error(at + ".inline", INVALID_JWKS, "the key set has " + json.length() + " characters; at most "
            + MAX_INLINE_JWKS_CHARS);
        return;
      }
      // Envoy refuses the listener if the key set does not parse; its content is never quoted (it may hold keys).
      JsonNode tree;
      try {
        tree = JSON.readTree(json);
      } catch (RuntimeException e) {
        sink.error(at + ".inline", INVALID_JWKS, "the key set is not JSON");
        return;
      }
      if (!tree.path("keys").isArray() || tree.path("keys").isEmpty()) {
        sink.error(at + ".inline", INVALID_JWKS, "a JWKS is a JSON object with a non-empty \"keys\" list");
        return;
      }
      for (int i = 0; i < tree.path("keys").size(); i++) {
        JsonNode key = tree.path("keys").get(i);
        if (key.has("d")) {
          // A private key verifies nothing more than its public half, and would sit in every proxy's config.
          sink.error(at + ".inline", PRIVATE_KEY_IN_JWKS, "keys[" + i + "] holds a private key (member d); give"
              + " the public key only");
        } else if ("oct".equals(key.path("kty").asString(""))) {
          sink.warn(at + ".inline", SYMMETRIC_KEY_IN_JWKS, "keys[" + i + "] is a symmetric (oct) key: anyone"
              + " who can read this VirtualService can sign tokens; prefer asymmetric keys or remoteJwks");
        }
      }
    });
  }

  private static void checkJwt(SecurityOptions.Jwt jwt, String at, Set<String> providers, Ledger.Sink sink) {
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
      Ledger.Sink sink) {
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
          RouteRules.regexError(regex.value(), h + ".regex", sink);
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
      Set<String> verified, Ledger.Sink sink) {
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

  private static void cidrs(List<String> ranges, String at, Ledger.Sink sink) {
    for (int i = 0; i < ranges.size(); i++) {
      try {
        Cidr.parse(ranges.get(i));
      } catch (IllegalArgumentException e) {
        sink.error(at + "[" + i + "]", INVALID_CIDR, e.getMessage());
      }
    }
  }

  private static void headerName(String name, String at, Ledger.Sink sink) {
    if (!Syntax.isHeaderName(name)) {
      sink.error(at, Reasons.INVALID_HEADER_NAME, "\"" + name + "\" is not a header name");
    }
  }

  private static void positive(java.time.Duration duration, String at, Ledger.Sink sink) {
    if (duration.isZero() || duration.isNegative()) {
      sink.error(at, Reasons.INVALID_VALUE, "must be positive");
    }
  }
}
