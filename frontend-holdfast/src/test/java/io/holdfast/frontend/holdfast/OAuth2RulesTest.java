package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.OAuth2Checks;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecretChecks;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TlsSecretData;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.OAuth2Login;
import io.holdfast.ir.Route;
import io.holdfast.ir.Secret;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OAuth2 login options on a VirtualService: every bad field is rejected with its named reason and path, the
 * references (token endpoint Upstream, Secrets) must resolve, a route turns the login off for itself, and the
 * credentials reach the IR only as generic secrets that no status, message or {@code toString} shows.
 */
class OAuth2RulesTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");
  private static final String CLIENT_SECRET = "s3cr3t-client-value";
  private static final String HMAC = "s3cr3t-hmac-value";
  private static final String GOOD = "tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp},"
      + " authorizationEndpoint: 'https://idp.test/authorize', clientId: web, clientSecret: {name: sso},"
      + " hmacSecret: {name: sso}";

  private static ValidationResult validate(String oauth2, String routes, boolean withSecret) {
    GatewayConfig config = TestManifests.config(TestManifests.upstream("up", 9101),
        TestManifests.upstream("idp", 9443), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: ['*']
          options: {security: {oauth2: {%s}}}
          routes: %s
        """.formatted(oauth2, routes), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec: {port: 8080}
        """);
    if (withSecret) {
      config = config.toBuilder().secret(TlsSecretData.secretKey("default", "sso"), new TlsSecretData(new TreeMap<>(
          Map.of("client-secret", CLIENT_SECRET, "hmac-secret", HMAC, "empty", "")))).build();
    }
    return new Validator().validate(config);
  }

  private static final String PLAIN = "[{match: {prefix: /}, route: {upstream: up}}]";

  static Stream<Arguments> badValues() {
    String at = "spec.options.security.oauth2";
    return Stream.of(
        Arguments.of(GOOD.replace("tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp},", ""),
            at + ".tokenEndpoint", Reasons.MISSING_FIELD),
        Arguments.of(GOOD.replace("https://idp.test/token", "http://idp.test/token"), at + ".tokenEndpoint.uri",
            OAuth2Checks.ENDPOINT_NOT_HTTPS),
        Arguments.of(GOOD.replace("upstream: idp}", "upstream: idp, timeout: 0s}"), at + ".tokenEndpoint.timeout",
            Reasons.INVALID_VALUE),
        Arguments.of(GOOD.replace("upstream: idp", "upstream: nowhere"), at + ".tokenEndpoint.upstream",
            OAuth2Rules.OAUTH2_UPSTREAM_NOT_FOUND),
        Arguments.of(GOOD.replace("'https://idp.test/authorize'", "'http://idp.test/authorize'"),
            at + ".authorizationEndpoint", OAuth2Checks.ENDPOINT_NOT_HTTPS),
        Arguments.of(GOOD.replace("'https://idp.test/authorize'", "'https:///authorize'"),
            at + ".authorizationEndpoint", Reasons.INVALID_VALUE),
        Arguments.of(GOOD.replace("authorizationEndpoint: 'https://idp.test/authorize',", ""),
            at + ".authorizationEndpoint", Reasons.MISSING_FIELD),
        Arguments.of(GOOD.replace("clientId: web", "clientId: 'a b'"), at + ".clientId", Reasons.INVALID_VALUE),
        Arguments.of(GOOD.replace("clientId: web,", ""), at + ".clientId", Reasons.MISSING_FIELD),
        Arguments.of(GOOD.replace("clientSecret: {name: sso},", ""), at + ".clientSecret", Reasons.MISSING_FIELD),
        Arguments.of(GOOD.replace("hmacSecret: {name: sso}", "hmacSecret: {name: Bad_Name}"), at + ".hmacSecret.name",
            Reasons.INVALID_NAME),
        Arguments.of(GOOD.replace("hmacSecret: {name: sso}", "hmacSecret: {name: sso, key: 'a/b'}"),
            at + ".hmacSecret.key", Reasons.INVALID_NAME),
        Arguments.of(GOOD.replace("hmacSecret: {name: sso}", "hmacSecret: {name: gone}"), at + ".hmacSecret",
            Reasons.SECRET_NOT_FOUND),
        // The credentials are Secret references as basic auth's users are: the same checks, the same reasons.
        Arguments.of(GOOD.replace("hmacSecret: {name: sso}", "hmacSecret: {name: sso, key: other}"),
            at + ".hmacSecret", SecretChecks.SECRET_ENTRY_NOT_FOUND),
        Arguments.of(GOOD.replace("hmacSecret: {name: sso}", "hmacSecret: {name: sso, key: empty}"),
            at + ".hmacSecret", SecretChecks.SECRET_ENTRY_NOT_FOUND),
        Arguments.of(GOOD.replace("hmacSecret: {name: sso}", "hmacSecret: {name: sso, namespace: other}"),
            at + ".hmacSecret", Reasons.REF_NOT_PERMITTED),
        Arguments.of(GOOD + ", redirectUri: 'callback'", at + ".redirectUri", OAuth2Checks.INVALID_REDIRECT),
        Arguments.of(GOOD + ", redirectUri: 'https://web.test/elsewhere'", at + ".redirectUri",
            OAuth2Checks.INVALID_REDIRECT),
        Arguments.of(GOOD + ", redirectPath: callback", at + ".redirectPath", OAuth2Checks.INVALID_REDIRECT),
        Arguments.of(GOOD + ", redirectPath: '/cb?x=1'", at + ".redirectPath", OAuth2Checks.INVALID_REDIRECT),
        Arguments.of(GOOD + ", signoutPath: logout", at + ".signoutPath", OAuth2Checks.INVALID_REDIRECT),
        Arguments.of(GOOD + ", signoutPath: /oauth2/callback", at + ".signoutPath", Reasons.CONFLICTING_FIELDS),
        Arguments.of(GOOD + ", scopes: ['open id']", at + ".scopes[0]", Reasons.INVALID_VALUE),
        Arguments.of(GOOD + ", scopes: [openid, openid]", at + ".scopes[1]", Reasons.INVALID_VALUE),
        Arguments.of(GOOD + ", scopes: [" + "s,".repeat(OAuth2Checks.MAX_SCOPES) + "s]", at + ".scopes",
            SecurityChecks.TOO_MANY),
        Arguments.of(GOOD + ", passThroughHeaders: [{name: 'bad name', present: true}]",
            at + ".passThroughHeaders[0].name", Reasons.INVALID_HEADER_NAME),
        Arguments.of(GOOD + ", passThroughHeaders: [{name: x, prefix: ''}]", at + ".passThroughHeaders[0].prefix",
            Reasons.EMPTY_MATCHER),
        Arguments.of(GOOD + ", passThroughHeaders: [{name: x, regex: '(a+'}]", at + ".passThroughHeaders[0].regex",
            Reasons.INVALID_REGEX),
        Arguments.of(GOOD + ", cookieDomain: x", at + ".cookieDomain", Reasons.UNKNOWN_FIELD));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void aBadOAuth2FieldIsRejectedWithItsReason(String oauth2, String field, String reason) {
    ValidationResult result = validate(oauth2, PLAIN, true);
    assertThat(result.status(VS).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .contains(tuple(field, reason));
  }

  @Test
  void aRouteMayOnlyTurnTheLoginOff() {
    ValidationResult result = validate(GOOD, "[{match: {prefix: /}, route: {upstream: up}, options: {security:"
        + " {oauth2: {clientId: other}}}}]", true);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .contains(tuple("spec.routes[0].options.security.oauth2.clientId", Reasons.UNKNOWN_FIELD));
  }

  @Test
  void theCallbackAndSignOutPathsMustReachARouteThatRunsTheLogin() {
    ValidationResult unrouted = validate(GOOD, "[{match: {prefix: /api}, route: {upstream: up}}]", true);
    assertThat(unrouted.status(VS).state()).isEqualTo(State.WARNING);
    assertThat(unrouted.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.security.oauth2.redirectPath", OAuth2Checks.PATH_NOT_ROUTED),
        tuple("spec.options.security.oauth2.signoutPath", OAuth2Checks.PATH_NOT_ROUTED));

    ValidationResult optedOut = validate(GOOD, """
        [{match: {prefix: /oauth2}, route: {upstream: up}, options: {security: {oauth2: {disabled: true}}}},
         {match: {prefix: /, headers: [{name: x, exact: y}]}, route: {upstream: up}},
         {match: {prefix: /}, route: {upstream: up}}]""", true);
    assertThat(optedOut.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.security.oauth2.redirectPath", OAuth2Checks.PATH_NOT_ROUTED));
  }

  @Test
  void aCaseInsensitiveOptOutTakesTheCallbackWhateverTheCaseItIsWrittenIn() {
    String optOut = "[{match: {prefix: /OAuth2/, caseSensitive: %s}, route: {upstream: up}, options: {security:"
        + " {oauth2: {disabled: true}}}}, {match: {prefix: /}, route: {upstream: up}}]";
    assertThat(validate(GOOD, optOut.formatted("false"), true).status(VS).problems())
        .extracting(Problem::field, Problem::reason).containsExactly(
            tuple("spec.options.security.oauth2.redirectPath", OAuth2Checks.PATH_NOT_ROUTED));
    assertThat(validate(GOOD, optOut.formatted("true"), true).status(VS).problems()).isEmpty();
  }

  @Test
  void aMissingSecretRejectsTheVirtualServiceWhichIsThenNotServed() {
    ValidationResult result = validate(GOOD, PLAIN, false);
    assertThat(result.status(VS).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason).contains(
        tuple("spec.options.security.oauth2.clientSecret", Reasons.SECRET_NOT_FOUND),
        tuple("spec.options.security.oauth2.hmacSecret", Reasons.SECRET_NOT_FOUND));
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    assertThat(ir.listeners()).allSatisfy(l -> assertThat(l.virtualHosts()).isEmpty());
    assertThat(ir.secrets()).isEmpty();
  }

  @Test
  void theLoginLowersWithGenericSecretsAndARouteOptOut() {
    ValidationResult result = validate(GOOD + ", scopes: [openid, email], forwardBearerToken: true,"
        + " redirectUri: 'https://web.test/cb', redirectPath: /cb", """
        [{match: {prefix: /healthz}, route: {upstream: up}, options: {security: {oauth2: {disabled: true}}}},
         {match: {prefix: /}, route: {upstream: up}}]""", true);
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Listener.FilterChain.Http chain = (Listener.FilterChain.Http) ir.listeners().get(0).filterChains().get(0);
    OAuth2Login login = chain.security().oauth2().get(0);
    assertThat(login.name()).isEqualTo("default/web");
    assertThat(login.tokenCluster()).isEqualTo(ResourceKey.upstream("default", "idp"));
    assertThat(login.scopes()).containsExactly("openid", "email");
    assertThat(login.forwardBearerToken()).isTrue();
    assertThat(login.redirectUri()).isEqualTo("https://web.test/cb");
    assertThat(login.redirectPath()).isEqualTo("/cb");
    List<Route> routes = chain.virtualHosts().get(0).routes();
    assertThat(routes.get(0).security().oauth2()).isEmpty();
    assertThat(routes.get(1).security().oauth2()).contains("default/web");
    assertThat(ir.secrets()).extracting(Secret::name).containsExactly(
        "oauth2/VirtualService/default/web/client-secret", "oauth2/VirtualService/default/web/hmac-secret");
    assertThat(ir.secrets()).extracting(s -> ((Secret.Content.Generic) s.content()).value())
        .containsExactly(CLIENT_SECRET, HMAC);
    // Never shown: not by the IR, its secrets, nor the statuses.
    assertThat(ir.toString()).doesNotContain(CLIENT_SECRET).doesNotContain(HMAC).contains("<redacted>");
    assertThat(result.statuses().toString()).doesNotContain(CLIENT_SECRET).doesNotContain(HMAC);
  }
}
