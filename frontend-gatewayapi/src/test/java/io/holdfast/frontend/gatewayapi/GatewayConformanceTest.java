package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.CLASS;
import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static io.holdfast.frontend.gatewayapi.Fixtures.config;
import static io.holdfast.frontend.gatewayapi.Fixtures.gateway;
import static io.holdfast.frontend.gatewayapi.Fixtures.gatewayKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.listenerStatus;
import static io.holdfast.frontend.gatewayapi.Fixtures.lower;
import static io.holdfast.frontend.gatewayapi.Fixtures.socket;
import static io.holdfast.frontend.gatewayapi.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.Condition;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Secret;
import io.holdfast.ir.SectionStatus;
import io.holdfast.ir.SectionStatus.GroupKind;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Gateway conformance intents: listeners, their TLS and route kinds, conflicts, and the Gateway's status. */
class GatewayConformanceTest {

  private static final String HTTPS_LISTENER = """
      - name: https
        port: 8443
        protocol: HTTPS
        hostname: secure.example.test
        tls:
          certificateRefs: [%s]
      """;

  @Test
  void gatewayObservedGenerationBump() {
    String yaml = gateway("infra", "edge", "- {name: http, port: 8080, protocol: HTTP}");
    ObjectNode body = (ObjectNode) TestManifests.tree(yaml);
    GatewayConfig base = config(CLASS);
    for (long generation : new long[] {1, 3}) {
      GatewayConfig config = base.toBuilder().add(new ApiObject(gatewayKey("infra", "edge"), generation, body))
          .build();
      ObjectStatus status = status(lower(config), gatewayKey("infra", "edge"));
      assertThat(status.conditions()).extracting(Condition::observedGeneration).containsOnly(generation);
      assertThat(status.sections()).flatExtracting(SectionStatus::conditions)
          .extracting(Condition::observedGeneration).containsOnly(generation);
    }
  }

