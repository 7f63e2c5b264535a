package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteSecurity;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Security options: each bad value is rejected with its named reason and path (wildcard domains, so no gRPC
 * warnings mix in), route settings replace the VirtualService's, and what validation cannot see fails closed.
 */
class SecurityRulesTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");
  private static final String PROVIDER = "{name: idp, issuer: https://idp.test, remoteJwks: {uri: "
      + "'https://idp.test/jwks', upstream: idp}}";

  private static ValidationResult validate(String security, String routes, String... more) {
    String[] docs = new String[3 + more.length];
    docs[0] = TestManifests.upstream("up", 9101);
    docs[1] = TestManifests.upstream("idp", 9443);
    docs[2] = """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: ['*']
          options: {security: %s}
          routes: %s
        """.formatted(security, routes);
    System.arraycopy(more, 0, docs, 3, more.length);
    GatewayConfig config = TestManifests.config(docs);
    return new Validator().validate(config);
  }

  private static String route(String security) {
    return "[{match: {prefix: /}, route: {upstream: up}, options: {security: " + security + "}}]";
  }

  static Stream<Arguments> badValues() {
    String vs = "spec.options.security.";
    String rt = "spec.routes[0].options.security.";
    String plain = "[{match: {prefix: /}, route: {upstream: up}}]";
    return Stream.of(
        Arguments.of("{jwtProviders: [{name: idp, issuer: https://idp.test, remoteJwks: {uri: 'https://x/j',"
            + " upstream: missing}}]}", plain, vs + "jwtProviders[0].remoteJwks.upstream",
            SecurityRules.JWKS_UPSTREAM_NOT_FOUND),
        Arguments.of("{jwtProviders: [" + PROVIDER + ", " + PROVIDER + "]}", plain, vs + "jwtProviders[1].name",
            SecurityChecks.DUPLICATE_JWT_PROVIDER),
        Arguments.of("{jwtProviders: [{name: a, issuer: i}]}", plain, vs + "jwtProviders[0]", Reasons.MISSING_FIELD),
        Arguments.of("{jwtProviders: [{name: a, issuer: i, localJwks: {inline: 'not json'}}]}", plain,
            vs + "jwtProviders[0].localJwks.inline", SecurityChecks.INVALID_JWKS),
        Arguments.of("{jwtProviders: [{name: a, issuer: i, localJwks: {inline: '{\"keys\":[{\"kty\":\"RSA\","
            + "\"n\":\"x\",\"e\":\"AQAB\",\"d\":\"private\"}]}'}}]}", plain,
            vs + "jwtProviders[0].localJwks.inline", SecurityChecks.PRIVATE_KEY_IN_JWKS),
        Arguments.of("{jwtProviders: [{name: a, issuer: i, localJwks: {file: relative.json}}]}", plain,
            vs + "jwtProviders[0].localJwks.file", Reasons.INVALID_VALUE),
        Arguments.of("{jwtProviders: [" + PROVIDER + "]}", route("{jwt: {providers: [other]}}"),
            rt + "jwt.providers[0]", SecurityChecks.JWT_PROVIDER_NOT_FOUND),
        Arguments.of("{jwtProviders: [" + PROVIDER + "], jwt: {providers: []}}", plain, vs + "jwt.providers",
            Reasons.MISSING_FIELD),
        Arguments.of("{jwt: {mode: Sometimes, providers: [idp]}}", plain, vs + "jwt.mode", Reasons.INVALID_VALUE),
        Arguments.of("{rbac: {rules: [{clientIp: [192.0.2.0/33]}]}}", plain, vs + "rbac.rules[0].clientIp[0]",
            SecurityChecks.INVALID_CIDR),
        Arguments.of("{rbac: {rules: [{}]}}", plain, vs + "rbac.rules[0]", SecurityChecks.EMPTY_RULE),
        Arguments.of("{rbac: {rules: []}}", plain, vs + "rbac.rules", Reasons.MISSING_FIELD),
        Arguments.of("{rbac: {action: Audit, rules: [{clientIp: [192.0.2.1]}]}}", plain, vs + "rbac.action",
            Reasons.INVALID_VALUE),
        Arguments.of("{rbac: {rules: [{headers: [{name: x-a, regex: '(a'}]}]}}", plain,
            vs + "rbac.rules[0].headers[0].regex", Reasons.INVALID_REGEX),
        Arguments.of("{jwtProviders: [" + PROVIDER + "]}",
            route("{rbac: {rules: [{claims: [{provider: idp, name: role, values: [admin]}]}]}}"),
            rt + "rbac.rules[0].claims[0].provider", SecurityChecks.CLAIM_WITHOUT_JWT),
        Arguments.of("{jwtProviders: [" + PROVIDER + "], jwt: {providers: [idp]}}",
            route("{rbac: {rules: [{claims: [{provider: nobody, name: role, values: [admin]}]}]}}"),
            rt + "rbac.rules[0].claims[0].provider", SecurityChecks.JWT_PROVIDER_NOT_FOUND),
        Arguments.of("{}", route("{jwtProviders: []}"), "spec.routes[0].options.security.jwtProviders",
            Reasons.UNKNOWN_FIELD),
        Arguments.of("{extAuthz: {grpc: {upstream: missing}}}", plain, vs + "extAuthz.grpc.upstream",
            SecurityRules.EXT_AUTHZ_UPSTREAM_NOT_FOUND),
        Arguments.of("{extAuthz: {grpc: {upstream: up}}}", plain, vs + "extAuthz.grpc.upstream",
            SecurityRules.EXT_AUTHZ_UPSTREAM_NOT_HTTP2),
        Arguments.of("{extAuthz: {timeout: 1s}}", plain, vs + "extAuthz", SecurityChecks.INVALID_EXT_AUTHZ),
        Arguments.of("{extAuthz: {http: {upstream: up, pathPrefix: check}}}", plain, vs + "extAuthz.http.pathPrefix",
            Reasons.INVALID_PATH),
        Arguments.of("{extAuthz: {http: {upstream: up}, withRequestBody: {maxRequestBytes: 0}}}", plain,
            vs + "extAuthz.withRequestBody.maxRequestBytes", SecurityChecks.INVALID_EXT_AUTHZ),
        Arguments.of("{}", route("{extAuthz: {grpc: {upstream: up}}}"), rt + "extAuthz.grpc", Reasons.UNKNOWN_FIELD),
        Arguments.of("{jwtProviders: [" + PROVIDER + "]}", route("{jwtAfterAuthz: {providers: [other]}}"),
            rt + "jwtAfterAuthz.providers[0]", SecurityChecks.JWT_PROVIDER_NOT_FOUND),
        Arguments.of("{jwtProviders: [" + PROVIDER + "], jwtAfterAuthz: {providers: [idp]}}",
            route("{jwtAfterAuthz: {mode: Disabled}, rbac: {rules: [{claims: [{provider: idp, name: role,"
                + " values: [admin]}]}]}}"),
            rt + "rbac.rules[0].claims[0].provider", SecurityChecks.CLAIM_WITHOUT_JWT));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void aBadSecurityOptionIsRejectedWithItsReason(String security, String routes, String field, String reason) {
    ValidationResult result = validate(security, routes);
    assertThat(result.status(VS).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .contains(tuple(field, reason));
  }

  @Test
  void anInlineKeySetIsNeverQuotedInAStatus() {
    String secret = "c2VjcmV0LXNpZ25pbmcta2V5";
    ValidationResult result = validate("{jwtProviders: [{name: a, issuer: i, localJwks: {inline: '{\"keys\":"
        + "[{\"kty\":\"oct\",\"k\":\"" + secret + "\"}]}'}}], jwt: {providers: [a]}}", "[{match: {prefix: /},"
        + " route: {upstream: up}}]");
    assertThat(result.status(VS).state()).isEqualTo(State.WARNING);
    assertThat(result.status(VS).problems()).extracting(Problem::reason)
        .containsExactly(SecurityChecks.SYMMETRIC_KEY_IN_JWKS);
    assertThat(result.status(VS).toString()).doesNotContain(secret);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    assertThat(ir.toString()).doesNotContain(secret);
  }

  @Test
  void routeSettingsReplaceTheVirtualServiceOnesAndProvidersAreNamedPerVirtualService() {
    ValidationResult result = validate("{jwtProviders: [" + PROVIDER + "], jwt: {providers: [idp]},"
        + " rbac: {action: Deny, rules: [{clientIp: [192.0.2.0/24]}]}}", """
        [{match: {prefix: /open}, route: {upstream: up}, options: {security: {jwt: {mode: Disabled},
           rbac: {disabled: true}}}},
         {match: {prefix: /maybe}, route: {upstream: up}, options: {security: {jwt: {mode: Optional,
           providers: [idp]}}}},
         {match: {prefix: /admin}, route: {upstream: up}, options: {security: {rbac: {rules: [
           {claims: [{provider: idp, name: realm.roles, values: [admin]}], directClientIp: [198.51.100.7/32]}]}}}},
         {match: {prefix: /}, route: {upstream: up}}]""", gateway());
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Listener.FilterChain.Http chain = (Listener.FilterChain.Http) ir.listeners().get(0).filterChains().get(0);
    assertThat(chain.security().jwtProviders()).extracting(ListenerSecurity.JwtProvider::name)
        .containsExactly("default/web/idp");
    List<Route> routes = chain.virtualHosts().get(0).routes();
    assertThat(routes.get(0).security()).isEqualTo(RouteSecurity.NONE);
    assertThat(routes.get(1).security().jwt().orElseThrow())
        .isEqualTo(new RouteSecurity.JwtRequirement(List.of("default/web/idp"), true));
    assertThat(routes.get(1).security().rbac().orElseThrow().action()).isEqualTo(RouteSecurity.Action.DENY);
    RouteSecurity admin = routes.get(2).security();
    assertThat(admin.jwt().orElseThrow().allowMissing()).isFalse();
    assertThat(admin.rbac().orElseThrow().action()).isEqualTo(RouteSecurity.Action.ALLOW);
    assertThat(admin.rbac().orElseThrow().rules().get(0).all()).containsExactly(
        new RouteSecurity.ClientIp(List.of(new RouteSecurity.IpRange("198.51.100.7", 32)), true),
        new RouteSecurity.Claim("default/web/idp", List.of("realm", "roles"), List.of("admin")));
    assertThat(routes.get(3).security().jwt()).isPresent();
  }

  /**
   * The JWT stage after external authorisation: inherited and replaced like jwt, independently of it; claim rules
   * may read its providers; a RouteTable route naming a provider its VirtualService lacks there refuses everything.
   */
  @Test
  void theStageAfterAuthorisationIsInheritedReplacedAndReadByClaims() {
    ValidationResult result = validate("{jwtProviders: [" + PROVIDER + ", {name: session, issuer: https://s.test,"
        + " localJwks: {file: /etc/s.json}, fromHeaders: [{name: x-session}]}], jwt: {providers: [idp]},"
        + " jwtAfterAuthz: {providers: [session]}}", """
        [{match: {prefix: /open}, route: {upstream: up}, options: {security: {jwtAfterAuthz: {mode: Disabled}}}},
         {match: {prefix: /admin}, route: {upstream: up}, options: {security: {jwt: {mode: Disabled}, rbac: {rules: [
           {claims: [{provider: session, name: role, values: [admin]}]}]}}}},
         {match: {prefix: /t}, delegate: {ref: {name: table}}},
         {match: {prefix: /}, route: {upstream: up}}]""", gateway(),
        table("{jwtAfterAuthz: {providers: [elsewhere]}}"));
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Listener.FilterChain.Http chain = (Listener.FilterChain.Http) ir.listeners().get(0).filterChains().get(0);
    List<Route> routes = chain.virtualHosts().get(0).routes();
    RouteSecurity.JwtRequirement idp = new RouteSecurity.JwtRequirement(List.of("default/web/idp"), false);
    RouteSecurity.JwtRequirement session = new RouteSecurity.JwtRequirement(List.of("default/web/session"), false);
    assertThat(routes.get(0).security().jwt()).contains(idp);
    assertThat(routes.get(0).security().jwtAfterAuthz()).isEmpty();
    RouteSecurity admin = routes.get(1).security();
    assertThat(admin.jwt()).isEmpty();
    assertThat(admin.jwtAfterAuthz()).contains(session);
    assertThat(admin.rbac().orElseThrow().rules().get(0).all())
        .containsExactly(new RouteSecurity.Claim("default/web/session", List.of("role"), List.of("admin")));
    assertThat(routes.get(2).security().rbac()).contains(RouteSecurity.AccessRules.denyAll());
    assertThat(routes.get(3).security().jwt()).contains(idp);
    assertThat(routes.get(3).security().jwtAfterAuthz()).contains(session);
  }

  @Test
  void aRouteTableNamingAProviderItsVirtualServiceLacksRefusesEverything() {
    ValidationResult result = validate("{jwtProviders: [" + PROVIDER + "]}",
        "[{match: {prefix: /t}, delegate: {ref: {name: table}}}]", gateway(),
        table("{jwt: {providers: [elsewhere]}}"));
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Route route = ir.listeners().get(0).virtualHosts().get(0).routes().get(0);
    assertThat(route.security().rbac()).contains(RouteSecurity.AccessRules.denyAll());
  }

  /** RouteTable {@code table}: one route under /t with {@code security} as its options' security. */
  private static String table(String security) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: table}
        spec:
          routes:
            - match: {prefix: /t}
              route: {upstream: up}
              options: {security: %s}
        """.formatted(security);
  }

  private static String gateway() {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec: {port: 8080}
        """;
  }
}
