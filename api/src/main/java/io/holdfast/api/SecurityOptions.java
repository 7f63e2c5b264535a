package io.holdfast.api;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code security} of a VirtualService's {@code spec.options} or a route's {@code options}. JWT providers are
 * defined on the VirtualService (as in Gloo Edge), so a route can never name a provider its virtual host lacks;
 * {@code jwt} and {@code rbac} on a route replace the VirtualService's.
 *
 * @param jwtProviders VirtualService only: who issues the tokens its routes accept
 * @param jwt          which providers' tokens a request must (or may) carry
 * @param rbac         which requests are let through
 * @param extAuthz     the external authorisation service asked about every request (on a route: only
 *                     {@code disabled})
 * @param oauth2       OAuth2/OIDC login through an identity provider (on a route: only {@code disabled})
 */
public record SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac,
    Optional<ExtAuthz> extAuthz, Optional<OAuth2Options> oauth2) {

  public static final SecurityOptions NONE = new SecurityOptions(List.of(), Optional.empty(), Optional.empty(),
      Optional.empty(), Optional.empty());
  /** Envoy's own default for an authorisation call. */
  public static final Duration DEFAULT_AUTHZ_TIMEOUT = Duration.ofMillis(200);

  /** Envoy's default JWKS fetch timeout is none; one is required, so this is used when none is written. */
  public static final Duration DEFAULT_JWKS_TIMEOUT = Duration.ofSeconds(5);
  /** Envoy's own default cache duration for fetched keys. */
  public static final Duration DEFAULT_JWKS_CACHE = Duration.ofMinutes(10);

  public SecurityOptions {
    jwtProviders = List.copyOf(jwtProviders);
    Objects.requireNonNull(jwt, "jwt");
    Objects.requireNonNull(rbac, "rbac");
    Objects.requireNonNull(extAuthz, "extAuthz");
    Objects.requireNonNull(oauth2, "oauth2");
  }

  /** Without OAuth2 login. */
  public SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac,
      Optional<ExtAuthz> extAuthz) {
    this(jwtProviders, jwt, rbac, extAuthz, Optional.empty());
  }

  /**
   * The Secret entries the OAuth2 login reads ({@link OAuth2Options#secretRefs}); empty without one. Kept apart
   * so the lead can fold it into the one list of Secret references when merging the basic-auth branch.
   */
  public List<OAuth2Options.SecretReference> oauth2SecretRefs(String namespace) {
    return oauth2.map(o -> o.secretRefs(namespace)).orElse(List.of());
  }

  /** Without external authorisation. */
  public SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac) {
    this(jwtProviders, jwt, rbac, Optional.empty());
  }

  /**
   * A JWT issuer and where its keys are; exactly one of {@code remoteJwks} and {@code localJwks}.
   *
   * @param audiences       empty: any audience is accepted
   * @param forwardToken    keep the token in the request sent upstream (default false: it is removed)
   */
  public record JwtProvider(String name, String issuer, List<String> audiences, Optional<RemoteJwks> remoteJwks,
      Optional<LocalJwks> localJwks, List<TokenHeader> fromHeaders, List<String> fromCookies,
      List<String> fromParams, List<ClaimToHeader> claimsToHeaders, boolean forwardToken) {
    public JwtProvider {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(issuer, "issuer");
      audiences = List.copyOf(audiences);
      Objects.requireNonNull(remoteJwks, "remoteJwks");
      Objects.requireNonNull(localJwks, "localJwks");
      fromHeaders = List.copyOf(fromHeaders);
      fromCookies = List.copyOf(fromCookies);
      fromParams = List.copyOf(fromParams);
      claimsToHeaders = List.copyOf(claimsToHeaders);
    }
  }

  /** Keys fetched from {@code uri} through {@code upstream}. */
  public record RemoteJwks(String uri, ObjectRef upstream, Duration timeout, Duration cacheDuration) {
    public RemoteJwks {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(upstream, "upstream");
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(cacheDuration, "cacheDuration");
    }
  }

  /** Keys written inline ({@code inline}, a JWKS document) or read by the proxy from {@code file}: exactly one. */
  public record LocalJwks(Optional<String> inline, Optional<String> file) {
    public LocalJwks {
      Objects.requireNonNull(inline, "inline");
      Objects.requireNonNull(file, "file");
    }
  }

  /** A header carrying the token after {@code prefix} (e.g. {@code "Bearer "}). */
  public record TokenHeader(String name, String prefix) {
    public TokenHeader {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(prefix, "prefix");
    }
  }

  public record ClaimToHeader(String claim, String header) {
    public ClaimToHeader {
      Objects.requireNonNull(claim, "claim");
      Objects.requireNonNull(header, "header");
    }
  }

  /** How a route treats tokens. */
  public enum JwtMode {
    /** A valid token of one of the providers is required. */
    REQUIRED,
    /** No token is fine; an invalid one is refused. */
    OPTIONAL,
    /** No token is checked (turns off the VirtualService's requirement for a route). */
    DISABLED
  }

  /** @param providers names of the VirtualService's providers; a token of any one of them is accepted */
  public record Jwt(JwtMode mode, List<String> providers) {
    public Jwt {
      Objects.requireNonNull(mode, "mode");
      providers = List.copyOf(providers);
    }
  }

  /** What a request matching a rule gets. */
  public enum RbacAction {
    ALLOW, DENY
  }

  /**
   * Authorisation rules: with {@code ALLOW} only requests matching some rule pass; with {@code DENY} requests
   * matching some rule are refused (403). {@code disabled} turns off the VirtualService's rules for a route.
   */
  public record Rbac(RbacAction action, List<RbacRule> rules, boolean disabled) {
    public Rbac {
      Objects.requireNonNull(action, "action");
      rules = List.copyOf(rules);
    }
  }

  /**
   * A request matches when it meets every condition given (at least one).
   *
   * @param clientIp       CIDRs of the client address Envoy derives (from X-Forwarded-For with trusted hops)
   * @param directClientIp CIDRs of the connection's peer
   * @param headers        header conditions, all of which must hold
   * @param claims         claim conditions, all of which must hold
   */
  public record RbacRule(List<String> clientIp, List<String> directClientIp, List<HeaderMatch> headers,
      List<ClaimMatch> claims) {
    public RbacRule {
      clientIp = List.copyOf(clientIp);
      directClientIp = List.copyOf(directClientIp);
      headers = List.copyOf(headers);
      claims = List.copyOf(claims);
    }
  }

  /**
   * A claim of the token {@code provider} verified: it must be a string equal to one of {@code values}, or a list
   * holding one. {@code name} may name a nested claim with dots ({@code realm_access.roles}).
   */
  public record ClaimMatch(String provider, String name, List<String> values) {
    public ClaimMatch {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(name, "name");
      values = List.copyOf(values);
    }
  }

  /**
   * An external authorisation service: exactly one of {@code grpc} (Envoy's Authorization/Check over gRPC; the
   * Upstream speaks HTTP/2) and {@code http}, unless {@code disabled} (a route's way to skip its VirtualService's).
   *
   * @param failureModeAllow let requests through when the service fails (default false: refused with 403)
   * @param headersToAuthz   request headers sent to the service
   * @param maxRequestBytes  also send the request body, up to this many bytes
   */
  public record ExtAuthz(Optional<ObjectRef> grpc, Optional<HttpAuthz> http, Duration timeout,
      boolean failureModeAllow, List<String> headersToAuthz, Optional<Integer> maxRequestBytes, boolean disabled) {
    public ExtAuthz {
      Objects.requireNonNull(grpc, "grpc");
      Objects.requireNonNull(http, "http");
      Objects.requireNonNull(timeout, "timeout");
      headersToAuthz = List.copyOf(headersToAuthz);
      Objects.requireNonNull(maxRequestBytes, "maxRequestBytes");
    }
  }

  /**
   * An HTTP authorisation service: requests go to {@code pathPrefix} + the original path; a 2xx answer allows.
   *
   * @param headersToUpstream headers of an allowing answer added to the forwarded request
   * @param headersToClient   headers of a denying answer passed to the client
   */
  public record HttpAuthz(ObjectRef upstream, String pathPrefix, List<String> headersToUpstream,
      List<String> headersToClient) {
    public HttpAuthz {
      Objects.requireNonNull(upstream, "upstream");
      Objects.requireNonNull(pathPrefix, "pathPrefix");
      headersToUpstream = List.copyOf(headersToUpstream);
      headersToClient = List.copyOf(headersToClient);
    }
  }
}
