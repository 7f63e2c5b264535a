package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.CLASS;
import static io.holdfast.frontend.gatewayapi.Fixtures.GROUP;
import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static io.holdfast.frontend.gatewayapi.Fixtures.config;
import static io.holdfast.frontend.gatewayapi.Fixtures.gateway;
import static io.holdfast.frontend.gatewayapi.Fixtures.gatewayKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.listenerStatus;
import static io.holdfast.frontend.gatewayapi.Fixtures.lower;
import static io.holdfast.frontend.gatewayapi.Fixtures.parent;
import static io.holdfast.frontend.gatewayapi.Fixtures.services;
import static io.holdfast.frontend.gatewayapi.Fixtures.socket;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Listener.FilterChain;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.RouteAction.WeightedCluster;
import io.holdfast.ir.SectionStatus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * TLSRoute and TCPRoute conformance intents (and Holdfast's choices where the specification leaves them open):
 * TLS Passthrough listeners forward by SNI, TCP listeners forward every connection, both to Service clusters.
 */
class TlsTcpRouteConformanceTest {

  private static final ResourceKey GW = gatewayKey("infra", "gateway-tls");
  private static final String GATEWAY = gateway("infra", "gateway-tls", """
      - name: tls
        port: 8443
        protocol: TLS
        hostname: "*.example.test"
        tls: {mode: Passthrough}
        allowedRoutes: {namespaces: {from: All}}
      - name: tcp
        port: 9000
        protocol: TCP
        allowedRoutes: {namespaces: {from: All}}
      """);

  static String tlsRoute(String apiVersion, String namespace, String name, String hostnames, String backendRefs) {
    return """
        apiVersion: gateway.networking.k8s.io/%s
        kind: TLSRoute
        metadata: {name: %s, namespace: %s}
        spec:
          parentRefs: [{name: gateway-tls, namespace: infra, sectionName: tls}]
          hostnames: %s
          rules:
            - backendRefs: %s
        """.formatted(apiVersion, name, namespace, hostnames, backendRefs);
  }

  static String tcpRoute(String namespace, String name, String created, String backendRefs) {
    return """
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: TCPRoute
        metadata: {name: %s, namespace: %s, creationTimestamp: "%s"}
        spec:
          parentRefs: [{name: gateway-tls, namespace: infra, port: 9000}]
          rules:
            - backendRefs: %s
        """.formatted(name, namespace, created, backendRefs);
  }

  private static ResourceKey key(String kind, String namespace, String name) {
    return new ResourceKey(GROUP, kind, namespace, name);
  }

  private static ResourceKey service(String namespace, String nameAndPort) {
    return ResourceKey.core("Service", namespace, nameAndPort);
  }

  private static List<FilterChain.Tcp> chains(IrBuilder.Result result, int port) {
    return socket(result, GW, port).filterChains().stream().map(FilterChain.Tcp.class::cast).toList();
  }

  @Test
  void tlsRouteSimpleSameNamespace() {
    IrBuilder.Result result = lower(config(services("infra/tls-backend:443"), CLASS, GATEWAY,
        tlsRoute("v1alpha2", "infra", "gateway-conformance-infra-test", "[abc.example.test]",
            "[{name: tls-backend, port: 443}]")));
    ParentStatus parent = parent(result, key("TLSRoute", "infra", "gateway-conformance-infra-test"), GW);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs");
    assertThat(parent.section()).contains("tls");
    assertThat(chains(result, 8443)).singleElement().satisfies(chain -> {
      assertThat(chain.match().serverNames()).containsExactly("abc.example.test");
      assertThat(chain.tls()).isEmpty(); // passed through, not terminated
      assertThat(chain.clusters()).containsExactly(new WeightedCluster(service("infra", "tls-backend:443"), 1));
    });
    assertThat(socket(result, GW, 8443).inspectsTls()).isTrue();
    assertThat(result.ir().clusters()).extracting(c -> c.origin().object())
        .containsExactly(service("infra", "tls-backend:443"));
  }

  @Test
  void tlsRouteServedVersionsAreRead() {
    for (String version : List.of("v1", "v1alpha3", "v1alpha2")) {
      IrBuilder.Result result = lower(config(services("infra/tls-backend:443"), CLASS, GATEWAY,
          tlsRoute(version, "infra", "r", "[abc.example.test]", "[{name: tls-backend, port: 443}]")));
      assertThat(chains(result, 8443)).as(version).hasSize(1);
    }
    IrBuilder.Result unknown = lower(config(services("infra/tls-backend:443"), CLASS, GATEWAY,
        tlsRoute("v9", "infra", "r", "[abc.example.test]", "[{name: tls-backend, port: 443}]")));
    assertThat(unknown.statuses()).doesNotContainKey(key("TLSRoute", "infra", "r"));
  }

  @Test
  void tlsRouteHostnamesIntersectTheListenerHostname() {
    IrBuilder.Result result = lower(config(services("infra/tls-backend:443"), CLASS, GATEWAY,
        tlsRoute("v1alpha2", "infra", "wide", "[\"*.test\", other.test]", "[{name: tls-backend, port: 443}]"),
        tlsRoute("v1alpha2", "infra", "elsewhere", "[abc.other.test]", "[{name: tls-backend, port: 443}]")));
    assertThat(chains(result, 8443)).singleElement()
        .satisfies(chain -> assertThat(chain.match().serverNames()).containsExactly("*.example.test"));
    assertCondition(parent(result, key("TLSRoute", "infra", "elsewhere"), GW).conditions(), Condition.ACCEPTED,
        Condition.Status.FALSE, "NoMatchingListenerHostname");
  }

  @Test
  void tlsRouteInvalidReferenceGrant() {
    String grantOfAnotherKind = """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: reference-grant-wrong-kind, namespace: backend}
        spec:
          from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: infra}]
          to: [{group: "", kind: Service, name: tls-backend}]
        """;
    IrBuilder.Result result = lower(config(services("backend/tls-backend:443"), CLASS, GATEWAY, grantOfAnotherKind,
        tlsRoute("v1alpha2", "infra", "gateway-conformance-infra-test", "[abc.example.test]",
            "[{name: tls-backend, namespace: backend, port: 443}]")));
    ParentStatus parent = parent(result, key("TLSRoute", "infra", "gateway-conformance-infra-test"), GW);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.FALSE, "RefNotPermitted");
    assertThat(result.ir().listeners()).noneMatch(l -> l instanceof Listener.Socket s && s.port() == 8443);
    assertThat(result.ir().clusters()).isEmpty();
  }

  @Test
  void tlsRouteReferenceGrantLetsTheRouteCrossNamespaces() {
    String grant = """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: grant, namespace: backend}
        spec:
          from: [{group: gateway.networking.k8s.io, kind: TLSRoute, namespace: infra}]
          to: [{group: "", kind: Service}]
        """;
    IrBuilder.Result result = lower(config(services("backend/tls-backend:443", "infra/local:443"), CLASS, GATEWAY,
        grant, tlsRoute("v1alpha2", "infra", "r", "[abc.example.test]",
            "[{name: tls-backend, namespace: backend, port: 443, weight: 3}, {name: local, port: 443, weight: 1}]")));
    assertThat(chains(result, 8443)).singleElement().satisfies(chain -> assertThat(chain.clusters())
        .containsExactly(new WeightedCluster(service("backend", "tls-backend:443"), 3),
            new WeightedCluster(service("infra", "local:443"), 1)));
  }

  @Test
  void gatewayWithAttachedRoutesCountsTlsAndTcpRoutes() {
    IrBuilder.Result result = lower(config(services("infra/tls-backend:443", "infra/tcp-backend:9000"), CLASS,
        GATEWAY,
        tlsRoute("v1alpha2", "infra", "one", "[one.example.test]", "[{name: tls-backend, port: 443}]"),
        tlsRoute("v1", "infra", "two", "[two.example.test]", "[{name: tls-backend, port: 443}]"),
        tcpRoute("infra", "tcp", "2026-01-01T00:00:00Z", "[{name: tcp-backend, port: 9000}]")));
    SectionStatus tls = listenerStatus(result, GW, "tls");
    assertThat(tls.attachedRoutes()).isEqualTo(2);
    assertThat(tls.supportedKinds()).extracting(SectionStatus.GroupKind::kind).containsExactly("TLSRoute");
    SectionStatus tcp = listenerStatus(result, GW, "tcp");
    assertThat(tcp.attachedRoutes()).isEqualTo(1);
    assertThat(tcp.supportedKinds()).extracting(SectionStatus.GroupKind::kind).containsExactly("TCPRoute");
    assertThat(chains(result, 8443)).extracting(c -> c.match().serverNames())
        .containsExactlyInAnyOrder(List.of("one.example.test"), List.of("two.example.test"));
  }

  @Test
  void tcpRouteSimpleForwardsEveryConnectionOfTheListener() {
    IrBuilder.Result result = lower(config(services("infra/tcp-backend:9000"), CLASS, GATEWAY,
        tcpRoute("infra", "tcp", "2026-01-01T00:00:00Z", "[{name: tcp-backend, port: 9000}]")));
    assertCondition(parent(result, key("TCPRoute", "infra", "tcp"), GW).conditions(), Condition.ACCEPTED,
        Condition.Status.TRUE, "Accepted");
    assertThat(chains(result, 9000)).singleElement().satisfies(chain -> {
      assertThat(chain.match()).isEqualTo(Listener.ChainMatch.ANY);
      assertThat(chain.clusters()).containsExactly(new WeightedCluster(service("infra", "tcp-backend:9000"), 1));
    });
    assertThat(socket(result, GW, 9000).inspectsTls()).isFalse();
  }

  @Test
  void tcpRoutesOnOneListenerLeaveItToTheOldest() {
    IrBuilder.Result result = lower(config(services("infra/old:9000", "infra/young:9000"), CLASS, GATEWAY,
        tcpRoute("infra", "young", "2026-02-01T00:00:00Z", "[{name: young, port: 9000}]"),
        tcpRoute("infra", "old", "2026-01-01T00:00:00Z", "[{name: old, port: 9000}]")));
    assertCondition(parent(result, key("TCPRoute", "infra", "old"), GW).conditions(), Condition.ACCEPTED,
        Condition.Status.TRUE, "Accepted");
    Condition young = Fixtures.condition(parent(result, key("TCPRoute", "infra", "young"), GW).conditions(),
        Condition.ACCEPTED);
    assertThat(young.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(young.reason()).isEqualTo("NotAllowedByListeners");
    assertThat(young.message()).contains("infra/old");
    assertThat(chains(result, 9000)).singleElement().satisfies(chain -> assertThat(chain.clusters())
        .containsExactly(new WeightedCluster(service("infra", "old:9000"), 1)));
    assertThat(listenerStatus(result, GW, "tcp").attachedRoutes()).isEqualTo(1);
  }

  @Test
  void tcpRouteInvalidNonExistentBackendRefOpensNoSocket() {
    IrBuilder.Result result = lower(config(CLASS, GATEWAY,
        tcpRoute("infra", "tcp", "2026-01-01T00:00:00Z", "[{name: missing, port: 9000}]")));
    assertCondition(parent(result, key("TCPRoute", "infra", "tcp"), GW).conditions(), "ResolvedRefs",
        Condition.Status.FALSE, "BackendNotFound");
    assertThat(result.ir().listeners()).noneMatch(l -> l instanceof Listener.Socket s && s.port() == 9000);
  }

  @Test
  void tlsRouteOnAnHttpListenerIsNotAllowed() {
    String http = gateway("infra", "gateway-tls", "- {name: tls, port: 8080, protocol: HTTP}");
    IrBuilder.Result result = lower(config(services("infra/tls-backend:443"), CLASS, http,
        tlsRoute("v1alpha2", "infra", "r", "[abc.example.test]", "[{name: tls-backend, port: 443}]")));
    assertCondition(parent(result, key("TLSRoute", "infra", "r"), GW).conditions(), Condition.ACCEPTED,
        Condition.Status.FALSE, "NotAllowedByListeners");
  }

  @Test
  void tlsListenersThatWouldTerminateAndTlsBesideHttpsAreNotServed() {
    IrBuilder.Result result = lower(config(CLASS, gateway("infra", "gateway-tls", """
        - {name: terminate, port: 8443, protocol: TLS, tls: {mode: Terminate}}
        - {name: passthrough, port: 9443, protocol: TLS, tls: {mode: Passthrough}}
        - {name: https, port: 9443, protocol: HTTPS, hostname: web.example.test}
        - {name: tcp-a, port: 9000, protocol: TCP, hostname: a.example.test}
        - {name: tcp-b, port: 9000, protocol: TCP, hostname: b.example.test}
        """)));
    assertCondition(listenerStatus(result, GW, "terminate").conditions(), Condition.ACCEPTED,
        Condition.Status.FALSE, "UnsupportedValue");
    assertCondition(listenerStatus(result, GW, "passthrough").conditions(), "Conflicted", Condition.Status.FALSE,
        "NoConflicts");
    assertCondition(listenerStatus(result, GW, "https").conditions(), "Conflicted", Condition.Status.TRUE,
        "ProtocolConflict");
    assertCondition(listenerStatus(result, GW, "tcp-b").conditions(), "Conflicted", Condition.Status.TRUE,
        "HostnameConflict");
    assertThat(Optional.of(listenerStatus(result, GW, "passthrough").supportedKinds()))
        .contains(ListenerRules.TLS_KINDS);
  }
}
