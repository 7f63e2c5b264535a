package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * OAuth2/OIDC login ({@code security.oauth2}, Envoy's {@code oauth2} filter): a request without a valid session
 * cookie is redirected to the identity provider's {@code authorizationEndpoint}; the provider sends the browser back
 * to {@code redirectPath}, where Envoy trades the code for tokens at {@code tokenEndpoint} (through a Holdfast
 * Upstream) and sets the session cookies, signed with the HMAC secret. The client secret and the HMAC secret are
 * entries of Kubernetes Secrets, delivered to Envoy over SDS and never written into a listener. Unless
 * {@code disabled} (a route's way to skip its VirtualService's), the endpoints, client id and both secrets are
 * required ({@link OAuth2Checks}).
 *
 * @param redirectUri        where the provider sends the browser back; may use Envoy's command operators
 *                           ({@code %REQ(:authority)%}); default {@link #DEFAULT_REDIRECT_URI} with {@code redirectPath}
 * @param redirectPath       the callback path Envoy answers itself (default {@link #DEFAULT_REDIRECT_PATH})
 * @param signoutPath        the path that clears the session cookies (default {@link #DEFAULT_SIGNOUT_PATH})
 * @param scopes             the scopes asked for; empty: {@link #DEFAULT_SCOPES}
 * @param passThroughHeaders requests matching any of these skip the login (e.g. API clients with their own token)
 * @param forwardBearerToken send the access token upstream as {@code Authorization: Bearer}
 */
public record OAuth2Options(Optional<TokenEndpoint> tokenEndpoint, Optional<String> authorizationEndpoint,
    Optional<String> clientId, Optional<SecurityOptions.SecretKeyRef> clientSecret,
    Optional<SecurityOptions.SecretKeyRef> hmacSecret,
    Optional<String> redirectUri, String redirectPath, String signoutPath, List<String> scopes,
    List<HeaderMatch> passThroughHeaders, boolean forwardBearerToken, boolean disabled) {

  public static final String DEFAULT_REDIRECT_PATH = "/oauth2/callback";
  public static final String DEFAULT_SIGNOUT_PATH = "/logout";
  /** The scheme and host of the request, as Envoy Gateway's default redirect URL. */
  public static final String DEFAULT_REDIRECT_URI = "%REQ(x-forwarded-proto)%://%REQ(:authority)%";
  /** An OIDC login asks for an ID token. */
  public static final List<String> DEFAULT_SCOPES = List.of("openid");
  /** The Secret entries read when a reference names no key (the client secret's is Envoy Gateway's). */
  public static final String CLIENT_SECRET_KEY = "client-secret";
  public static final String HMAC_SECRET_KEY = "hmac-secret";
  /** How long one token request may take when none is written. */
  public static final Duration DEFAULT_TOKEN_TIMEOUT = Duration.ofSeconds(5);

  public OAuth2Options {
    Objects.requireNonNull(tokenEndpoint, "tokenEndpoint");
    Objects.requireNonNull(authorizationEndpoint, "authorizationEndpoint");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(clientSecret, "clientSecret");
    Objects.requireNonNull(hmacSecret, "hmacSecret");
    Objects.requireNonNull(redirectUri, "redirectUri");
    Objects.requireNonNull(redirectPath, "redirectPath");
    Objects.requireNonNull(signoutPath, "signoutPath");
    scopes = List.copyOf(scopes);
    passThroughHeaders = List.copyOf(passThroughHeaders);
  }

  /** The redirect URI Envoy gives the provider: as written, else the request's scheme and host with the path. */
  public String effectiveRedirectUri() {
    return redirectUri.orElse(DEFAULT_REDIRECT_URI + redirectPath);
  }

  public List<String> effectiveScopes() {
    return scopes.isEmpty() ? DEFAULT_SCOPES : scopes;
  }

  /**
   * The Secret entries this login reads (its part of {@link SecurityOptions#secretRefs}, the one list every Secret
   * reference of the security options is fetched by and checked by, {@link SecretChecks}), each with its field
   * relative to the security options, resolved against {@code namespace} (the owner's); none when disabled.
   */
  List<SecurityOptions.SecretReference> secretRefs(String namespace) {
    List<SecurityOptions.SecretReference> refs = new ArrayList<>(2);
    if (disabled) {
      return refs;
    }
    clientSecret.ifPresent(ref -> refs.add(SecurityOptions.SecretReference.of("oauth2.clientSecret", ref, namespace,
        SecurityOptions.SecretContent.CREDENTIAL)));
    hmacSecret.ifPresent(ref -> refs.add(SecurityOptions.SecretReference.of("oauth2.hmacSecret", ref, namespace,
        SecurityOptions.SecretContent.CREDENTIAL)));
    return refs;
  }

  /** The identity provider's token endpoint ({@code uri}), reached through {@code upstream}. */
  public record TokenEndpoint(String uri, ObjectRef upstream, Duration timeout) {
    public TokenEndpoint {
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(upstream, "upstream");
      Objects.requireNonNull(timeout, "timeout");
    }
  }
}
