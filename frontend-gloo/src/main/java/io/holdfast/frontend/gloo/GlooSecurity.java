package io.holdfast.frontend.gloo;

import io.holdfast.api.HeaderMatch;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.SecurityOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo's {@code jwt}, {@code jwtStaged} and {@code rbac} options (virtual host and route) as Holdfast's
 * {@link SecurityOptions}: Envoy's {@code jwt_authn} and {@code rbac} filters, which is what Gloo configures. As in
 * Holdfast, providers live on the virtual host and a route can only turn the check off ({@code disable}) or replace
 * the access rules. Gloo's two JWT stages are Holdfast's two: {@code jwtStaged.beforeExtAuth} is {@code jwt}
 * (verified before external authorisation), {@code jwtStaged.afterExtAuth} and the unstaged {@code jwt} (which Gloo
 * runs after external auth) are {@code jwtAfterAuthz}; both may be given. Gloo's RBAC policies become rules: a
 * policy grants when one of its principals (all its claims) and its permissions (path prefix, methods) hold.
 */
final class GlooSecurity {

  static final Set<String> HOST_FIELDS = Set.of("jwt", "jwtStaged", "rbac");
  static final Set<String> ROUTE_FIELDS = Set.of("jwt", "jwtStaged", "rbac", "jwtProvidersStaged");

  private static final String AFTER = "afterExtAuth";
  private static final Set<String> STAGED = Set.of("beforeExtAuth", AFTER);
  private static final Set<String> VHOST_EXTENSION = Set.of("providers", "allowMissingOrFailedJwt",
      "validationPolicy");
  private static final Set<String> PROVIDER = Set.of("jwks", "audiences", "issuer", "tokenSource", "keepToken",
      "claimsToHeaders", "clockSkewSeconds", "attachFailedStatusToMetadata");
  private static final Set<String> JWKS = Set.of("remote", "local");
  private static final Set<String> REMOTE = Set.of("url", "upstreamRef", "cacheDuration");
  private static final Set<String> LOCAL = Set.of("key");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> TOKEN_SOURCE = Set.of("headers", "queryParams");
  private static final Set<String> HEADER_SOURCE = Set.of("header", "prefix");
  private static final Set<String> CLAIM_TO_HEADER = Set.of("claim", "header", "append");
  private static final Set<String> ROUTE_EXTENSION = Set.of("disable");
  private static final Set<String> RBAC = Set.of("disable", "policies");
  private static final Set<String> POLICY = Set.of("principals", "permissions", "nestedClaimDelimiter");
  private static final Set<String> PRINCIPAL = Set.of("jwtPrincipal");
  private static final Set<String> JWT_PRINCIPAL = Set.of("claims", "provider", "matcher");
  private static final Set<String> PERMISSIONS = Set.of("pathPrefix", "methods");

  /** Gloo's default cache duration of fetched keys (Holdfast's own default is Envoy's, 10 minutes). */
  static final Duration GLOO_JWKS_CACHE = Duration.ofMinutes(5);
  /** Gloo's and Envoy's clock skew; Holdfast does not set another. */
  private static final int CLOCK_SKEW_SECONDS = 60;

  private GlooSecurity() {
  }

  /** A virtual host's {@code jwt}/{@code jwtStaged} providers and requirements, and its {@code rbac}. */
  static SecurityOptions host(Node options) {
    List<SecurityOptions.JwtProvider> providers = new ArrayList<>();
    Optional<SecurityOptions.Jwt> before = Optional.empty();
    Optional<SecurityOptions.Jwt> after = Optional.empty();
    for (Map.Entry<Boolean, Node> stage : hostStages(options).entrySet()) {
      Node extension = stage.getValue().only("JWT virtual host extension", VHOST_EXTENSION);
      List<SecurityOptions.JwtProvider> own = providers(extension);
      addProviders(providers, own, extension);
      Optional<SecurityOptions.Jwt> jwt = Optional.of(new SecurityOptions.Jwt(mode(extension),
          own.stream().map(SecurityOptions.JwtProvider::name).toList()));
      if (stage.getKey()) {
        after = jwt;
      } else {
        before = jwt;
      }
    }
    List<String> names = providers.stream().map(SecurityOptions.JwtProvider::name).toList();
    Optional<SecurityOptions.Rbac> rbac = options.has("rbac") ? rbac(options.child("rbac"), Optional.of(names))
        : Optional.empty();
    return new SecurityOptions(providers, before, rbac).withJwtAfterAuthz(after);
  }

