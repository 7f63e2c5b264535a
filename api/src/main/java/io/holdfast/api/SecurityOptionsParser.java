package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code security} of route options and VirtualService options ({@link SecurityOptions}). As the other option
 * readers: every problem is recorded with its field's path, and a value exists only when all its parts parsed.
 * Lists are bounded by the document size limit here; their lengths are judged by validation.
 */
final class SecurityOptionsParser {

  static final String FIELD = "security";
  private static final Set<String> VIRTUAL_HOST = Set.of("jwtProviders", "jwt", "rbac", "extAuthz",
      "basicAuth", "oauth2", "jwtAfterAuthz");
  private static final Set<String> ROUTE = Set.of("jwt", "rbac", "extAuthz", "basicAuth", "oauth2",
      "jwtAfterAuthz");
  private static final Set<String> EXT_AUTHZ = Set.of("grpc", "http", "timeout", "failureModeAllow",
      "headersToAuthz", "withRequestBody", "disabled");
  /** On a route only turning it off: the service is the VirtualService's. */
  private static final Set<String> ROUTE_EXT_AUTHZ = Set.of("disabled");
  private static final Set<String> GRPC = Set.of("upstream", "namespace");
  private static final Set<String> HTTP = Set.of("upstream", "namespace", "pathPrefix", "headersToUpstream",
      "headersToClient");
  private static final Set<String> BODY = Set.of("maxRequestBytes");
  private static final Set<String> PROVIDER = Set.of("name", "issuer", "audiences", "remoteJwks", "localJwks",
      "fromHeaders", "fromCookies", "fromParams", "claimsToHeaders", "forwardToken");
  private static final Set<String> REMOTE = Set.of("uri", "upstream", "namespace", "timeout", "cacheDuration");
  private static final Set<String> LOCAL = Set.of("inline", "file", "secretRef");
  /** The fields of a Secret entry reference, the same for every option that names one. */
  static final Set<String> SECRET_REF = Set.of("name", "namespace", "key");
  private static final Set<String> BASIC_AUTH = Set.of("users", "forwardUsernameHeader", "disabled");
  /** On a route only turning it off: the users are the VirtualService's. */
  private static final Set<String> ROUTE_BASIC_AUTH = Set.of("disabled");
  private static final Set<String> TOKEN_HEADER = Set.of("name", "prefix");
  private static final Set<String> CLAIM_HEADER = Set.of("claim", "header");
  private static final Set<String> JWT = Set.of("mode", "providers");
  private static final Set<String> RBAC = Set.of("action", "rules", "disabled");
  private static final Set<String> RULE = Set.of("clientIp", "directClientIp", "headers", "claims");
  private static final Set<String> CLAIM = Set.of("provider", "name", "values");

  private SecurityOptionsParser() {
  }

  /** A VirtualService's {@code spec.options.security}; {@link SecurityOptions#NONE} if absent. */
  static Optional<SecurityOptions> virtualHost(Fields options) {
    return parse(options, VIRTUAL_HOST);
  }

  /** A route's {@code options.security}; {@link SecurityOptions#NONE} if absent. */
  static Optional<SecurityOptions> route(Fields options) {
    return parse(options, ROUTE);
  }

  private static Optional<SecurityOptions> parse(Fields options, Set<String> allowed) {
    if (!options.has(FIELD)) {
      return Optional.of(SecurityOptions.NONE);
    }
    return options.object(FIELD, allowed).flatMap(fields -> read(fields, allowed == ROUTE));
  }

  /** The security fields of {@code fields} as a VirtualService or SecurityPolicy writes them. */
  static Optional<SecurityOptions> read(Fields fields) {
    return read(fields, false);
  }

  /** The security fields of {@code fields} (other fields are the caller's); empty on any problem. */
  private static Optional<SecurityOptions> read(Fields fields, boolean route) {
    {
      int before = fields.problems().size();
      List<SecurityOptions.JwtProvider> providers = fields.has("jwtProviders")
          ? fields.list("jwtProviders", false).flatMap(e -> each(e, fields, PROVIDER,
              SecurityOptionsParser::provider)).orElse(List.of())
          : List.of();
      Optional<SecurityOptions.Jwt> jwt = fields.object("jwt", JWT).flatMap(SecurityOptionsParser::jwt);
      Optional<SecurityOptions.Jwt> jwtAfterAuthz = fields.object("jwtAfterAuthz", JWT)
          .flatMap(SecurityOptionsParser::jwt);
      Optional<SecurityOptions.Rbac> rbac = fields.object("rbac", RBAC).flatMap(SecurityOptionsParser::rbac);
      Optional<SecurityOptions.ExtAuthz> extAuthz = fields.object("extAuthz", route ? ROUTE_EXT_AUTHZ : EXT_AUTHZ)
          .flatMap(SecurityOptionsParser::extAuthz);
      Optional<SecurityOptions.BasicAuth> basicAuth = fields.object("basicAuth", route ? ROUTE_BASIC_AUTH
          : BASIC_AUTH).flatMap(SecurityOptionsParser::basicAuth);
      Optional<OAuth2Options> oauth2 = OAuth2Parser.read(fields, route);
      if (fields.problems().size() != before) {
        return Optional.empty();
      }
      return Optional.of(new SecurityOptions(providers, jwt, rbac, extAuthz, basicAuth, oauth2, jwtAfterAuthz));
    }
  }

