package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Htpasswd;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecretChecks;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.frontend.options.BasicAuthLowering;
import io.holdfast.frontend.options.SecretLookup;
import io.holdfast.frontend.options.SecurityOptionsLowering;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.Route;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Basic authentication and key sets from Secrets on Holdfast's kinds: each refusal with its named reason and path,
 * the users lowered into the chain (never shown by the IR's text), route opt-out, and fail closed in lowering.
 */
class BasicAuthRulesTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");
  private static final String ALICE = "alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=";
  private static final String PLAIN = "[{match: {prefix: /}, route: {upstream: up}}]";

  private static String secret(String namespace, String name, String key, String value) {
    return """
        apiVersion: v1
        kind: Secret
        metadata: {name: %s, namespace: %s}
        type: Opaque
        stringData: {"%s": "%s"}
        """.formatted(name, namespace, key, value.replace("\n", "\\n"));
  }

  private static ValidationResult validate(String security, String routes, String... more) {
    String[] docs = new String[3 + more.length];
    docs[0] = TestManifests.upstream("up", 9101);
    docs[1] = """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec: {port: 8080}
        """;
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

  static Stream<Arguments> badValues() {
    String vs = "spec.options.security.";
    return Stream.of(
        Arguments.of("{basicAuth: {users: {name: users}}}", new String[0], vs + "basicAuth.users",
            Reasons.SECRET_NOT_FOUND),
        Arguments.of("{basicAuth: {users: {name: users}}}", new String[] {secret("default", "users", "htpasswd",
            ALICE)}, vs + "basicAuth.users", SecretChecks.SECRET_ENTRY_NOT_FOUND),
        Arguments.of("{basicAuth: {users: {name: users}}}", new String[] {secret("default", "users", ".htpasswd",
            "bob:$apr1$x$y")}, vs + "basicAuth.users", Htpasswd.UNSUPPORTED_HASH_FORMAT),
        Arguments.of("{basicAuth: {users: {name: users}}}", new String[] {secret("default", "users", ".htpasswd",
            "# nobody\n")}, vs + "basicAuth.users", Htpasswd.EMPTY_USERS),
        Arguments.of("{basicAuth: {users: {name: users}}}", new String[] {secret("default", "users", ".htpasswd",
            "bob")}, vs + "basicAuth.users", Htpasswd.INVALID_HTPASSWD),
        Arguments.of("{basicAuth: {users: {name: users, namespace: other}}}", new String[] {secret("other", "users",
            ".htpasswd", ALICE)}, vs + "basicAuth.users", Reasons.REF_NOT_PERMITTED),
        Arguments.of("{basicAuth: {}}", new String[0], vs + "basicAuth.users", Reasons.MISSING_FIELD),
        Arguments.of("{jwtProviders: [{name: a, issuer: i, localJwks: {secretRef: {name: keys}}}], jwt: {providers:"
            + " [a]}}", new String[] {secret("default", "keys", "jwks", "{}")},
            vs + "jwtProviders[0].localJwks.secretRef", SecurityChecks.INVALID_JWKS));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void aBadValueIsRejectedWithItsReason(String security, String[] more, String field, String reason) {
    ValidationResult result = validate(security, PLAIN, more);
    assertThat(result.status(VS).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .contains(tuple(field, reason));
    assertThat(result.status(VS).toString()).doesNotContain("g2YDYHBhl9R").doesNotContain("$apr1$x");
  }

  @Test
  void aReferenceGrantLetsAVirtualServiceReadAnotherNamespacesUsers() {
    ValidationResult result = validate("{basicAuth: {users: {name: users, namespace: other}}}", PLAIN,
        secret("other", "users", ".htpasswd", ALICE), """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: users, namespace: other}
        spec:
          from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: default}]
          to: [{group: "", kind: Secret, name: users}]
        """);
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Listener.FilterChain.Http chain = (Listener.FilterChain.Http) ir.listeners().get(0).filterChains().get(0);
    assertThat(chain.security().basicAuth()).singleElement()
        .satisfies(users -> assertThat(users.htpasswd()).isEqualTo(ALICE + "\n"));
  }

  @Test
  void theUsersReachTheChainRoutesMayOptOutAndTheIrTextNeverShowsThem() {
    ValidationResult result = validate("{basicAuth: {users: {name: users}, forwardUsernameHeader: x-user}}", """
        [{match: {prefix: /open}, route: {upstream: up}, options: {security: {basicAuth: {disabled: true}}}},
         {match: {prefix: /}, route: {upstream: up}}]""", secret("default", "users", ".htpasswd", ALICE));
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Listener.FilterChain.Http chain = (Listener.FilterChain.Http) ir.listeners().get(0).filterChains().get(0);
    assertThat(chain.security().basicAuth()).containsExactly(new ListenerSecurity.BasicAuthUsers("default/web",
        ALICE + "\n", Optional.of("x-user")));
    List<Route> routes = chain.virtualHosts().get(0).routes();
    assertThat(routes.get(0).security().basicAuth()).isEmpty();
    assertThat(routes.get(1).security().basicAuth()).contains("default/web");
    assertThat(ir.toString()).contains("BasicAuthUsers[name=default/web").doesNotContain("g2YDYHBhl9R");
  }

  /** What validation reports but a last-good object may outlive: the lowering refuses rather than serves. */
  @Test
  void secretsThatCannotBeReadFailClosedInLowering() {
    SecurityOptions options = new SecurityOptions(List.of(new SecurityOptions.JwtProvider("a", "i", List.of(),
        Optional.empty(), Optional.of(new SecurityOptions.LocalJwks(Optional.empty(), Optional.empty(),
        Optional.of(new SecurityOptions.SecretKeyRef(io.holdfast.api.ObjectRef.of("keys"), "jwks")))), List.of(),
        List.of(), List.of(), List.of(), false)), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.of(new SecurityOptions.BasicAuth(Optional.of(new SecurityOptions.SecretKeyRef(
            io.holdfast.api.ObjectRef.of("users"), ".htpasswd")), Optional.empty(), false)));
    ListenerSecurity.BasicAuthUsers users = BasicAuthLowering.users(VS, options, SecretLookup.NONE).orElseThrow();
    assertThat(Htpasswd.parse(users.htpasswd()).refusal()).hasValueSatisfying(r ->
        assertThat(r.reason()).isEqualTo(Htpasswd.EMPTY_USERS));
    assertThat(users.htpasswd()).isNotBlank();
    assertThat(BasicAuthLowering.users(VS, options, (secret, entry) -> Optional.of("bob:$apr1$x$y")).orElseThrow()
        .htpasswd()).isEqualTo(users.htpasswd());
    ListenerSecurity.Jwks jwks = SecurityOptionsLowering.providers(VS, options, SecretLookup.NONE).get(0).jwks();
    assertThat(((ListenerSecurity.InlineJwks) jwks).json()).isEqualTo("{\"keys\":[]}");
  }
}