  /**
   * Adds {@code stage}'s providers to {@code all}: a name both stages define is one Holdfast provider, so it must be
   * defined the same way in both.
   */
  private static void addProviders(List<SecurityOptions.JwtProvider> all, List<SecurityOptions.JwtProvider> stage,
      Node at) {
    for (SecurityOptions.JwtProvider provider : stage) {
      Optional<SecurityOptions.JwtProvider> known = all.stream().filter(p -> p.name().equals(provider.name()))
          .findFirst();
      if (known.isEmpty()) {
        all.add(provider);
      } else if (!known.get().equals(provider)) {
        at.error(at.at("providers") + "." + provider.name(), GlooFeatures.UNSUPPORTED, "provider "
            + provider.name() + " is defined differently in the two JWT stages; Holdfast's providers are shared by"
            + " both stages, so give it another name in one of them");
      }
    }
  }

  /**
   * A route's {@code jwt}/{@code jwtStaged} ({@code disable} only, per stage) and {@code rbac}; {@code hostProviders}
   * are the virtual host's providers, which principals without a {@code provider} stand for (none in a RouteTable,
   * whose virtual host is not known while reading it; unknown for a RouteOption object read on its own).
   */
  static SecurityOptions route(Node options, Optional<List<String>> hostProviders) {
    if (options.has("jwtProvidersStaged")) {
      options.error(options.at("jwtProvidersStaged"), GlooFeatures.UNSUPPORTED, "JWT providers on a route are not"
          + " supported by Holdfast, which defines providers on the virtual host (a route can only turn its check"
          + " off); move them to the virtual host's jwtStaged");
    }
    Optional<SecurityOptions.Jwt> before = Optional.empty();
    Optional<SecurityOptions.Jwt> after = Optional.empty();
    if (options.has("jwt") && options.has("jwtStaged")) {
      options.error(options.at("jwtStaged"), Reasons.CONFLICTING_FIELDS, "give one of jwt, jwtStaged");
    } else {
      Map<Boolean, Node> stages = new java.util.TreeMap<>();
      if (options.has("jwt")) {
        stages.put(true, options.child("jwt")); // the unstaged route extension is the after-ext-auth stage's
      } else if (options.has("jwtStaged")) {
        Node staged = options.child("jwtStaged").only("jwtStaged", STAGED);
        STAGED.stream().filter(staged::has).forEach(s -> stages.put(s.equals(AFTER), staged.child(s)));
      }
      for (Map.Entry<Boolean, Node> stage : stages.entrySet()) {
        // A stage written on the route without disable keeps the virtual host's requirement.
        Optional<SecurityOptions.Jwt> disabled = stage.getValue().only("JWT route extension", ROUTE_EXTENSION)
            .bool("disable").filter(d -> d).map(d -> new SecurityOptions.Jwt(SecurityOptions.JwtMode.DISABLED,
                List.of()));
        if (stage.getKey()) {
          after = disabled;
        } else {
          before = disabled;
        }
      }
    }
    Optional<SecurityOptions.Rbac> rbac = options.has("rbac") ? rbac(options.child("rbac"), hostProviders)
        : Optional.empty();
    return new SecurityOptions(List.of(), before, rbac).withJwtAfterAuthz(after);
  }

  /** The virtual host's JWT stages, keyed by whether they run after external auth (before first). */
  private static Map<Boolean, Node> hostStages(Node options) {
    Map<Boolean, Node> stages = new java.util.TreeMap<>();
    if (options.has("jwt") && options.has("jwtStaged")) {
      options.error(options.at("jwtStaged"), Reasons.CONFLICTING_FIELDS, "give one of jwt, jwtStaged");
    } else if (options.has("jwt")) {
      stages.put(true, options.child("jwt")); // Gloo places the unstaged filter after external auth
    } else if (options.has("jwtStaged")) {
      Node staged = options.child("jwtStaged").only("jwtStaged", STAGED);
      STAGED.stream().filter(staged::has).forEach(s -> stages.put(s.equals(AFTER), staged.child(s)));
    }
    return stages;
  }

  private static SecurityOptions.JwtMode mode(Node extension) {
    if (extension.bool("allowMissingOrFailedJwt").orElse(false)) {
      extension.error(extension.at("allowMissingOrFailedJwt"), GlooFeatures.UNSUPPORTED, "letting requests with an"
          + " invalid JWT through is not supported by Holdfast (validationPolicy ALLOW_MISSING is)");
    }
    String policy = extension.string("validationPolicy").orElse("REQUIRE_VALID");
    return switch (policy) {
      case "REQUIRE_VALID", "0" -> SecurityOptions.JwtMode.REQUIRED;
      case "ALLOW_MISSING", "1" -> SecurityOptions.JwtMode.OPTIONAL;
      default -> {
        extension.error(extension.at("validationPolicy"), GlooFeatures.UNSUPPORTED, "validationPolicy " + policy
            + " is not supported by Holdfast (REQUIRE_VALID, ALLOW_MISSING)");
        yield SecurityOptions.JwtMode.REQUIRED;
      }
    };
  }

