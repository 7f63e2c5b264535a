package io.holdfast.api;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code oauth2} of security options ({@link OAuth2Options}). As the other option readers: every problem is
 * recorded with its field's path, and a value exists only when all its parts parsed. Lists are bounded by the
 * document size limit here; their lengths are judged by {@link OAuth2Checks}.
 */
final class OAuth2Parser {

  static final String FIELD = "oauth2";
  private static final Set<String> OAUTH2 = Set.of("tokenEndpoint", "authorizationEndpoint", "clientId",
      "clientSecret", "hmacSecret", "redirectUri", "redirectPath", "signoutPath", "scopes", "passThroughHeaders",
      "forwardBearerToken", "disabled");
  /** On a route only turning it off: the login is the VirtualService's (or the policy's). */
  private static final Set<String> ROUTE_OAUTH2 = Set.of("disabled");
  private static final Set<String> TOKEN_ENDPOINT = Set.of("uri", "upstream", "namespace", "timeout");

  private OAuth2Parser() {
  }

  /** {@code fields}' {@code oauth2}, empty if absent or on a problem (recorded in {@code fields}). */
  static Optional<OAuth2Options> read(Fields parent, boolean route) {
    return parent.object(FIELD, route ? ROUTE_OAUTH2 : OAUTH2).flatMap(OAuth2Parser::oauth2);
  }

  private static Optional<OAuth2Options> oauth2(Fields fields) {
    int before = fields.problems().size();
    Optional<OAuth2Options.TokenEndpoint> token = fields.object("tokenEndpoint", TOKEN_ENDPOINT)
        .flatMap(OAuth2Parser::tokenEndpoint);
    Optional<String> authorization = fields.string("authorizationEndpoint");
    Optional<String> clientId = fields.string("clientId");
    // Read as basic auth's users and a key set's secretRef are: one Secret-reference shape for all options.
    Optional<SecurityOptions.SecretKeyRef> clientSecret = fields.object("clientSecret",
        SecurityOptionsParser.SECRET_REF)
        .flatMap(ref -> SecurityOptionsParser.secretKeyRef(ref, OAuth2Options.CLIENT_SECRET_KEY));
    Optional<SecurityOptions.SecretKeyRef> hmacSecret = fields.object("hmacSecret",
        SecurityOptionsParser.SECRET_REF)
        .flatMap(ref -> SecurityOptionsParser.secretKeyRef(ref, OAuth2Options.HMAC_SECRET_KEY));
    Optional<String> redirectUri = fields.string("redirectUri");
    String redirectPath = fields.string("redirectPath").orElse(OAuth2Options.DEFAULT_REDIRECT_PATH);
    String signoutPath = fields.string("signoutPath").orElse(OAuth2Options.DEFAULT_SIGNOUT_PATH);
    List<String> scopes = fields.has("scopes") ? fields.stringList("scopes", false).orElse(List.of()) : List.of();
    List<HeaderMatch> passThrough = fields.has("passThroughHeaders")
        ? fields.list("passThroughHeaders", false).flatMap(e -> MatchParser.headers(e, fields.problems()))
            .orElse(List.of())
        : List.of();
    boolean forward = fields.bool("forwardBearerToken").orElse(false);
    boolean disabled = fields.bool("disabled").orElse(false);
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new OAuth2Options(token, authorization, clientId, clientSecret, hmacSecret, redirectUri,
        redirectPath, signoutPath, scopes, passThrough, forward, disabled));
  }

  private static Optional<OAuth2Options.TokenEndpoint> tokenEndpoint(Fields fields) {
    Optional<String> uri = fields.requiredString("uri");
    Optional<ObjectRef> upstream = ObjectRefs.read(fields, "upstream");
    Duration timeout = fields.duration("timeout").orElse(OAuth2Options.DEFAULT_TOKEN_TIMEOUT);
    return uri.flatMap(u -> upstream.map(ref -> new OAuth2Options.TokenEndpoint(u, ref, timeout)));
  }
}
