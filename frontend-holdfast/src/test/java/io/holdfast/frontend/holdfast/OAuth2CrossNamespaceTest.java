package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecretChecks;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Secret;
import org.junit.jupiter.api.Test;

/**
 * An OAuth2 login's credentials in another namespace's Secret follow basic auth's rule: refused (RefNotPermitted,
 * the same message) unless a ReferenceGrant in the Secret's namespace lets the VirtualService's namespace use that
 * Secret; granted, the credentials are served as the VirtualService's own generic secrets.
 */
class OAuth2CrossNamespaceTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");
  private static final String CLIENT_SECRET = "idp-team-client-value";
  private static final String HMAC = "idp-team-hmac-value";
  private static final String SECRET = """
      apiVersion: v1
      kind: Secret
      metadata: {name: sso, namespace: idp}
      type: Opaque
      stringData: {client-secret: %s, hmac-secret: %s, .htpasswd: "alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU="}
      """.formatted(CLIENT_SECRET, HMAC);
  private static final String LOGIN = "{oauth2: {tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp},"
      + " authorizationEndpoint: 'https://idp.test/authorize', clientId: web,"
      + " clientSecret: {name: sso, namespace: idp}, hmacSecret: {name: sso, namespace: idp}}}";

  private static String grant(String namespace, String secretName) {
    return """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: sso-to-default, namespace: %s}
        spec:
          from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: default}]
          to: [{group: "", kind: Secret, name: %s}]
        """.formatted(namespace, secretName);
  }

  private static ValidationResult validate(String security, String... more) {
    String[] docs = new String[4 + more.length];
    docs[0] = TestManifests.upstream("up", 9101);
    docs[1] = TestManifests.upstream("idp", 9443);
    docs[2] = """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec: {port: 8080}
        """;
    docs[3] = """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: ['*']
          options: {security: %s}
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """.formatted(security);
    System.arraycopy(more, 0, docs, 4, more.length);
    return new Validator().validate(TestManifests.config(docs));
  }

  @Test
  void withoutAGrantTheSecretIsRefusedAsBasicAuthsUsersAre() {
    ValidationResult oauth2 = validate(LOGIN, SECRET);
    assertThat(oauth2.status(VS).state()).isEqualTo(State.REJECTED);
    assertThat(oauth2.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.security.oauth2.clientSecret", Reasons.REF_NOT_PERMITTED),
        tuple("spec.options.security.oauth2.hmacSecret", Reasons.REF_NOT_PERMITTED));
    ValidationResult basic = validate("{basicAuth: {users: {name: sso, namespace: idp}}}", SECRET);
    assertThat(basic.status(VS).problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.REF_NOT_PERMITTED);
      assertThat(oauth2.status(VS).problems()).extracting(Problem::message).containsOnly(p.message());
    });
    Ir ir = HoldfastFrontEnd.lowerAccepted(oauth2.accepted());
    assertThat(ir.listeners()).allSatisfy(l -> assertThat(l.virtualHosts()).isEmpty());
    assertThat(ir.secrets()).isEmpty();
  }

  @Test
  void aGrantForAnotherSecretOrFromAnotherNamespacePermitsNothing() {
    ValidationResult otherName = validate(LOGIN, SECRET, grant("idp", "not-sso"));
    assertThat(otherName.status(VS).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.REF_NOT_PERMITTED, Reasons.REF_NOT_PERMITTED);
    ValidationResult wrongPlace = validate(LOGIN, SECRET, grant("default", "sso"));
    assertThat(wrongPlace.status(VS).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.REF_NOT_PERMITTED, Reasons.REF_NOT_PERMITTED);
    assertThat(HoldfastFrontEnd.lowerAccepted(wrongPlace.accepted()).secrets()).isEmpty();
  }

  @Test
  void aGrantLetsTheLoginReadTheCredentialsWhichAreServedAsTheVirtualServicesOwn() {
    ValidationResult result = validate(LOGIN, SECRET, grant("idp", "sso"));
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(VS).problems()).isEmpty();
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    assertThat(ir.secrets()).extracting(Secret::name).containsExactly(
        "oauth2/VirtualService/default/web/client-secret", "oauth2/VirtualService/default/web/hmac-secret");
    assertThat(ir.secrets()).extracting(s -> ((Secret.Content.Generic) s.content()).value())
        .containsExactly(CLIENT_SECRET, HMAC);
    assertThat(result.statuses().toString()).doesNotContain(CLIENT_SECRET).doesNotContain(HMAC);
  }

  @Test
  void aGrantedButMissingEntryIsNamedAsBasicAuthsIs() {
    ValidationResult result = validate(LOGIN.replace("hmacSecret: {name: sso, namespace: idp}",
        "hmacSecret: {name: sso, namespace: idp, key: absent}"), SECRET, grant("idp", "sso"));
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.security.oauth2.hmacSecret", SecretChecks.SECRET_ENTRY_NOT_FOUND));
    assertThat(result.status(VS).state()).isEqualTo(State.REJECTED);
  }
}