  private static Optional<SecurityOptions.JwtProvider> provider(Fields fields) {
    int before = fields.problems().size();
    Optional<String> name = fields.requiredString("name");
    Optional<String> issuer = fields.requiredString("issuer");
    List<String> audiences = strings(fields, "audiences");
    Optional<SecurityOptions.RemoteJwks> remote = fields.object("remoteJwks", REMOTE)
        .flatMap(SecurityOptionsParser::remote);
    Optional<SecurityOptions.LocalJwks> local = fields.object("localJwks", LOCAL).map(l ->
        new SecurityOptions.LocalJwks(l.string("inline"), l.string("file"), l.object("secretRef", SECRET_REF)
            .flatMap(ref -> secretKeyRef(ref, SecurityOptions.LocalJwks.SECRET_KEY))));
    List<SecurityOptions.TokenHeader> headers = fields.has("fromHeaders")
        ? fields.list("fromHeaders", false).flatMap(e -> each(e, fields, TOKEN_HEADER, h ->
            h.requiredString("name").map(n -> new SecurityOptions.TokenHeader(n, h.string("prefix").orElse("")))))
            .orElse(List.of())
        : List.of();
    List<String> cookies = strings(fields, "fromCookies");
    List<String> params = strings(fields, "fromParams");
    List<SecurityOptions.ClaimToHeader> claims = fields.has("claimsToHeaders")
        ? fields.list("claimsToHeaders", false).flatMap(e -> each(e, fields, CLAIM_HEADER, c ->
            c.requiredString("claim").flatMap(claim -> c.requiredString("header")
                .map(header -> new SecurityOptions.ClaimToHeader(claim, header))))).orElse(List.of())
        : List.of();
    boolean forward = fields.bool("forwardToken").orElse(false);
    if (fields.problems().size() != before || name.isEmpty() || issuer.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new SecurityOptions.JwtProvider(name.get(), issuer.get(), audiences, remote, local, headers,
        cookies, params, claims, forward));
  }

