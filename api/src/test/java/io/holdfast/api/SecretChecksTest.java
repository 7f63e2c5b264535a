package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The Secret entries security options read: permitted, present, with the entry, holding what they should. */
class SecretChecksTest {

  private record Found(String field, String reason, String message) {
  }

  private static SecurityOptions options(String yaml) {
    List<Problem> problems = new ArrayList<>();
    SecurityOptions options = SecurityPolicySpec.parse(tree("targetRefs: [{kind: Gateway, name: edge}]\n" + yaml),
        problems).orElseThrow().security();
    assertThat(problems).isEmpty();
    return options;
  }

  private static List<Found> check(SecurityOptions options, Map<ResourceKey, Map<String, String>> secrets) {
    List<Found> found = new ArrayList<>();
    SecretChecks.check(options, "spec", "shop",
        key -> key.namespace().equals("shop") ? Optional.empty() : Optional.of("not yours"),
        key -> Optional.ofNullable(secrets.get(key)).map(m -> new TlsSecretData(new TreeMap<>(m))), errors(found));
    return found;
  }

  /** A report collecting the errors into {@code found}. */
  private static SecurityChecks.Report errors(List<Found> found) {
    return new SecurityChecks.Report() {
      @Override
      public void error(String field, String reason, String message) {
        found.add(new Found(field, reason, message));
      }

      @Override
      public void warn(String field, String reason, String message) {
      }

      @Override
      public InputLimits limits() {
        return InputLimits.DEFAULTS;
      }
    };
  }

  @Test
  void eachReferenceIsPermittedPresentAndHoldsWhatItShould() {
    SecurityOptions options = options("""
        basicAuth: {users: {name: users}}
        jwtProviders:
          - {name: a, issuer: https://a.test, localJwks: {secretRef: {name: keys}}}
          - {name: b, issuer: https://b.test, localJwks: {secretRef: {name: keys, key: other}}}
          - {name: c, issuer: https://c.test, localJwks: {secretRef: {name: gone}}}
          - {name: d, issuer: https://d.test, localJwks: {secretRef: {name: theirs, namespace: pki}}}
        """);
    List<Found> found = check(options, Map.of(
        TlsSecretData.secretKey("shop", "users"), Map.of(".htpasswd", "alice:{SHA}secret-looking-hash"),
        TlsSecretData.secretKey("shop", "keys"), Map.of("jwks", "{\"keys\": [{\"kty\": \"RSA\", \"d\": \"x\"}]}",
            "other", "not json {"),
        TlsSecretData.secretKey("pki", "theirs"), Map.of("jwks", "{}")));
    assertThat(found).extracting(Found::field, Found::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.jwtProviders[0].localJwks.secretRef",
            SecurityChecks.PRIVATE_KEY_IN_JWKS),
        org.assertj.core.groups.Tuple.tuple("spec.jwtProviders[1].localJwks.secretRef", SecurityChecks.INVALID_JWKS),
        org.assertj.core.groups.Tuple.tuple("spec.jwtProviders[2].localJwks.secretRef", Reasons.SECRET_NOT_FOUND),
        org.assertj.core.groups.Tuple.tuple("spec.jwtProviders[3].localJwks.secretRef", Reasons.REF_NOT_PERMITTED),
        org.assertj.core.groups.Tuple.tuple("spec.basicAuth.users", Htpasswd.INVALID_HTPASSWD));
    assertThat(found).extracting(Found::message).noneMatch(m -> m.contains("secret-looking-hash")
        || m.contains("alice"));
    assertThat(SecretChecks.usableJwks("{\"keys\": [{\"kty\": \"RSA\", \"n\": \"x\", \"e\": \"AQAB\"}]}")).isTrue();
    assertThat(SecretChecks.usableJwks("{\"keys\": []}")).isFalse();
  }

  @Test
  void aMissingEntryIsNamedAndShapeRulesApply() {
    List<Found> found = check(options("basicAuth: {users: {name: users, key: htpasswd}}"),
        Map.of(TlsSecretData.secretKey("shop", "users"), Map.of(".htpasswd", "x")));
    assertThat(found).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(SecretChecks.SECRET_ENTRY_NOT_FOUND);
      assertThat(f.message()).isEqualTo("Secret shop/users has no htpasswd entry");
    });
    List<Found> shape = new ArrayList<>();
    SecurityChecks.checkDefinitions(options("""
        basicAuth: {forwardUsernameHeader: "bad header"}
        jwtProviders: [{name: a, issuer: https://a.test, localJwks: {file: /k.json, secretRef: {name: k}}}]
        """), "spec", errors(shape));
    assertThat(shape).extracting(Found::field, Found::reason).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("spec.jwtProviders[0].localJwks", Reasons.CONFLICTING_FIELDS),
        org.assertj.core.groups.Tuple.tuple("spec.basicAuth.users", Reasons.MISSING_FIELD),
        org.assertj.core.groups.Tuple.tuple("spec.basicAuth.forwardUsernameHeader", Reasons.INVALID_HEADER_NAME));
  }

  /** OAuth2's credentials are checked as basic auth's users are: same reasons, same consent rule. */
  @Test
  void theOAuth2CredentialsAreCheckedWithTheOtherReferences() {
    String login = """
        oauth2:
          tokenEndpoint: {uri: https://idp.test/token, upstream: idp}
          authorizationEndpoint: https://idp.test/authorize
          clientId: shop
          clientSecret: %s
          hmacSecret: {name: sso, key: %s}
        """;
    Map<ResourceKey, Map<String, String>> secrets = Map.of(
        TlsSecretData.secretKey("shop", "sso"), Map.of("client-secret", "c-value", "hmac", "h-value", "blank", " "),
        TlsSecretData.secretKey("idp", "sso"), Map.of("client-secret", "theirs"));
    assertThat(check(options(login.formatted("{name: sso}", "hmac")), secrets)).isEmpty();
    assertThat(check(options(login.formatted("{name: gone}", "blank")), secrets))
        .extracting(Found::field, Found::reason).containsExactly(
            org.assertj.core.groups.Tuple.tuple("spec.oauth2.clientSecret", Reasons.SECRET_NOT_FOUND),
            org.assertj.core.groups.Tuple.tuple("spec.oauth2.hmacSecret", SecretChecks.SECRET_ENTRY_NOT_FOUND));
    List<Found> refused = check(options(login.formatted("{name: sso, namespace: idp}", "hmac")), secrets);
    assertThat(refused).extracting(Found::field, Found::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.oauth2.clientSecret", Reasons.REF_NOT_PERMITTED));
    assertThat(refused).extracting(Found::message).containsExactly("not yours");
  }
}
