package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * An OAuth2/OIDC login a filter chain's routes may name ({@link RouteSecurity#oauth2()}): a request without a valid
 * session is redirected to {@code authorizationEndpoint}; the callback at {@code redirectPath} trades the code for
 * tokens at {@code tokenUri} through {@code tokenCluster}. The client secret and the HMAC key are {@link Secret}s of
 * {@link Secret.Content.Generic} content, named here (never their values), so the IR's invariant can check they
 * exist and the proxies serving the chain may fetch them.
 *
 * @param name               unique within the chain
 * @param clientSecretName   the IR secret holding the client secret
 * @param hmacSecretName     the IR secret holding the key that signs the session cookies
 * @param redirectUri        may hold Envoy command operators
 * @param passThrough        requests matching any of these skip the login
 * @param forwardBearerToken the access token is sent upstream as {@code Authorization: Bearer}
 */
public record OAuth2Login(String name, ResourceKey tokenCluster, String tokenUri, Duration tokenTimeout,
    String authorizationEndpoint, String clientId, String clientSecretName, String hmacSecretName,
    String redirectUri, String redirectPath, String signoutPath, List<String> scopes,
    List<RouteMatch.HeaderMatch> passThrough, boolean forwardBearerToken) {

  public OAuth2Login {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(tokenCluster, "tokenCluster");
    Objects.requireNonNull(tokenUri, "tokenUri");
    Objects.requireNonNull(tokenTimeout, "tokenTimeout");
    Objects.requireNonNull(authorizationEndpoint, "authorizationEndpoint");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(clientSecretName, "clientSecretName");
    Objects.requireNonNull(hmacSecretName, "hmacSecretName");
    Objects.requireNonNull(redirectUri, "redirectUri");
    Objects.requireNonNull(redirectPath, "redirectPath");
    Objects.requireNonNull(signoutPath, "signoutPath");
    scopes = List.copyOf(scopes);
    passThrough = List.copyOf(passThrough);
    if (name.isEmpty() || clientId.isEmpty() || authorizationEndpoint.isEmpty() || redirectUri.isEmpty()) {
      throw new IllegalArgumentException("an OAuth2 login needs a name, a client id, an authorisation endpoint"
          + " and a redirect URI");
    }
    if (tokenTimeout.isNegative() || tokenTimeout.isZero()) {
      throw new IllegalArgumentException(name + ": the token request timeout must be positive");
    }
    if (!redirectPath.startsWith("/") || !signoutPath.startsWith("/")) {
      throw new IllegalArgumentException(name + ": the redirect and sign-out paths must be absolute");
    }
  }

  /** The secrets this login names, client secret first. */
  public List<String> secretNames() {
    return List.of(clientSecretName, hmacSecretName);
  }
}
