package io.holdfast.frontend.gloo;

import static io.holdfast.frontend.gloo.GlooRouteOptionsTest.readVs;
import static io.holdfast.frontend.gloo.GlooRouteOptionsTest.rejection;
import static io.holdfast.frontend.gloo.GlooRouteOptionsTest.vs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.holdfast.api.HeaderMatch;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Gloo's jwt, jwtStaged and rbac options read into Holdfast's security options. */
class GlooSecurityOptionsTest {

  private static final String OKTA = """
      {jwt: {providers: {okta: {issuer: https://idp.example.test/oauth2/default,
                                tokenSource: {headers: [{header: Jwt}], queryParams: [token]},
                                claimsToHeaders: [{claim: email, header: x-solo-claim-email}],
                                audiences: [api], keepToken: true,
                                jwks: {remote: {url: "https://idp.example.test/v1/keys",
                                                upstreamRef: {name: okta-jwks, namespace: gloo-system}}}}}},
       rbac: {policies: {viewer: {permissions: {methods: [GET], pathPrefix: /get},
                                  principals: [{jwtPrincipal: {claims: {email: dev@example.test}}}]}}}}""";

  @Test
  void providersAndClaimPoliciesOfTheOktaGuide() {
    VirtualService vs = readVs(vs(OKTA, "{}"));
    SecurityOptions security = vs.options().security();
    assertThat(security.jwtProviders()).containsExactly(new SecurityOptions.JwtProvider("okta",
        "https://idp.example.test/oauth2/default", List.of("api"), Optional.of(new SecurityOptions.RemoteJwks(
            "https://idp.example.test/v1/keys", new ObjectRef("okta-jwks", Optional.of("gloo-system")),
            SecurityOptions.DEFAULT_JWKS_TIMEOUT, Duration.ofMinutes(5))), Optional.empty(),
        List.of(new SecurityOptions.TokenHeader("Jwt", "")), List.of(), List.of("token"),
        List.of(new SecurityOptions.ClaimToHeader("email", "x-solo-claim-email")), true));
    // Gloo runs the unstaged jwt filter after external auth: Holdfast's second stage.
    assertThat(security.jwtAfterAuthz()).contains(new SecurityOptions.Jwt(SecurityOptions.JwtMode.REQUIRED,
        List.of("okta")));
    assertThat(security.jwt()).isEmpty();
    assertThat(security.rbac()).contains(new SecurityOptions.Rbac(SecurityOptions.RbacAction.ALLOW, List.of(
        new SecurityOptions.RbacRule(List.of(), List.of(), List.of(
            new HeaderMatch(":path", new HeaderMatch.Prefix("/get"), false),
            new HeaderMatch(":method", new HeaderMatch.Exact("GET"), false)),
            List.of(new SecurityOptions.ClaimMatch("okta", "email", List.of("dev@example.test"))))), false));
  }

