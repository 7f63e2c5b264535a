package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the routes of one HTTP filter chain refer to by name for their {@link RouteSecurity}: JWT providers,
 * external authorisation services, basic-auth user sets and OAuth2 logins. The xDS translation puts them in the
 * chain's connection manager, each route choosing by name.
 *
 * @param jwtProviders names unique within the chain
 * @param extAuthz     names unique within the chain
 * @param basicAuth    names unique within the chain
 * @param oauth2       names unique within the chain
 */
public record ListenerSecurity(List<JwtProvider> jwtProviders, List<ExtAuthzService> extAuthz,
    List<BasicAuthUsers> basicAuth, List<OAuth2Login> oauth2) {

  public static final ListenerSecurity NONE = new ListenerSecurity(List.of(), List.of(), List.of());

  public ListenerSecurity {
    jwtProviders = List.copyOf(jwtProviders);
    extAuthz = List.copyOf(extAuthz);
    basicAuth = List.copyOf(basicAuth);
    Set<String> userSets = new HashSet<>();
    for (BasicAuthUsers users : basicAuth) {
      if (!userSets.add(users.name())) {
        throw new IllegalArgumentException("basic-auth user set " + users.name() + " is defined twice");
      }
    }
    oauth2 = List.copyOf(oauth2);
    Set<String> logins = new HashSet<>();
    for (OAuth2Login login : oauth2) {
      if (!logins.add(login.name())) {
        throw new IllegalArgumentException("OAuth2 login " + login.name() + " is defined twice");
      }
    }
    Set<String> names = new HashSet<>();
    for (JwtProvider provider : jwtProviders) {
      if (!names.add(provider.name())) {
        throw new IllegalArgumentException("JWT provider " + provider.name() + " is defined twice");
      }
    }
    Set<String> services = new HashSet<>();
    for (ExtAuthzService service : extAuthz) {
      if (!services.add(service.name())) {
        throw new IllegalArgumentException("external authorisation service " + service.name()
            + " is defined twice");
      }
    }
  }

  /** Without OAuth2 logins. */
  public ListenerSecurity(List<JwtProvider> jwtProviders, List<ExtAuthzService> extAuthz,
      List<BasicAuthUsers> basicAuth) {
    this(jwtProviders, extAuthz, basicAuth, List.of());
  }

  /** Without basic authentication. */
  public ListenerSecurity(List<JwtProvider> jwtProviders, List<ExtAuthzService> extAuthz) {
    this(jwtProviders, extAuthz, List.of());
  }

  /** JWT providers only. */
  public ListenerSecurity(List<JwtProvider> jwtProviders) {
    this(jwtProviders, List.of());
  }

  public Optional<OAuth2Login> oauth2(String name) {
    return oauth2.stream().filter(l -> l.name().equals(name)).findFirst();
  }

  public Optional<BasicAuthUsers> basicAuth(String name) {
    return basicAuth.stream().filter(b -> b.name().equals(name)).findFirst();
  }

  public Optional<ExtAuthzService> extAuthz(String name) {
    return extAuthz.stream().filter(s -> s.name().equals(name)).findFirst();
  }

  public Optional<JwtProvider> provider(String name) {
    return jwtProviders.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /**
   * @throws IllegalArgumentException naming the route if one of {@code hosts}' routes names a provider not here
   */
  public void checkRoutes(Origin chain, List<VirtualHost> hosts) {
    for (VirtualHost host : hosts) {
      for (Route route : host.routes()) {
        for (String name : route.security().providers()) {
          if (provider(name).isEmpty()) {
            throw new IllegalArgumentException(chain + ": route " + route.name() + " names JWT provider " + name
                + ", which its filter chain lacks");
          }
        }
        route.security().extAuthz().filter(name -> extAuthz(name).isEmpty()).ifPresent(name -> {
          throw new IllegalArgumentException(chain + ": route " + route.name() + " names external authorisation"
              + " service " + name + ", which its filter chain lacks");
        });
        route.security().basicAuth().filter(name -> basicAuth(name).isEmpty()).ifPresent(name -> {
          throw new IllegalArgumentException(chain + ": route " + route.name() + " names basic-auth user set "
              + name + ", which its filter chain lacks");
        });
        route.security().oauth2().filter(name -> oauth2(name).isEmpty()).ifPresent(name -> {
          throw new IllegalArgumentException(chain + ": route " + route.name() + " names OAuth2 login " + name
              + ", which its filter chain lacks");
        });
      }
    }
  }

  /**
   * Who issues the tokens a route accepts, and where their keys are.
   *
   * @param audiences       empty: any audience
   * @param from            where the token is looked for; empty: Envoy's default (the Authorization header, Bearer)
   * @param claimsToHeaders claims copied into request headers after verification
   * @param forward         the token stays in the request forwarded upstream; false: it is removed
   */
  public record JwtProvider(String name, String issuer, List<String> audiences, Jwks jwks,
      List<TokenSource> from, List<ClaimToHeader> claimsToHeaders, boolean forward) {
    public JwtProvider {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(issuer, "issuer");
      audiences = List.copyOf(audiences);
      Objects.requireNonNull(jwks, "jwks");
      from = List.copyOf(from);
      claimsToHeaders = List.copyOf(claimsToHeaders);
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a JWT provider needs a name");
      }
    }
  }

  /** Where the JSON Web Key Set that verifies tokens comes from. */
  public sealed interface Jwks {
  }

  /**
   * Fetched over HTTP(S) through {@code cluster} and cached.
   *
   * @param timeout       how long one fetch may take
   * @param cacheDuration how long fetched keys are used before fetching again
   */
  public record RemoteJwks(String uri, ResourceKey cluster, Duration timeout, Duration cacheDuration)
      implements Jwks {
    public RemoteJwks {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(cacheDuration, "cacheDuration");
      if (timeout.isNegative() || timeout.isZero() || cacheDuration.isNegative() || cacheDuration.isZero()) {
        throw new IllegalArgumentException("JWKS timeout and cache duration must be positive");
      }
    }
  }

  /** The key set itself (from a Secret); {@code toString} does not show it (it may hold symmetric keys). */
  public record InlineJwks(String json) implements Jwks {
    public InlineJwks {
      Objects.requireNonNull(json, "json");
    }

    @Override
    public String toString() {
      return "InlineJwks[" + json.length() + " chars]";
    }
  }

  /** A file on the proxy's file system. */
  public record FileJwks(String path) implements Jwks {
    public FileJwks {
      Objects.requireNonNull(path, "path");
    }
  }

  /** Where a token is looked for. */
  public sealed interface TokenSource {
  }

  /** A request header; {@code prefix} (e.g. {@code "Bearer "}) is stripped from its value. */
  public record HeaderToken(String name, String prefix) implements TokenSource {
    public HeaderToken {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(prefix, "prefix");
    }
  }

  public record CookieToken(String name) implements TokenSource {
    public CookieToken {
      Objects.requireNonNull(name, "name");
    }
  }

  public record QueryToken(String name) implements TokenSource {
    public QueryToken {
      Objects.requireNonNull(name, "name");
    }
  }

  /** Copies the verified token's top-level {@code claim} into request header {@code header}. */
  public record ClaimToHeader(String claim, String header) {
    public ClaimToHeader {
      Objects.requireNonNull(claim, "claim");
      Objects.requireNonNull(header, "header");
    }
  }

  /** How Envoy talks to an external authorisation service. */
  public enum AuthzProtocol {
    /** Envoy's gRPC {@code envoy.service.auth.v3.Authorization/Check}; the cluster speaks HTTP/2. */
    GRPC,
    /** A plain HTTP request (the original's method, path after {@code pathPrefix}, and allowed headers). */
    HTTP
  }

  /**
   * An external authorisation service: every request of a route naming it is first sent to it, and forwarded only
   * if it allows.
   *
   * @param failureModeAllow let requests through when the service cannot be reached (default false: refused)
   * @param headersToAuthz   request headers sent to the service (besides Host, Method, Path, Content-Length and
   *                         Authorization, which Envoy always sends)
   * @param headersToUpstream HTTP only: headers of the service's OK answer added to the forwarded request
   * @param headersToClient  HTTP only: headers of the service's denial passed to the client
   * @param maxRequestBytes  send the request body up to this many bytes (empty: no body)
   */
  public record ExtAuthzService(String name, AuthzProtocol protocol, ResourceKey cluster, String pathPrefix,
      Duration timeout, boolean failureModeAllow, List<String> headersToAuthz, List<String> headersToUpstream,
      List<String> headersToClient, Optional<Integer> maxRequestBytes) {
    public ExtAuthzService {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(pathPrefix, "pathPrefix");
      Objects.requireNonNull(timeout, "timeout");
      headersToAuthz = List.copyOf(headersToAuthz);
      headersToUpstream = List.copyOf(headersToUpstream);
      headersToClient = List.copyOf(headersToClient);
      Objects.requireNonNull(maxRequestBytes, "maxRequestBytes");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException(name + ": the authorisation timeout must be positive");
      }
      if (maxRequestBytes.map(b -> b < 1).orElse(false)) {
        throw new IllegalArgumentException(name + ": the request body limit must be positive");
      }
    }
  }

  /**
   * The users a route's requests are checked against with HTTP basic authentication (Envoy's {@code basic_auth}).
   * The users sit inline in the listener (Envoy reads them from no secret service); {@code toString} never shows
   * them, and Envoy's config dump redacts the field.
   *
   * @param htpasswd              {@code user:{SHA}hash} lines, already checked by the front end; when the users
   *                              written cannot be applied, text that names no user, so every request is refused
   * @param forwardUsernameHeader the request header the authenticated user's name is sent upstream in
   */
  public record BasicAuthUsers(String name, String htpasswd, Optional<String> forwardUsernameHeader) {
    public BasicAuthUsers {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(htpasswd, "htpasswd");
      Objects.requireNonNull(forwardUsernameHeader, "forwardUsernameHeader");
      if (name.isEmpty() || htpasswd.isEmpty()) {
        throw new IllegalArgumentException("a basic-auth user set needs a name and non-empty htpasswd text");
      }
    }

    @Override
    public String toString() {
      return "BasicAuthUsers[name=" + name + ", htpasswd=<redacted " + htpasswd.length() + " chars>"
          + forwardUsernameHeader.map(h -> ", forwardUsernameHeader=" + h).orElse("") + "]";
    }
  }
}
