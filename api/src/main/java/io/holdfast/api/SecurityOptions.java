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
 * @param basicAuth    users who may pass with HTTP basic credentials (on a route: only {@code disabled})
 * @param oauth2       OAuth2/OIDC login through an identity provider (on a route: only {@code disabled})
 * @param jwtAfterAuthz a second JWT check, run after the external authorisation service allowed the request
 *                     (typically verifying a token that service put in a header); same providers and modes as
 *                     {@code jwt}, and a route's replaces the VirtualService's in the same way
 */
public record SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac,
    Optional<ExtAuthz> extAuthz, Optional<BasicAuth> basicAuth, Optional<OAuth2Options> oauth2,
    Optional<Jwt> jwtAfterAuthz) {

  public static final SecurityOptions NONE = new SecurityOptions(List.of(), Optional.empty(), Optional.empty(),
      Optional.empty(), Optional.empty(), Optional.empty());
  /** Envoy's own default for an authorisation call. */
  public static final Duration DEFAULT_AUTHZ_TIMEOUT = Duration.ofMillis(200);

  /** Envoy's default JWKS fetch timeout is none; one is required, so this is used when none is written. */
  public static final Duration DEFAULT_JWKS_TIMEOUT = Duration.ofSeconds(5);
  /** Envoy's own default cache duration for fetched keys. */
  public static final Duration DEFAULT_JWKS_CACHE = Duration.ofMinutes(10);

  /** These options with {@code value} as the authorisation service, every other field as it is. */
  public SecurityOptions withExtAuthz(Optional<ExtAuthz> value) {
    return new SecurityOptions(jwtProviders, jwt, rbac, value, basicAuth, oauth2, jwtAfterAuthz);
  }

  /** These options with {@code value} as the JWT check after external authorisation, every other field as it is. */
  public SecurityOptions withJwtAfterAuthz(Optional<Jwt> value) {
    return new SecurityOptions(jwtProviders, jwt, rbac, extAuthz, basicAuth, oauth2, value);
  }

  /** These options with {@code value} as the OAuth2 login, every other field as it is. */
  public SecurityOptions withOAuth2(Optional<OAuth2Options> value) {
    return new SecurityOptions(jwtProviders, jwt, rbac, extAuthz, basicAuth, value, jwtAfterAuthz);
  }

  public SecurityOptions {
    jwtProviders = List.copyOf(jwtProviders);
    Objects.requireNonNull(jwt, "jwt");
    Objects.requireNonNull(rbac, "rbac");
    Objects.requireNonNull(extAuthz, "extAuthz");
    Objects.requireNonNull(basicAuth, "basicAuth");
    Objects.requireNonNull(oauth2, "oauth2");
    Objects.requireNonNull(jwtAfterAuthz, "jwtAfterAuthz");
  }

  /** Without a JWT check after external authorisation. */
  public SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac,
      Optional<ExtAuthz> extAuthz, Optional<BasicAuth> basicAuth, Optional<OAuth2Options> oauth2) {
    this(jwtProviders, jwt, rbac, extAuthz, basicAuth, oauth2, Optional.empty());
  }

  /** Without OAuth2 login and without a JWT check after external authorisation. */
  public SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac,
      Optional<ExtAuthz> extAuthz, Optional<BasicAuth> basicAuth) {
    this(jwtProviders, jwt, rbac, extAuthz, basicAuth, Optional.empty(), Optional.empty());
  }

  /** Without basic authentication. */
  public SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac,
      Optional<ExtAuthz> extAuthz) {
    this(jwtProviders, jwt, rbac, extAuthz, Optional.empty());
  }

  /** Without external authorisation. */
  public SecurityOptions(List<JwtProvider> jwtProviders, Optional<Jwt> jwt, Optional<Rbac> rbac) {
    this(jwtProviders, jwt, rbac, Optional.empty());
  }

  /**
   * Every Secret entry these options read, each with the field (relative to the options) that names it, resolved
   * against {@code namespace} (the referring object's). The one list the config sources fetch by (Kubernetes mode
   * copies exactly these Secrets into the config) and the front ends check (existence, ReferenceGrant consent,
   * content). A new option holding a Secret reference adds its entries here.
   */
  public List<SecretReference> secretRefs(String namespace) {
    List<SecretReference> refs = new java.util.ArrayList<>();
    for (int i = 0; i < jwtProviders.size(); i++) {
      int index = i;
      jwtProviders.get(i).localJwks().flatMap(LocalJwks::secretRef).ifPresent(ref -> refs.add(
          SecretReference.of("jwtProviders[" + index + "].localJwks.secretRef", ref, namespace,
              SecretContent.JWKS)));
    }
    basicAuth.filter(b -> !b.disabled()).flatMap(BasicAuth::users).ifPresent(ref -> refs.add(
        SecretReference.of("basicAuth.users", ref, namespace, SecretContent.HTPASSWD)));
    oauth2.ifPresent(login -> refs.addAll(login.secretRefs(namespace)));
    return refs;
  }

  /**
   * One entry of a Kubernetes Secret ({@code type: Opaque} or any other), in the referrer's namespace unless
   * {@code secret} names another (which needs a ReferenceGrant there).
   */
  public record SecretKeyRef(ObjectRef secret, String key) {
    public SecretKeyRef {
      Objects.requireNonNull(secret, "secret");
      Objects.requireNonNull(key, "key");
    }
  }

  /** What a Secret entry must hold, which decides how {@link SecretChecks} checks it. */
  public enum SecretContent {
    /** htpasswd lines with {@code {SHA}} hashes ({@link Htpasswd}). */
    HTPASSWD,
    /** A JSON Web Key Set of public keys. */
    JWKS,
    /**
     * A credential Envoy uses as it is (an OAuth2 client secret, an HMAC key): any text that is not blank. Never
     * shown: delivered over SDS, named in messages by Secret and entry only.
     */
    CREDENTIAL
  }

  /**
   * A Secret entry some option reads.
   *
   * @param field   where the reference is written, relative to the security options ({@code basicAuth.users})
   * @param secret  the Secret's key in {@link GatewayConfig#secrets()}
   * @param entry   the entry of its data read
   * @param content what the entry must hold
   */
  public record SecretReference(String field, ResourceKey secret, String entry, SecretContent content) {
    public SecretReference {
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(secret, "secret");
      Objects.requireNonNull(entry, "entry");
      Objects.requireNonNull(content, "content");
    }

    static SecretReference of(String field, SecretKeyRef ref, String namespace, SecretContent content) {
      return new SecretReference(field, TlsSecretData.secretKey(ref.secret(), namespace), ref.key(), content);
    }
  }

  /**
   * HTTP basic authentication (Envoy's {@code basic_auth} filter): a request must carry the credentials of one of
   * the users of the htpasswd entry {@code users} names ({@link #HTPASSWD_KEY} unless another key is given).
   * Unless {@code disabled} (a route's way to skip its VirtualService's), {@code users} is required.
   *
   * @param forwardUsernameHeader the request header the authenticated user's name is sent upstream in
   */
  public record BasicAuth(Optional<SecretKeyRef> users, Optional<String> forwardUsernameHeader, boolean disabled) {
    /** The entry Envoy Gateway reads basic-auth users from, and the default here. */
    public static final String HTPASSWD_KEY = ".htpasswd";

    public BasicAuth {
      Objects.requireNonNull(users, "users");
      Objects.requireNonNull(forwardUsernameHeader, "forwardUsernameHeader");
    }
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

  /**
   * Keys written inline ({@code inline}, a JWKS document), read by the proxy from {@code file}, or read from a
   * Secret entry ({@code secretRef}, default key {@link #SECRET_KEY}) and sent inline: exactly one.
   */
  public record LocalJwks(Optional<String> inline, Optional<String> file, Optional<SecretKeyRef> secretRef) {
    /** The Secret entry read when {@code secretRef} names none. */
    public static final String SECRET_KEY = "jwks";

    public LocalJwks {
      Objects.requireNonNull(inline, "inline");
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(secretRef, "secretRef");
    }

    /** Inline or from a file. */
    public LocalJwks(Optional<String> inline, Optional<String> file) {
      this(inline, file, Optional.empty());
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