  @Test
  void gatewayHttpListenerIsProgrammedOnItsPort() {
    IrBuilder.Result result = lower(config(CLASS, gateway("infra", "edge", """
        - {name: http, port: 8080, protocol: HTTP}
        - {name: other, port: 9090, protocol: HTTP, hostname: other.example.test}
        """)));
    ObjectStatus status = status(result, gatewayKey("infra", "edge"));
    assertCondition(status.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertCondition(status.conditions(), "Programmed", Condition.Status.TRUE, "Programmed");
    SectionStatus http = listenerStatus(result, gatewayKey("infra", "edge"), "http");
    assertCondition(http.conditions(), "Accepted", Condition.Status.TRUE, "Accepted");
    assertCondition(http.conditions(), "Programmed", Condition.Status.TRUE, "Programmed");
    assertCondition(http.conditions(), "ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs");
    assertCondition(http.conditions(), "Conflicted", Condition.Status.FALSE, "NoConflicts");
    assertThat(http.supportedKinds()).containsExactly(new GroupKind(Fixtures.GROUP, "HTTPRoute"),
        new GroupKind(Fixtures.GROUP, "GRPCRoute"));
    assertThat(http.attachedRoutes()).isZero();
    assertThat(socket(result, gatewayKey("infra", "edge"), 8080).address()).isEqualTo("0.0.0.0");
    assertThat(socket(result, gatewayKey("infra", "edge"), 9090).filterChains()).hasSize(1);
  }

  @Test
  void gatewayInvalidTLSConfiguration() {
    GatewayConfig config = config(CLASS,
        gateway("infra", "missing", HTTPS_LISTENER.formatted("{name: absent}")),
        gateway("infra", "malformed", HTTPS_LISTENER.formatted("{name: malformed}")),
        gateway("infra", "wrong-kind", HTTPS_LISTENER.formatted("{group: example.test, kind: Vault, name: x}")),
        gateway("infra", "no-refs", HTTPS_LISTENER.formatted("")));
    config = Fixtures.withSecretData(config, "infra", "malformed",
        Map.of(TlsSecretData.TLS_CRT, "not a certificate", TlsSecretData.TLS_KEY, "not a key"));
    IrBuilder.Result result = lower(config);
    for (String name : List.of("missing", "malformed", "wrong-kind", "no-refs")) {
      SectionStatus https = listenerStatus(result, gatewayKey("infra", name), "https");
      assertCondition(https.conditions(), "ResolvedRefs", Condition.Status.FALSE, "InvalidCertificateRef");
      assertCondition(https.conditions(), "Programmed", Condition.Status.FALSE, "Invalid");
      assertCondition(status(result, gatewayKey("infra", name)).conditions(), "Programmed", Condition.Status.FALSE,
          "Invalid");
    }
    assertThat(result.ir().listeners()).isEmpty();
    assertThat(result.ir().secrets()).isEmpty();
  }

  @Test
  void gatewayHttpsListenerTerminatesTlsWithItsSecret() {
    GatewayConfig config = Fixtures.withTlsSecret(config(CLASS,
        gateway("infra", "edge", HTTPS_LISTENER.formatted("{name: cert}"))), "infra", "cert", "secure.example.test");
    IrBuilder.Result result = lower(config);
    assertCondition(listenerStatus(result, gatewayKey("infra", "edge"), "https").conditions(), "Programmed",
        Condition.Status.TRUE, "Programmed");
    Listener.Socket socket = socket(result, gatewayKey("infra", "edge"), 8443);
    assertThat(socket.filterChains()).singleElement().satisfies(chain -> {
      assertThat(chain.match().serverNames()).containsExactly("secure.example.test");
      assertThat(chain.tls()).hasValueSatisfying(tls ->
          assertThat(tls.certificate()).isEqualTo("gateway-api/secret/infra/cert"));
    });
    assertThat(result.ir().secrets()).singleElement().satisfies(secret -> {
      assertThat(secret.name()).isEqualTo("gateway-api/secret/infra/cert");
      assertThat(secret.content()).isInstanceOf(Secret.Content.CertificateAndKey.class);
    });
  }

  private static final String CROSS_NAMESPACE_CERT = "{namespace: certs, name: shared}";

  @Test
  void gatewaySecretMissingReferenceGrant() {
    GatewayConfig config = Fixtures.withTlsSecret(config(CLASS,
        gateway("infra", "edge", HTTPS_LISTENER.formatted(CROSS_NAMESPACE_CERT))), "certs", "shared",
        "secure.example.test");
    IrBuilder.Result result = lower(config);
    SectionStatus https = listenerStatus(result, gatewayKey("infra", "edge"), "https");
    assertCondition(https.conditions(), "ResolvedRefs", Condition.Status.FALSE, "RefNotPermitted");
    assertCondition(https.conditions(), "Programmed", Condition.Status.FALSE, "Invalid");
    assertThat(result.ir().listeners()).isEmpty();
  }

  @Test
  void gatewaySecretInvalidReferenceGrant() {
    GatewayConfig config = Fixtures.withTlsSecret(config(CLASS,
        gateway("infra", "edge", HTTPS_LISTENER.formatted(CROSS_NAMESPACE_CERT)), """
            apiVersion: gateway.networking.k8s.io/v1beta1
            kind: ReferenceGrant
            metadata: {name: wrong-from, namespace: certs}
            spec:
              from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: elsewhere}]
              to: [{group: "", kind: Secret}]
            """), "certs", "shared", "secure.example.test");
    SectionStatus https = listenerStatus(lower(config), gatewayKey("infra", "edge"), "https");
    assertCondition(https.conditions(), "ResolvedRefs", Condition.Status.FALSE, "RefNotPermitted");
  }

  @Test
  void gatewaySecretReferenceGrantAllInNamespace() {
    assertGrantLetsTheCertificateIn("to: [{group: \"\", kind: Secret}]");
  }

  @Test
  void gatewaySecretReferenceGrantSpecific() {
    assertGrantLetsTheCertificateIn("to: [{group: \"\", kind: Secret, name: shared}]");
  }

  private static void assertGrantLetsTheCertificateIn(String to) {
    GatewayConfig config = Fixtures.withTlsSecret(config(CLASS,
        gateway("infra", "edge", HTTPS_LISTENER.formatted(CROSS_NAMESPACE_CERT)), """
            apiVersion: gateway.networking.k8s.io/v1beta1
            kind: ReferenceGrant
            metadata: {name: gateways, namespace: certs}
            spec:
              from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: infra}]
              %s
            """.formatted(to)), "certs", "shared", "secure.example.test");
    IrBuilder.Result result = lower(config);
    SectionStatus https = listenerStatus(result, gatewayKey("infra", "edge"), "https");
    assertCondition(https.conditions(), "ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs");
    assertCondition(https.conditions(), "Programmed", Condition.Status.TRUE, "Programmed");
    assertThat(result.ir().secrets()).extracting(Secret::name).containsExactly("gateway-api/secret/certs/shared");
  }

  @Test
  void gatewayInvalidRouteKind() {
    IrBuilder.Result result = lower(config(CLASS, gateway("infra", "edge", """
        - name: only-invalid
          port: 8080
          protocol: HTTP
          allowedRoutes:
            kinds: [{kind: FooRoute}]
        - name: mixed
          port: 8081
          protocol: HTTP
          allowedRoutes:
            kinds: [{kind: FooRoute}, {kind: HTTPRoute}]
        """)));
    SectionStatus invalid = listenerStatus(result, gatewayKey("infra", "edge"), "only-invalid");
    assertThat(invalid.supportedKinds()).isEmpty();
    assertCondition(invalid.conditions(), "ResolvedRefs", Condition.Status.FALSE, "InvalidRouteKinds");
    assertCondition(invalid.conditions(), "Programmed", Condition.Status.FALSE, "Invalid");
    SectionStatus mixed = listenerStatus(result, gatewayKey("infra", "edge"), "mixed");
    assertThat(mixed.supportedKinds()).containsExactly(new GroupKind(Fixtures.GROUP, "HTTPRoute"));
    assertCondition(mixed.conditions(), "ResolvedRefs", Condition.Status.FALSE, "InvalidRouteKinds");
    ObjectStatus status = status(result, gatewayKey("infra", "edge"));
    assertCondition(status.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "ListenersNotValid");
  }

  @Test
  void gatewayUnsupportedProtocolListenerIsNotAccepted() {
    IrBuilder.Result result = lower(config(CLASS, gateway("infra", "edge", """
        - {name: udp, port: 5353, protocol: UDP}
        """)));
    SectionStatus udp = listenerStatus(result, gatewayKey("infra", "edge"), "udp");
    assertCondition(udp.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "UnsupportedProtocol");
    ObjectStatus status = status(result, gatewayKey("infra", "edge"));
    assertCondition(status.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "ListenersNotValid");
    assertCondition(status.conditions(), "Programmed", Condition.Status.FALSE, "Invalid");
    assertThat(result.ir().listeners()).isEmpty();
  }

  @Test
  void gatewayListenerOnAPortAnOlderHoldfastGatewayHoldsIsNotProgrammed() {
    ResourceKey holdfast = ResourceKey.gateway("web", "legacy");
    IrBuilder builder = new IrBuilder();
    builder.status(ObjectStatus.of(holdfast, 1, List.of()), Optional.of(Instant.parse("2026-01-01T00:00:00Z")));
    builder.add(new Listener.Socket(Origin.of(holdfast), "::", 8080, List.of(new Listener.FilterChain.Http(
        Origin.of(holdfast), "http", Listener.ChainMatch.ANY, Optional.empty(), List.of()))));
    new GatewayApiFrontEnd(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME).lower(config(CLASS, gateway("infra", "edge",
        """
        - {name: taken, port: 8080, protocol: HTTP}
        - {name: free, port: 8081, protocol: HTTP}
        """)), builder);
    IrBuilder.Result result = builder.build();
    SectionStatus taken = listenerStatus(result, gatewayKey("infra", "edge"), "taken");
    assertCondition(taken.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "PortUnavailable");
    assertCondition(taken.conditions(), "Programmed", Condition.Status.FALSE, "Invalid");
    assertThat(taken.conditions().get(0).message()).contains("Gateway/web/legacy");
    assertCondition(listenerStatus(result, gatewayKey("infra", "edge"), "free").conditions(), "Programmed",
        Condition.Status.TRUE, "Programmed");
    assertThat(result.ir().listeners()).extracting(Listener::origin).extracting(Origin::object)
        .containsExactlyInAnyOrder(holdfast, gatewayKey("infra", "edge"));
    assertThat(status(result, holdfast).isAccepted()).isTrue();
  }

  @Test
  void gatewaysSharingAPortLeaveItToTheOlder() {
    IrBuilder.Result result = lower(config(CLASS, """
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: young, namespace: infra, creationTimestamp: "2026-02-01T00:00:00Z"}
        spec:
          gatewayClassName: holdfast
          listeners:
            - {name: http, port: 8080, protocol: HTTP}
            - {name: own, port: 8081, protocol: HTTP}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: old, namespace: infra, creationTimestamp: "2026-01-01T00:00:00Z"}
        spec:
          gatewayClassName: holdfast
          listeners:
            - {name: http, port: 8080, protocol: HTTP}
        """));
    SectionStatus lost = listenerStatus(result, gatewayKey("infra", "young"), "http");
    assertCondition(lost.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "PortUnavailable");
    assertThat(lost.conditions().get(0).message()).contains("Gateway.gateway.networking.k8s.io/infra/old");
    assertCondition(listenerStatus(result, gatewayKey("infra", "young"), "own").conditions(), "Programmed",
        Condition.Status.TRUE, "Programmed");
    assertCondition(listenerStatus(result, gatewayKey("infra", "old"), "http").conditions(), "Programmed",
        Condition.Status.TRUE, "Programmed");
    assertThat(status(result, gatewayKey("infra", "young")).isAccepted()).isTrue();
    assertThat(socket(result, gatewayKey("infra", "old"), 8080)).isNotNull();
    assertThat(socket(result, gatewayKey("infra", "young"), 8081)).isNotNull();
  }

  @Test
  void gatewayConflictedListeners() {
    GatewayConfig config = Fixtures.withTlsSecret(config(CLASS, gateway("infra", "edge", """
        - {name: first, port: 8080, protocol: HTTP, hostname: a.example.test}
        - {name: same-host, port: 8080, protocol: HTTP, hostname: a.example.test}
        - name: tls-on-http-port
          port: 8080
          protocol: HTTPS
          tls: {certificateRefs: [{name: cert}]}
        - {name: fine, port: 8080, protocol: HTTP, hostname: b.example.test}
        """)), "infra", "cert", "a.example.test");
    IrBuilder.Result result = lower(config);
    ObjectStatus status = status(result, gatewayKey("infra", "edge"));
    assertCondition(listenerStatus(result, status.key(), "first").conditions(), "Conflicted",
        Condition.Status.TRUE, "HostnameConflict");
    assertCondition(listenerStatus(result, status.key(), "same-host").conditions(), "Conflicted",
        Condition.Status.TRUE, "HostnameConflict");
    assertCondition(listenerStatus(result, status.key(), "tls-on-http-port").conditions(), "Conflicted",
        Condition.Status.TRUE, "ProtocolConflict");
    assertCondition(listenerStatus(result, status.key(), "fine").conditions(), "Programmed",
        Condition.Status.TRUE, "Programmed");
    assertCondition(listenerStatus(result, status.key(), "same-host").conditions(), "Programmed",
        Condition.Status.FALSE, "Invalid");
    assertThat(socket(result, status.key(), 8080).filterChains()).singleElement()
        .satisfies(chain -> assertThat(chain.tls()).isEmpty());
  }
}
