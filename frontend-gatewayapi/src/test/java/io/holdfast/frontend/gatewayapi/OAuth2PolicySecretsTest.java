package io.holdfast.frontend.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Route;
import io.holdfast.ir.Secret;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A SecurityPolicy's OAuth2 credentials in another namespace's Secret follow basic auth's rule: without a
 * ReferenceGrant there the policy is invalid (RefNotPermitted, the message basic auth's users get) and its routes
 * refuse every request; with one, the credentials are served as the policy's own generic secrets.
 */
class OAuth2PolicySecretsTest {

  private static final String CLIENT_SECRET = "team-idp-client-value";
  private static final String HMAC = "team-idp-hmac-value";
  private static final ResourceKey SSO = new ResourceKey(PolicyKinds.GROUP, PolicyKinds.SECURITY_POLICY, "web", "sso");
  private static final String UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: idp, namespace: web}
      spec:
        static:
          hosts: [{address: 127.0.0.1, port: 9443}]
      """;
  private static final String POLICY = """
      apiVersion: gateway.holdfast.io/v1
      kind: SecurityPolicy
      metadata: {name: sso, namespace: web}
      spec:
        targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: store}]
        oauth2:
          tokenEndpoint: {uri: "https://idp.test/token", upstream: idp}
          authorizationEndpoint: https://idp.test/authorize
          clientId: shop
          clientSecret: {name: sso, namespace: idp}
          hmacSecret: {name: sso, namespace: idp}
      """;
  private static final String BASIC = """
      apiVersion: gateway.holdfast.io/v1
      kind: SecurityPolicy
      metadata: {name: basic, namespace: web}
      spec:
        targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: other}]
        basicAuth: {users: {name: sso, namespace: idp}}
      """;
  private static final String GRANT = """
      apiVersion: gateway.networking.k8s.io/v1beta1
      kind: ReferenceGrant
      metadata: {name: sso-to-web, namespace: idp}
      spec:
        from: [{group: gateway.holdfast.io, kind: SecurityPolicy, namespace: web}]
        to: [{group: "", kind: Secret, name: sso}]
      """;

  private static IrBuilder.Result lower(String... more) {
    String[] docs = new String[5 + more.length];
    docs[0] = Fixtures.CLASS;
    docs[1] = Fixtures.gateway("web", "edge", "- {name: http, port: 8080, protocol: HTTP}");
    docs[2] = Fixtures.httpRoute("web", "store", "[{name: edge}]", "[store.test]", "[{name: store, port: 8080}]");
    docs[3] = Fixtures.httpRoute("web", "other", "[{name: edge}]", "[other.test]", "[{name: store, port: 8080}]");
    docs[4] = UPSTREAM;
    System.arraycopy(more, 0, docs, 5, more.length);
    GatewayConfig config = Fixtures.withSecretData(Fixtures.config(Fixtures.services("web/store:8080"), docs), "idp",
        "sso", Map.of("client-secret", CLIENT_SECRET, "hmac-secret", HMAC,
            ".htpasswd", "alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU="));
    // The token endpoint's cluster, as the pipeline adds Holdfast's Upstreams beside this front end's output.
    IrBuilder builder = new IrBuilder().add(new Cluster(Origin.of(ResourceKey.upstream("web", "idp")),
        Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false, List.of()));
    new GatewayApiFrontEnd(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME).lower(config, builder);
    return builder.build();
  }

  private static Route store(IrBuilder.Result result) {
    return Fixtures.host(result, Fixtures.gatewayKey("web", "edge"), 8080, "store.test").routes().get(0);
  }

  @Test
  void withoutAGrantThePolicyIsRefusedAsBasicAuthIsAndItsRoutesFailClosed() {
    IrBuilder.Result result = lower(POLICY, BASIC);
    assertThat(Fixtures.status(result, SSO).findings()).extracting(Finding::field, Finding::reason)
        .containsExactly(tuple("spec.oauth2.clientSecret", Reasons.REF_NOT_PERMITTED),
            tuple("spec.oauth2.hmacSecret", Reasons.REF_NOT_PERMITTED));
    ResourceKey basic = new ResourceKey(PolicyKinds.GROUP, PolicyKinds.SECURITY_POLICY, "web", "basic");
    assertThat(Fixtures.status(result, basic).findings()).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(Reasons.REF_NOT_PERMITTED);
      assertThat(Fixtures.status(result, SSO).findings()).extracting(Finding::message).containsOnly(f.message());
    });
    assertThat(store(result).security().oauth2()).isEmpty();
    assertThat(store(result).security().rbac()).isPresent();
    assertThat(result.ir().secrets()).isEmpty();
  }

  @Test
  void aGrantLetsThePolicyReadTheCredentialsWhichAreServedAsItsOwn() {
    IrBuilder.Result result = lower(POLICY, GRANT);
    assertThat(Fixtures.status(result, SSO).isAccepted()).isTrue();
    assertThat(Fixtures.status(result, SSO).findings()).isEmpty();
    assertThat(store(result).security().oauth2()).contains("web/sso");
    assertThat(result.ir().secrets()).extracting(Secret::name).containsExactly(
        "oauth2/SecurityPolicy/web/sso/client-secret", "oauth2/SecurityPolicy/web/sso/hmac-secret");
    assertThat(result.ir().secrets()).extracting(s -> ((Secret.Content.Generic) s.content()).value())
        .containsExactly(CLIENT_SECRET, HMAC);
    assertThat(result.statuses().toString()).doesNotContain(CLIENT_SECRET).doesNotContain(HMAC);
  }
}
