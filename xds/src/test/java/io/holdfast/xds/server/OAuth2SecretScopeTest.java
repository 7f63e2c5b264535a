package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Any;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TlsSecretData;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.translate.Translator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenant isolation of OAuth2 credentials over real mutual TLS: a snapshot translated from two Gateways, one
 * (proxy {@code edge}) serving a VirtualService with an OAuth2 login, the other (proxy {@code other}) one without;
 * the login's client secret and HMAC key (SDS generic secrets) are served to {@code edge} and are absent for
 * {@code other}, asked for by the names {@code edge} is served (SotW and delta) or by an explicit {@code "*"}. A third Gateway (proxy {@code team}) serves a VirtualService of
 * namespace {@code team} whose login reads Secret {@code idp/shared-oauth} under a ReferenceGrant there: its
 * credentials go to {@code team} only. A fourth (proxy {@code rogue}) names the same Secret from namespace
 * {@code rogue} without a grant: refused (RefNotPermitted), so nothing of it is served to anyone.
 */
class OAuth2SecretScopeTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final TestPki.Issued CA = TestPki.ca("holdfast xDS CA");
  private static final String CLIENT_SECRET = "oauth2/VirtualService/default/portal/client-secret";
  private static final String HMAC = "oauth2/VirtualService/default/portal/hmac-secret";
  private static final String TEAM_CLIENT_SECRET = "oauth2/VirtualService/team/shared/client-secret";
  private static final String TEAM_HMAC = "oauth2/VirtualService/team/shared/hmac-secret";
  private static final String ROGUE_CLIENT_SECRET = "oauth2/VirtualService/rogue/shared/client-secret";
  private static final String ROGUE_HMAC = "oauth2/VirtualService/rogue/shared/hmac-secret";

  @TempDir
  Path dir;

  private final XdsCache cache = new XdsCache();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  private XdsServer server;

  @BeforeEach
  void serve() {
    cache.setSnapshot(new Translator().translate(HoldfastFrontEnd.lowerAccepted(config().accepted())).snapshot());
    server = track(ProxyIdentityServer.start(CA, cache, dir, meters, nack -> { })).server();
  }

  @AfterEach
  void tearDown() throws Exception {
    while (!open.isEmpty()) {
      open.pop().close();
    }
  }

  @Test
  void theLoginsProxyFetchesItsCredentials() {
    MtlsAdsClient edge = proxy("edge");
    edge.ask(TypeUrls.SECRET, CLIENT_SECRET, HMAC);
    DiscoveryResponse response = first(edge, TypeUrls.SECRET);
    assertThat(names(response)).containsExactlyInAnyOrder(CLIENT_SECRET, HMAC);
    assertThat(response.getResourcesList()).allSatisfy(any -> assertThat(unpack(any).hasGenericSecret()).isTrue());
  }

  /**
   * Asked BY NAME for exactly the names {@code edge} is served, {@code other} gets none of them, over SotW (also
   * by explicit wildcard) and delta, and its stream stays usable.
   */
  @Test
  void anotherProxyCannotFetchThem() {
    String[] edgeNames = servedTo(proxy("edge"), CLIENT_SECRET, HMAC);

    MtlsAdsClient other = proxy("other");
    other.ask(TypeUrls.SECRET, edgeNames);
    DiscoveryResponse byName = first(other, TypeUrls.SECRET);
    assertThat(byName.getResourcesCount()).isZero();
    assertThat(meters.get("holdfast.xds.refused.resources").tag("type", "Secret").counter().count())
        .isEqualTo(2.0);
    // An explicit "*" is a real wildcard (unlike an empty name list): still none of edge's.
    other.askAfter(byName, "*");
    await().atMost(WAIT).until(() -> other.sotwResponses(TypeUrls.SECRET).size() > 1
        || other.sotwFailure().isPresent());
    assertThat(other.sotwFailure()).isEmpty();
    assertThat(other.sotwResponses(TypeUrls.SECRET).get(1).getResourcesCount()).isZero();
    // The same stream still answers: not the identity provider's cluster the login's token requests go through.
    other.ask(TypeUrls.CLUSTER);
    assertThat(names(first(other, TypeUrls.CLUSTER))).containsExactly("default/app");

    other.subscribe(TypeUrls.SECRET, edgeNames);
    await().atMost(WAIT).until(() -> !other.deltaResponses(TypeUrls.SECRET).isEmpty()
        || other.deltaFailure().isPresent());
    assertThat(other.deltaFailure()).isEmpty();
    assertThat(other.deltaResponses(TypeUrls.SECRET).get(0).getResourcesList()).isEmpty();
    assertThat(other.deltaResponses(TypeUrls.SECRET).get(0).getRemovedResourcesList())
        .containsExactlyInAnyOrder(edgeNames);
  }

  /**
   * Not a scoping proof: a SotW Secret request without names asks for nothing (only LDS and CDS read an empty
   * list as wildcard), so even the login's own proxy is sent no secret for it.
   */
  @Test
  void anUnnamedSecretRequestYieldsNothingEvenToTheOwningProxy() {
    MtlsAdsClient edge = proxy("edge");
    edge.ask(TypeUrls.SECRET);
    assertThat(first(edge, TypeUrls.SECRET).getResourcesCount()).isZero();
  }

  @Test
  void aGrantedCrossNamespaceSecretIsServedToItsOwnProxyOnly() {
    MtlsAdsClient team = proxy("team");
    team.ask(TypeUrls.SECRET, TEAM_CLIENT_SECRET, TEAM_HMAC);
    DiscoveryResponse response = first(team, TypeUrls.SECRET);
    assertThat(names(response)).containsExactlyInAnyOrder(TEAM_CLIENT_SECRET, TEAM_HMAC);
    assertThat(response.getResourcesList()).extracting(any -> unpack(any).getGenericSecret().getSecret()
        .getInlineString()).containsExactlyInAnyOrder("team-client-secret", "team-hmac-key");
    String[] teamNames = names(response).toArray(String[]::new);

    MtlsAdsClient edge = proxy("edge");
    edge.ask(TypeUrls.SECRET, teamNames);
    assertThat(first(edge, TypeUrls.SECRET).getResourcesCount()).isZero();
    // Nor the proxy of the namespace whose VirtualService names the same Secret without a grant.
    MtlsAdsClient rogue = proxy("rogue");
    rogue.ask(TypeUrls.SECRET, teamNames);
    assertThat(first(rogue, TypeUrls.SECRET).getResourcesCount()).isZero();
  }

  /**
   * The ungranted login's names exist nowhere, so asking for them proves little on its own; what proves it is
   * that idp/shared-oauth's values are in the snapshot only under the granted login's names, which the rogue
   * proxy is refused by name (above).
   */
  @Test
  void anUngrantedCrossNamespaceSecretIsServedToNobody() {
    Map<String, String> holdingSharedValues = new TreeMap<>();
    cache.currentSnapshot().orElseThrow().ofType(TypeUrls.SECRET).forEach((name, message) -> {
      String value = ((Secret) message).getGenericSecret().getSecret().getInlineString();
      if (value.equals("team-client-secret") || value.equals("team-hmac-key")) {
        holdingSharedValues.put(name, value);
      }
    });
    assertThat(holdingSharedValues).containsOnlyKeys(TEAM_CLIENT_SECRET, TEAM_HMAC);

    MtlsAdsClient rogue = proxy("rogue");
    rogue.ask(TypeUrls.SECRET, ROGUE_CLIENT_SECRET, ROGUE_HMAC);
    assertThat(first(rogue, TypeUrls.SECRET).getResourcesCount()).isZero();
    MtlsAdsClient team = proxy("team");
    team.ask(TypeUrls.SECRET, ROGUE_CLIENT_SECRET);
    assertThat(first(team, TypeUrls.SECRET).getResourcesCount()).isZero();
  }

  /** Asks {@code owner} for {@code names}; returns the names it was served, checked to be all of them. */
  private static String[] servedTo(MtlsAdsClient owner, String... names) {
    owner.ask(TypeUrls.SECRET, names);
    List<String> served = names(first(owner, TypeUrls.SECRET));
    assertThat(served).containsExactlyInAnyOrder(names);
    return served.toArray(String[]::new);
  }

  private static ValidationResult config() {
    GatewayConfig config = TestManifests.config(
        TestManifests.upstream("app", 9101),
        TestManifests.upstream("idp", 9443),
        """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: portal}
        spec:
          domains: [portal.test]
          options:
            security:
              oauth2:
                tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp}
                authorizationEndpoint: https://idp.test/authorize
                clientId: portal
                clientSecret: {name: portal-oauth}
                hmacSecret: {name: portal-oauth}
          routes: [{match: {prefix: /}, route: {upstream: app}}]
        """,
        """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: public}
        spec:
          domains: [public.test]
          routes: [{match: {prefix: /}, route: {upstream: app}}]
        """,
        """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec: {port: 8080, virtualServices: [{name: portal}], proxyNames: [edge]}
        """,
        """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: other}
        spec: {port: 8081, virtualServices: [{name: public}], proxyNames: [other]}
        """,
        shared("team"), shared("rogue"),
        """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: team, namespace: team}
        spec: {port: 8082, virtualServices: [{name: shared}], proxyNames: [team]}
        """,
        """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: rogue, namespace: rogue}
        spec: {port: 8083, virtualServices: [{name: shared}], proxyNames: [rogue]}
        """,
        """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: oauth-to-team, namespace: idp}
        spec:
          from: [{group: gateway.holdfast.io, kind: VirtualService, namespace: team}]
          to: [{group: "", kind: Secret, name: shared-oauth}]
        """).toBuilder()
        .secret(TlsSecretData.secretKey("default", "portal-oauth"), new TlsSecretData(new TreeMap<>(Map.of(
            "client-secret", "portal-client-secret", "hmac-secret", "portal-hmac-key"))))
        .secret(TlsSecretData.secretKey("idp", "shared-oauth"), new TlsSecretData(new TreeMap<>(Map.of(
            "client-secret", "team-client-secret", "hmac-secret", "team-hmac-key"))))
        .build();
    ValidationResult result = new Validator().validate(config);
    ResourceKey rogue = ResourceKey.virtualService("rogue", "shared");
    assertThat(result.statuses().values()).filteredOn(s -> !s.key().equals(rogue))
        .allMatch(s -> s.isServed(), "all served");
    assertThat(result.status(rogue).isServed()).isFalse();
    assertThat(result.status(rogue).problems()).extracting(Problem::field, Problem::reason).contains(
        tuple("spec.options.security.oauth2.clientSecret", Reasons.REF_NOT_PERMITTED),
        tuple("spec.options.security.oauth2.hmacSecret", Reasons.REF_NOT_PERMITTED));
    return result;
  }

  /** A VirtualService of {@code namespace} whose login reads Secret idp/shared-oauth. */
  private static String shared(String namespace) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shared, namespace: %s}
        spec:
          domains: [%s.test]
          options:
            security:
              oauth2:
                tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp, namespace: default}
                authorizationEndpoint: https://idp.test/authorize
                clientId: %s
                clientSecret: {name: shared-oauth, namespace: idp}
                hmacSecret: {name: shared-oauth, namespace: idp}
          routes: [{match: {prefix: /}, route: {upstream: app, namespace: default}}]
        """.formatted(namespace, namespace, namespace);
  }

  private MtlsAdsClient proxy(String name) {
    return track(new MtlsAdsClient(server.port(), CA.certificate(), ProxyCertificates.client(CA,
        "CN=ignored-when-spiffe", "spiffe://holdfast.local/proxy/" + name)));
  }

  private static DiscoveryResponse first(MtlsAdsClient client, String typeUrl) {
    await().atMost(WAIT).until(() -> !client.sotwResponses(typeUrl).isEmpty() || client.sotwFailure().isPresent());
    assertThat(client.sotwFailure()).isEmpty();
    return client.sotwResponses(typeUrl).get(0);
  }

  private static List<String> names(DiscoveryResponse response) {
    return response.getResourcesList().stream().map(Resources::getResourceName).toList();
  }

  private static Secret unpack(Any any) {
    try {
      return any.unpack(Secret.class);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.push(closeable);
    return closeable;
  }
}