  @Test
  void theReadOptionsPassHoldfastsOwnChecks() {
    String upstream = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: %s, namespace: gloo-system}
        spec: {static: {hosts: [{addr: idp.example.test, port: 443}]}}
        ---
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(upstream.formatted("petstore")
        + upstream.formatted("okta-jwks") + vs(OKTA, "{}")));
    assertThat(GlooFixtures.upstream(result, "gloo-system", "okta-jwks").findings()).isEmpty();
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").findings()).isEmpty();
  }

  @Test
  void principalsWithoutProviderStandForEachOfTheVirtualHostsProviders() {
    String host = """
        {jwtStaged: {beforeExtAuth: {validationPolicy: ALLOW_MISSING, providers: {
           a: {issuer: https://a.test, jwks: {local: {key: '{"kty":"oct","k":"c2VjcmV0"}'}}},
           b: {issuer: https://b.test, jwks: {local: {key: '{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}'}}}}}}}""";
    String route = """
        {rbac: {policies: {admins: {nestedClaimDelimiter: ".", principals: [
           {jwtPrincipal: {claims: {realm_access.roles: admin}, matcher: LIST_CONTAINS}}]}}}}""";
    VirtualService vs = readVs(vs(host, route));
    assertThat(vs.options().security().jwt()).contains(new SecurityOptions.Jwt(SecurityOptions.JwtMode.OPTIONAL,
        List.of("a", "b")));
    assertThat(vs.options().security().jwtProviders().get(0).localJwks().flatMap(SecurityOptions.LocalJwks::inline))
        .contains("{\"keys\":[{\"kty\":\"oct\",\"k\":\"c2VjcmV0\"}]}");
    assertThat(vs.routes().get(0).options().security().rbac().orElseThrow().rules())
        .extracting(r -> r.claims().get(0).provider(), r -> r.claims().get(0).name())
        .containsExactly(tuple("a", "realm_access.roles"), tuple("b", "realm_access.roles"));
  }

  @Test
  void aPemPublicKeyBecomesAKeySet() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    RSAPublicKey key = (RSAPublicKey) generator.generateKeyPair().getPublic();
    String pem = "-----BEGIN PUBLIC KEY-----\\n" + Base64.getMimeEncoder().encodeToString(key.getEncoded())
        .replace("\r\n", "\\n") + "\\n-----END PUBLIC KEY-----"; // \\n: a line break in the YAML string
    VirtualService vs = readVs(vs("{jwt: {providers: {p: {issuer: https://p.test, jwks: {local: {key: \"" + pem
        + "\"}}}}}}", "{}"));
    String jwks = vs.options().security().jwtProviders().get(0).localJwks().flatMap(SecurityOptions.LocalJwks::inline)
        .orElseThrow();
    assertThat(jwks).startsWith("{\"keys\":[{\"kty\":\"RSA\",\"n\":\"").endsWith("\",\"e\":\"AQAB\"}]}");
  }

  @Test
  void routesTurnTheCheckOffOrReplaceTheRules() {
    VirtualService vs = readVs(vs(OKTA, "{jwt: {disable: true}, rbac: {disable: true}}"));
    assertThat(vs.routes().get(0).options().security().jwtAfterAuthz()).contains(new SecurityOptions.Jwt(
        SecurityOptions.JwtMode.DISABLED, List.of()));
    assertThat(vs.routes().get(0).options().security().jwt()).isEmpty();
    assertThat(vs.routes().get(0).options().security().rbac()).contains(new SecurityOptions.Rbac(
        SecurityOptions.RbacAction.ALLOW, List.of(), true));
  }

  /**
   * Both of Gloo's stages: beforeExtAuth is the first JWT stage, afterExtAuth the second (after external auth);
   * a provider written the same way in both is one provider; a route turns one stage off and keeps the other.
   */
  @Test
  void bothStagesAreReadAndARouteTurnsOneOff() {
    String key = "jwks: {local: {key: '{\"keys\":[{\"kty\":\"RSA\",\"n\":\"AQAB\",\"e\":\"AQAB\"}]}'}}";
    VirtualService vs = readVs(vs("{jwtStaged: {beforeExtAuth: {providers: {idp: {issuer: https://idp.test, " + key
        + "}}}, afterExtAuth: {validationPolicy: ALLOW_MISSING, providers: {idp: {issuer: https://idp.test, " + key
        + "}, session: {issuer: https://authz.test, tokenSource: {headers: [{header: x-session}]}, " + key + "}}}}}",
        "{jwtStaged: {afterExtAuth: {disable: true}}}"));
    SecurityOptions security = vs.options().security();
    assertThat(security.jwtProviders()).extracting(SecurityOptions.JwtProvider::name)
        .containsExactly("idp", "session");
    assertThat(security.jwt()).contains(new SecurityOptions.Jwt(SecurityOptions.JwtMode.REQUIRED, List.of("idp")));
    assertThat(security.jwtAfterAuthz()).contains(new SecurityOptions.Jwt(SecurityOptions.JwtMode.OPTIONAL,
        List.of("idp", "session")));
    SecurityOptions route = vs.routes().get(0).options().security();
    assertThat(route.jwt()).isEmpty();
    assertThat(route.jwtAfterAuthz()).contains(new SecurityOptions.Jwt(SecurityOptions.JwtMode.DISABLED,
        List.of()));
  }

  @Test
  void whatHoldfastCannotHonourIsRejectedNamingTheField() {
    assertThat(rejection(vs("{jwt: {allowMissingOrFailedJwt: true, providers: {p: {issuer: https://p.test,"
        + " jwks: {local: {key: '{\"keys\":[]}'}}}}}}", "{}"))).extracting(Finding::field, Finding::reason)
        .containsExactly(tuple("spec.virtualHost.options.jwt.allowMissingOrFailedJwt", GlooFeatures.UNSUPPORTED));
    assertThat(rejection(vs("{jwtStaged: {beforeExtAuth: {providers: {p: {issuer: https://p.test, jwks: {local:"
        + " {key: '{\"keys\":[]}'}}}}}, afterExtAuth: {providers: {p: {issuer: https://q.test, jwks: {local:"
        + " {key: '{\"keys\":[]}'}}}}}}}", "{}"))).extracting(Finding::field, Finding::reason)
        .containsExactly(tuple("spec.virtualHost.options.jwtStaged.afterExtAuth.providers.p",
            GlooFeatures.UNSUPPORTED));
    assertThat(rejection(vs("{jwt: {providers: {p: {jwks: {local: {key: '{\"keys\":[]}'}}}}}}", "{}")))
        .extracting(Finding::field).containsExactly("spec.virtualHost.options.jwt.providers.p.issuer");
    assertThat(rejection(vs("{}", "{jwtProvidersStaged: {beforeExtAuth: {}}}"))).extracting(Finding::field)
        .containsExactly("spec.virtualHost.routes[0].options.jwtProvidersStaged");
    assertThat(rejection(vs("{}", "{rbac: {policies: {}}}"))).extracting(Finding::field)
        .containsExactly("spec.virtualHost.routes[0].options.rbac.policies");
    assertThat(rejection(vs("{}", "{rbac: {policies: {p: {principals: [{jwtPrincipal: {provider: a,"
        + " claims: {admin: 'true'}, matcher: BOOLEAN}}]}}}}"))).extracting(Finding::field)
        .containsExactly("spec.virtualHost.routes[0].options.rbac.policies.p.principals[0].jwtPrincipal.matcher");
    assertThat(rejection(vs("{}", "{rbac: {policies: {p: {principals: [{jwtPrincipal: {provider: a,"
        + " claims: {a.b: c}}}]}}}}"))).extracting(Finding::field)
        .containsExactly("spec.virtualHost.routes[0].options.rbac.policies.p.principals[0].jwtPrincipal.claims.a.b");
    assertThat(rejection(vs("{}", "{rbac: {policies: {p: {principals: [{jwtPrincipal: {claims: {a: b}}}]}}}}")))
        .extracting(Finding::field)
        .containsExactly("spec.virtualHost.routes[0].options.rbac.policies.p.principals[0].jwtPrincipal.provider");
  }

  @Test
  void aRouteOptionsPrincipalWithoutProviderTakesTheProvidersOfTheVirtualHostMergingIt() {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: RouteOption
        metadata: {name: admins, namespace: gloo-system}
        spec:
          options:
            rbac: {policies: {admins: {principals: [{jwtPrincipal: {claims: {role: admin}}}]}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            options:
              jwt: {providers: {idp: {issuer: https://idp.test,
                jwks: {local: {key: '{"keys":[{"kty":"RSA","n":"AQAB","e":"AQAB"}]}'}}}}}
            routes:
            - matchers: [{prefix: /}]
              optionsConfigRefs: {delegateOptions: [{name: admins}]}
              routeAction: {single: {upstream: {name: petstore}}}
        """;
    GlooReading reading = GlooRouteOptionsTest.read(yaml);
    assertThat(reading.rejected()).isEmpty();
    VirtualService vs = reading.holdfastConfig().virtualServices().get(0);
    assertThat(vs.routes().get(0).options().security().rbac().orElseThrow().rules())
        .extracting(r -> r.claims().get(0)).containsExactly(new SecurityOptions.ClaimMatch("idp", "role",
            List.of("admin")));
  }
}