  /** The {@code providers} map, in its order. */
  private static List<SecurityOptions.JwtProvider> providers(Node extension) {
    List<SecurityOptions.JwtProvider> out = new ArrayList<>();
    Node map = extension.child("providers");
    if (!map.json.isObject() || map.json.size() > Node.MAX_LIST) {
      extension.error(extension.at("providers"), Reasons.MISSING_FIELD, "providers is a map of 1 to "
          + Node.MAX_LIST + " providers");
      return out;
    }
    for (String name : map.json.propertyNames()) {
      out.add(provider(name, map.child(name)));
    }
    if (out.isEmpty()) {
      extension.error(extension.at("providers"), Reasons.MISSING_FIELD, "at least one provider is required");
    }
    return out;
  }

  private static SecurityOptions.JwtProvider provider(String name, Node provider) {
    provider.only("JWT provider", PROVIDER);
    String issuer = provider.string("issuer").orElse("");
    if (issuer.isEmpty()) {
      provider.error(provider.at("issuer"), GlooFeatures.UNSUPPORTED, "a provider accepting any issuer is not"
          + " supported by Holdfast; give the issuer");
    }
    if (provider.integer("clockSkewSeconds").filter(s -> s != CLOCK_SKEW_SECONDS).isPresent()) {
      provider.error(provider.at("clockSkewSeconds"), GlooFeatures.UNSUPPORTED, "Holdfast keeps Envoy's clock skew"
          + " of " + CLOCK_SKEW_SECONDS + " seconds");
    }
    if (provider.string("attachFailedStatusToMetadata").filter(s -> !s.isEmpty()).isPresent()) {
      provider.error(provider.at("attachFailedStatusToMetadata"), GlooFeatures.UNSUPPORTED, "failure metadata for"
          + " access logs is not supported by Holdfast");
    }
    Node jwks = provider.child("jwks").only("jwks", JWKS);
    Optional<SecurityOptions.RemoteJwks> remote = Optional.empty();
    Optional<SecurityOptions.LocalJwks> local = Optional.empty();
    if (jwks.has("remote") == jwks.has("local")) {
      jwks.error(jwks.path, Reasons.MISSING_FIELD, "jwks has one of remote, local");
    } else if (jwks.has("remote")) {
      Node node = jwks.child("remote").only("remote JWKS (asyncFetch is not read)", REMOTE);
      Node ref = node.child("upstreamRef").only("upstreamRef", REF);
      Optional<String> upstream = ref.requiredString("name");
      String url = node.requiredString("url").orElse("");
      remote = upstream.map(u -> new SecurityOptions.RemoteJwks(url, new ObjectRef(u, ref.string("namespace")),
          SecurityOptions.DEFAULT_JWKS_TIMEOUT, node.duration("cacheDuration").orElse(GLOO_JWKS_CACHE)));
    } else {
      Node node = jwks.child("local").only("local JWKS", LOCAL);
      local = node.requiredString("key").flatMap(key -> LocalKeys.jwks(key, node))
          .map(json -> new SecurityOptions.LocalJwks(Optional.of(json), Optional.empty()));
    }
    Node source = provider.child("tokenSource").only("tokenSource", TOKEN_SOURCE);
    List<SecurityOptions.TokenHeader> headers = new ArrayList<>();
    for (Node header : source.list("headers")) {
      header.only("header source", HEADER_SOURCE);
      headers.add(new SecurityOptions.TokenHeader(header.requiredString("header").orElse(""),
          header.string("prefix").orElse("")));
    }
    List<SecurityOptions.ClaimToHeader> claims = new ArrayList<>();
    for (Node claim : provider.list("claimsToHeaders")) {
      claim.only("claimsToHeaders", CLAIM_TO_HEADER);
      if (claim.bool("append").orElse(false)) {
        claim.error(claim.at("append"), GlooFeatures.UNSUPPORTED, "appending a claim to a header the client sent"
            + " is not supported by Holdfast (the header is replaced)");
      }
      claims.add(new SecurityOptions.ClaimToHeader(claim.requiredString("claim").orElse(""),
          claim.requiredString("header").orElse("")));
    }
    return new SecurityOptions.JwtProvider(name, issuer, provider.strings("audiences"), remote, local, headers,
        List.of(), source.strings("queryParams"), claims, provider.bool("keepToken").orElse(false));
  }