  private static Optional<SecurityOptions.ExtAuthz> extAuthz(Fields fields) {
    int before = fields.problems().size();
    Optional<ObjectRef> grpc = fields.object("grpc", GRPC).flatMap(g -> ObjectRefs.read(g, "upstream"));
    Optional<SecurityOptions.HttpAuthz> http = fields.object("http", HTTP).flatMap(h -> {
      Optional<ObjectRef> upstream = ObjectRefs.read(h, "upstream");
      String prefix = h.string("pathPrefix").orElse("");
      return upstream.map(u -> new SecurityOptions.HttpAuthz(u, prefix, strings(h, "headersToUpstream"),
          strings(h, "headersToClient")));
    });
    Duration timeout = fields.duration("timeout").orElse(SecurityOptions.DEFAULT_AUTHZ_TIMEOUT);
    boolean failureModeAllow = fields.bool("failureModeAllow").orElse(false);
    List<String> headers = strings(fields, "headersToAuthz");
    Optional<Integer> maxBytes = fields.object("withRequestBody", BODY)
        .flatMap(b -> b.requiredInteger("maxRequestBytes"));
    boolean disabled = fields.bool("disabled").orElse(false);
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new SecurityOptions.ExtAuthz(grpc, http, timeout, failureModeAllow, headers, maxBytes,
        disabled));
  }

  private static Optional<SecurityOptions.BasicAuth> basicAuth(Fields fields) {
    int before = fields.problems().size();
    Optional<SecurityOptions.SecretKeyRef> users = fields.object("users", SECRET_REF)
        .flatMap(ref -> secretKeyRef(ref, SecurityOptions.BasicAuth.HTPASSWD_KEY));
    Optional<String> header = fields.string("forwardUsernameHeader");
    boolean disabled = fields.bool("disabled").orElse(false);
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new SecurityOptions.BasicAuth(users, header, disabled));
  }

  /** {@code {name, namespace?, key?}}: an entry of a Secret, {@code defaultKey} when no key is written. */
  static Optional<SecurityOptions.SecretKeyRef> secretKeyRef(Fields fields, String defaultKey) {
    String key = fields.string("key").orElse(defaultKey);
    return ObjectRefs.read(fields, "name").map(ref -> new SecurityOptions.SecretKeyRef(ref, key));
  }

  private static Optional<SecurityOptions.RemoteJwks> remote(Fields fields) {
    Optional<String> uri = fields.requiredString("uri");
    Optional<ObjectRef> upstream = ObjectRefs.read(fields, "upstream");
    Duration timeout = fields.duration("timeout").orElse(SecurityOptions.DEFAULT_JWKS_TIMEOUT);
    Duration cache = fields.duration("cacheDuration").orElse(SecurityOptions.DEFAULT_JWKS_CACHE);
    return uri.flatMap(u -> upstream.map(ref -> new SecurityOptions.RemoteJwks(u, ref, timeout, cache)));
  }

  private static Optional<SecurityOptions.Jwt> jwt(Fields fields) {
    Optional<SecurityOptions.JwtMode> mode = fields.has("mode")
        ? fields.string("mode").flatMap(m -> enumValue(fields, "mode", m, SecurityOptions.JwtMode.class))
        : Optional.of(SecurityOptions.JwtMode.REQUIRED);
    List<String> providers = strings(fields, "providers");
    return mode.map(m -> new SecurityOptions.Jwt(m, providers));
  }

  private static Optional<SecurityOptions.Rbac> rbac(Fields fields) {
    int before = fields.problems().size();
    Optional<SecurityOptions.RbacAction> action = fields.has("action")
        ? fields.string("action").flatMap(a -> enumValue(fields, "action", a, SecurityOptions.RbacAction.class))
        : Optional.of(SecurityOptions.RbacAction.ALLOW);
    List<SecurityOptions.RbacRule> rules = fields.has("rules")
        ? fields.list("rules", false).flatMap(e -> each(e, fields, RULE, SecurityOptionsParser::rule))
            .orElse(List.of())
        : List.of();
    boolean disabled = fields.bool("disabled").orElse(false);
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return action.map(a -> new SecurityOptions.Rbac(a, rules, disabled));
  }

  private static Optional<SecurityOptions.RbacRule> rule(Fields fields) {
    int before = fields.problems().size();
    List<String> clientIp = strings(fields, "clientIp");
    List<String> directClientIp = strings(fields, "directClientIp");
    List<HeaderMatch> headers = fields.has("headers")
        ? fields.list("headers", false).flatMap(e -> MatchParser.headers(e, fields.problems())).orElse(List.of())
        : List.of();
    List<SecurityOptions.ClaimMatch> claims = fields.has("claims")
        ? fields.list("claims", false).flatMap(e -> each(e, fields, CLAIM, c -> {
            Optional<String> provider = c.requiredString("provider");
            Optional<String> name = c.requiredString("name");
            Optional<List<String>> values = c.stringList("values", true);
            return provider.flatMap(p -> name.flatMap(n -> values.map(v ->
                new SecurityOptions.ClaimMatch(p, n, v))));
          })).orElse(List.of())
        : List.of();
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new SecurityOptions.RbacRule(clientIp, directClientIp, headers, claims));
  }

  /** {@code Required}, {@code required} or {@code REQUIRED}; a problem naming the allowed values otherwise. */
  private static <E extends Enum<E>> Optional<E> enumValue(Fields fields, String field, String text, Class<E> type) {
    for (E value : type.getEnumConstants()) {
      if (value.name().equalsIgnoreCase(text)) {
        return Optional.of(value);
      }
    }
    List<String> allowed = new ArrayList<>();
    for (E value : type.getEnumConstants()) {
      allowed.add(value.name().charAt(0) + value.name().substring(1).toLowerCase(Locale.ROOT));
    }
    fields.problem(fields.path(field), Reasons.INVALID_VALUE, "expected one of " + String.join(", ", allowed)
        + ", got " + text);
    return Optional.empty();
  }

  private static List<String> strings(Fields fields, String field) {
    return fields.has(field) ? fields.stringList(field, false).orElse(List.of()) : List.of();
  }

  private static <T> Optional<List<T>> each(List<Fields.Element> elements, Fields parent, Set<String> allowed,
      Function<Fields, Optional<T>> parser) {
    List<T> values = new ArrayList<>();
    boolean ok = true;
    for (Fields.Element element : elements) {
      Optional<T> value = Fields.of(element.node(), element.path(), parent.problems(), allowed).flatMap(parser);
      value.ifPresent(values::add);
      ok &= value.isPresent();
    }
    return ok ? Optional.of(values) : Optional.empty();
  }
}
