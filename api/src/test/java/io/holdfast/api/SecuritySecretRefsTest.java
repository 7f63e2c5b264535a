package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code basicAuth} and {@code localJwks.secretRef} are read, and {@link SecurityOptions#secretRefs} lists them. */
class SecuritySecretRefsTest {

  private static VirtualService parsed(String text) {
    ParseResult result = new ModelParser().parse(tree(text));
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    return (VirtualService) ((ParseResult.Parsed) result).resource();
  }

  @Test
  void basicAuthAndSecretJwksAreReadWithTheirDefaultKeysAndListedAsSecretReferences() {
    VirtualService vs = parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: shop}
        spec:
          domains: [web.test]
          options:
            security:
              basicAuth: {users: {name: users}, forwardUsernameHeader: x-user}
              jwtProviders:
                - {name: a, issuer: https://a.test, localJwks: {inline: '{"keys": []}'}}
                - {name: b, issuer: https://b.test, localJwks: {secretRef: {name: keys, namespace: pki, key: k.json}}}
                - {name: c, issuer: https://c.test, localJwks: {secretRef: {name: more}}}
          routes:
            - match: {prefix: /open}
              route: {upstream: app}
              options: {security: {basicAuth: {disabled: true}}}
        """);
    SecurityOptions security = vs.options().security();
    assertThat(security.basicAuth()).contains(new SecurityOptions.BasicAuth(Optional.of(
        new SecurityOptions.SecretKeyRef(ObjectRef.of("users"), ".htpasswd")), Optional.of("x-user"), false));
    assertThat(security.secretRefs("shop")).containsExactly(
        new SecurityOptions.SecretReference("jwtProviders[1].localJwks.secretRef",
            TlsSecretData.secretKey("pki", "keys"), "k.json", SecurityOptions.SecretContent.JWKS),
        new SecurityOptions.SecretReference("jwtProviders[2].localJwks.secretRef",
            TlsSecretData.secretKey("shop", "more"), "jwks", SecurityOptions.SecretContent.JWKS),
        new SecurityOptions.SecretReference("basicAuth.users", TlsSecretData.secretKey("shop", "users"),
            ".htpasswd", SecurityOptions.SecretContent.HTPASSWD));
    SecurityOptions route = vs.routes().get(0).options().security();
    assertThat(route.basicAuth()).contains(new SecurityOptions.BasicAuth(Optional.empty(), Optional.empty(), true));
    assertThat(route.secretRefs("shop")).isEmpty();
  }

  @Test
  void aRouteCannotNameItsOwnUsersAndAPolicyReadsBasicAuthToo() {
    ParseResult result = new ModelParser().parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes:
            - match: {prefix: /}
              route: {upstream: app}
              options: {security: {basicAuth: {users: {name: mine}}}}
        """));
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    assertThat(((ParseResult.Invalid) result).problems()).anySatisfy(p ->
        assertThat(p.field()).contains("basicAuth.users"));

    List<Problem> problems = new java.util.ArrayList<>();
    Optional<SecurityPolicySpec> spec = SecurityPolicySpec.parse(tree("""
        targetRefs: [{kind: Gateway, name: edge}]
        basicAuth: {users: {name: users, namespace: other}}
        """), problems);
    assertThat(problems).isEmpty();
    assertThat(spec.orElseThrow().security().secretRefs("team")).extracting(SecurityOptions.SecretReference::secret)
        .containsExactly(TlsSecretData.secretKey("other", "users"));
  }
}