  /** Gloo's {@code ExtensionSettings}: {@code disable}, or named policies, any of which grants. */
  private static Optional<SecurityOptions.Rbac> rbac(Node rbac, Optional<List<String>> providers) {
    rbac.only("rbac", RBAC);
    if (rbac.bool("disable").orElse(false)) {
      return Optional.of(new SecurityOptions.Rbac(SecurityOptions.RbacAction.ALLOW, List.of(), true));
    }
    Node policies = rbac.child("policies");
    if (!policies.json.isObject() || policies.json.isEmpty() || policies.json.size() > Node.MAX_LIST) {
      rbac.error(rbac.at("policies"), GlooFeatures.UNSUPPORTED, "rbac without policies (Gloo then refuses every"
          + " request) is not supported by Holdfast; give 1 to " + Node.MAX_LIST + " policies, or disable: true");
      return Optional.empty();
    }
    List<SecurityOptions.RbacRule> rules = new ArrayList<>();
    for (String name : policies.json.propertyNames()) {
      rules.addAll(policy(policies.child(name), providers));
    }
    return Optional.of(new SecurityOptions.Rbac(SecurityOptions.RbacAction.ALLOW, rules, false));
  }

  /** One rule per principal and provider it may come from; each also holds the policy's permissions. */
  private static List<SecurityOptions.RbacRule> policy(Node policy, Optional<List<String>> providers) {
    policy.only("rbac policy", POLICY);
    List<HeaderMatch> permissions = permissions(policy.child("permissions").only("permissions", PERMISSIONS));
    String delimiter = policy.string("nestedClaimDelimiter").orElse("");
    List<Node> principals = policy.list("principals");
    if (principals.isEmpty()) {
      policy.error(policy.at("principals"), Reasons.MISSING_FIELD, "a policy needs at least one principal");
    }
    List<SecurityOptions.RbacRule> rules = new ArrayList<>();
    for (Node principal : principals) {
      Node jwt = principal.only("principal", PRINCIPAL).child("jwtPrincipal").only("jwtPrincipal", JWT_PRINCIPAL);
      String matcher = jwt.string("matcher").orElse("EXACT_STRING");
      if (!Set.of("EXACT_STRING", "LIST_CONTAINS", "0", "2").contains(matcher)) {
        jwt.error(jwt.at("matcher"), GlooFeatures.UNSUPPORTED, "claim matcher " + matcher + " is not supported by"
            + " Holdfast (EXACT_STRING, LIST_CONTAINS)");
      }
      Map<String, String> claims = jwt.stringMap("claims");
      if (claims.isEmpty()) {
        jwt.error(jwt.at("claims"), Reasons.MISSING_FIELD, "a JWT principal needs at least one claim");
      }
      Optional<String> named = jwt.string("provider").filter(p -> !p.isEmpty());
      if (named.isEmpty() && providers.isEmpty()) {
        continue; // a RouteOption object on its own: checked again where a route merges it
      }
      List<String> from = named.map(List::of).orElseGet(providers::get);
      if (from.isEmpty()) {
        jwt.error(jwt.at("provider"), Reasons.MISSING_FIELD, "name the provider: no JWT provider is known here"
            + " (a RouteTable's virtual host is not known while reading it)");
      }
      for (String provider : from) {
        List<SecurityOptions.ClaimMatch> matches = new ArrayList<>();
        claims.forEach((claim, value) -> matches.add(new SecurityOptions.ClaimMatch(provider,
            claimName(claim, delimiter, jwt), List.of(value))));
        rules.add(new SecurityOptions.RbacRule(List.of(), List.of(), permissions, matches));
      }
    }
    return rules;
  }

  /** A claim path in Holdfast's dotted form; Gloo nests only with a delimiter, so a literal dot cannot be read. */
  private static String claimName(String claim, String delimiter, Node at) {
    if (delimiter.isEmpty() && !claim.contains(".") || delimiter.equals(".")) {
      return claim;
    }
    if (!delimiter.isEmpty() && !claim.contains(".")) {
      return claim.replace(delimiter, ".");
    }
    at.error(at.at("claims") + "." + claim, GlooFeatures.UNSUPPORTED, "a claim name with a literal '.' is not"
        + " supported by Holdfast, which reads dots as nesting");
    return claim;
  }

  /** {@code pathPrefix} and {@code methods} as header conditions on {@code :path} and {@code :method}. */
  private static List<HeaderMatch> permissions(Node permissions) {
    List<HeaderMatch> out = new ArrayList<>();
    permissions.string("pathPrefix").filter(p -> !p.isEmpty())
        .ifPresent(prefix -> out.add(new HeaderMatch(":path", new HeaderMatch.Prefix(prefix), false)));
    List<String> methods = permissions.strings("methods");
    for (String method : methods) {
      if (!method.matches("[A-Z]{1,32}")) {
        permissions.error(permissions.at("methods"), Reasons.INVALID_VALUE, "\"" + method
            + "\" is not an HTTP method");
        return out;
      }
    }
    if (methods.size() == 1) {
      out.add(new HeaderMatch(":method", new HeaderMatch.Exact(methods.get(0)), false));
    } else if (methods.size() > 1) {
      out.add(new HeaderMatch(":method", new HeaderMatch.Regex(String.join("|", methods)), false));
    }
    return out;
  }
}
