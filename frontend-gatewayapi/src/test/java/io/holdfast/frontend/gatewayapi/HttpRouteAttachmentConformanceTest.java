package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.CLASS;
import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static io.holdfast.frontend.gatewayapi.Fixtures.config;
import static io.holdfast.frontend.gatewayapi.Fixtures.gateway;
import static io.holdfast.frontend.gatewayapi.Fixtures.gatewayKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.host;
import static io.holdfast.frontend.gatewayapi.Fixtures.httpRoute;
import static io.holdfast.frontend.gatewayapi.Fixtures.httpRouteKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.listenerStatus;
import static io.holdfast.frontend.gatewayapi.Fixtures.lower;
import static io.holdfast.frontend.gatewayapi.Fixtures.parent;
import static io.holdfast.frontend.gatewayapi.Fixtures.services;
import static io.holdfast.frontend.gatewayapi.Fixtures.socket;
import static io.holdfast.frontend.gatewayapi.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Condition;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.VirtualHost;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * HTTPRoute conformance intents about attachment (parentRefs, allowedRoutes, hostnames), backend resolution and
 * statuses: each test lowers YAML through the front end into an IR builder and checks the IR and the statuses.
 */
class HttpRouteAttachmentConformanceTest {

  private static final ResourceKey SAME = gatewayKey("infra", "same-namespace");
  private static final ResourceKey ALL = gatewayKey("infra", "all-namespaces");
  private static final String GATEWAYS = gateway("infra", "same-namespace",
      "- {name: http, port: 8080, protocol: HTTP}") + "---\n" + gateway("infra", "all-namespaces", """
      - name: http
        port: 8081
        protocol: HTTP
        allowedRoutes: {namespaces: {from: All}}
      """);
  private static final String SAME_PARENT = "[{name: same-namespace}]";
  private static final String INFRA_BACKEND = "[{name: infra-backend-v1, port: 8080}]";

  @Test
  void httpRouteSimpleSameNamespace() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS, GATEWAYS,
        httpRoute("infra", "gateway-conformance-infra-test", SAME_PARENT, "[]", INFRA_BACKEND)));
    ResourceKey route = httpRouteKey("infra", "gateway-conformance-infra-test");
    ParentStatus parent = parent(result, route, SAME);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs");
    VirtualHost host = host(result, SAME, 8080, "*");
    assertThat(host.routes()).singleElement().satisfies(r -> assertThat(forwardedTo(r))
        .containsExactly(serviceCluster("infra", "infra-backend-v1:8080")));
    assertThat(result.ir().clusters()).singleElement().satisfies(cluster -> {
      assertThat(cluster.origin().object()).isEqualTo(serviceCluster("infra", "infra-backend-v1:8080"));
      assertThat(cluster.endpoints()).extracting(Cluster.WeightedEndpoint::address).containsExactly("127.0.0.10");
      assertThat(cluster.dns()).isEmpty();
    });
    assertThat(listenerStatus(result, SAME, "http").attachedRoutes()).isEqualTo(1);
  }

  @Test
  void hostnamesAlsoMatchAHostHeaderWithTheListenersPort() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS, GATEWAYS,
        httpRoute("infra", "named", SAME_PARENT, "[web.example.test, \"*.wild.example.test\"]", INFRA_BACKEND),
        httpRoute("infra", "any", "[{name: all-namespaces}]", "[]", INFRA_BACKEND)));
    assertThat(host(result, SAME, 8080, "web.example.test").domains())
        .containsExactly("web.example.test", "web.example.test:8080");
    assertThat(host(result, SAME, 8080, "*.wild.example.test").domains())
        .containsExactly("*.wild.example.test", "*.wild.example.test:8080");
    assertThat(host(result, ALL, 8081, "*").domains()).containsExactly("*");
    assertThat(result.ir().listeners()).filteredOn(l -> l instanceof Listener.ClientApi)
        .extracting(l -> ((Listener.ClientApi) l).virtualHost().domains())
        .containsExactly(List.of("web.example.test"));
  }

  @Test
  void gatewayWithAttachedRoutes() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS, GATEWAYS,
        httpRoute("infra", "one", SAME_PARENT, "[]", INFRA_BACKEND),
        httpRoute("infra", "two", SAME_PARENT, "[]", INFRA_BACKEND),
        httpRoute("infra", "elsewhere", "[{name: all-namespaces}]", "[]", INFRA_BACKEND)));
    assertThat(listenerStatus(result, SAME, "http").attachedRoutes()).isEqualTo(2);
    assertThat(listenerStatus(result, ALL, "http").attachedRoutes()).isEqualTo(1);
    assertThat(host(result, SAME, 8080, "*").routes()).hasSize(2);
  }

  @Test
  void httpRouteCrossNamespace() {
    IrBuilder.Result result = lower(config(services("web/web-backend:8080"), CLASS, GATEWAYS,
        httpRoute("web", "cross-namespace", "[{name: all-namespaces, namespace: infra}]", "[]",
            "[{name: web-backend, port: 8080}]")));
    ParentStatus parent = parent(result, httpRouteKey("web", "cross-namespace"), ALL);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertThat(forwardedTo(host(result, ALL, 8081, "*").routes().get(0)))
        .containsExactly(serviceCluster("web", "web-backend:8080"));
  }

  @Test
  void httpRouteInvalidCrossNamespaceParentRef() {
    IrBuilder.Result result = lower(config(services("web/web-backend:8080"), CLASS, GATEWAYS,
        httpRoute("web", "invalid-cross-namespace-parent-ref", "[{name: same-namespace, namespace: infra}]", "[]",
            "[{name: web-backend, port: 8080}]")));
    ParentStatus parent = parent(result, httpRouteKey("web", "invalid-cross-namespace-parent-ref"), SAME);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "NotAllowedByListeners");
    assertThat(socket(result, SAME, 8080).virtualHosts()).isEmpty();
    assertThat(listenerStatus(result, SAME, "http").attachedRoutes()).isZero();
    assertThat(result.ir().clusters()).isEmpty();
  }

  @Test
  void httpRouteAllowedNamespacesSelector() {
    IrBuilder.Result result = lower(config(services("web/web-backend:8080", "other/web-backend:8080"), CLASS,
        gateway("infra", "selective", """
            - name: http
              port: 8080
              protocol: HTTP
              allowedRoutes:
                namespaces:
                  from: Selector
                  selector: {matchLabels: {gateway-access: "yes"}}
            """), """
            apiVersion: v1
            kind: Namespace
            metadata: {name: web, labels: {gateway-access: "yes"}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: other, labels: {gateway-access: "no"}}
            """,
        httpRoute("web", "selected", "[{name: selective, namespace: infra}]", "[]",
            "[{name: web-backend, port: 8080}]"),
        httpRoute("other", "not-selected", "[{name: selective, namespace: infra}]", "[]",
            "[{name: web-backend, port: 8080}]")));
    ResourceKey selective = gatewayKey("infra", "selective");
    assertCondition(parent(result, httpRouteKey("web", "selected"), selective).conditions(), Condition.ACCEPTED,
        Condition.Status.TRUE, "Accepted");
    assertCondition(parent(result, httpRouteKey("other", "not-selected"), selective).conditions(),
        Condition.ACCEPTED, Condition.Status.FALSE, "NotAllowedByListeners");
    assertThat(listenerStatus(result, selective, "http").attachedRoutes()).isEqualTo(1);
  }

  @Test
  void httpRouteInvalidParentRefNotMatchingSectionName() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS, GATEWAYS,
        httpRoute("infra", "bad-section", "[{name: same-namespace, sectionName: nope}]", "[]", INFRA_BACKEND)));
    ParentStatus parent = parent(result, httpRouteKey("infra", "bad-section"), SAME);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "NoMatchingParent");
    assertThat(parent.section()).contains("nope");
  }

  @Test
  void httpRouteInvalidParentRefNotMatchingListenerPort() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS, GATEWAYS,
        httpRoute("infra", "bad-port", "[{name: same-namespace, port: 9999}]", "[]", INFRA_BACKEND)));
    ParentStatus parent = parent(result, httpRouteKey("infra", "bad-port"), SAME);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "NoMatchingParent");
    assertThat(parent.port()).contains(9999);
  }

  @Test
  void httpRouteParentRefPortAndSectionNameSelectTheListener() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS, gateway("infra", "two",
        """
        - {name: first, port: 8080, protocol: HTTP}
        - {name: second, port: 8090, protocol: HTTP}
        """), httpRoute("infra", "by-port", "[{name: two, port: 8090}]", "[]", INFRA_BACKEND),
        httpRoute("infra", "by-section", "[{name: two, sectionName: first}]", "[]", INFRA_BACKEND)));
    ResourceKey two = gatewayKey("infra", "two");
    assertThat(listenerStatus(result, two, "first").attachedRoutes()).isEqualTo(1);
    assertThat(listenerStatus(result, two, "second").attachedRoutes()).isEqualTo(1);
    assertThat(host(result, two, 8090, "*").routes()).extracting(r -> r.origin().object())
        .containsExactly(httpRouteKey("infra", "by-port"));
    assertThat(host(result, two, 8080, "*").routes()).extracting(r -> r.origin().object())
        .containsExactly(httpRouteKey("infra", "by-section"));
  }

  @Test
  void httpRouteDisallowedKind() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS,
        gateway("infra", "grpc-only", """
            - name: grpc
              port: 8080
              protocol: HTTP
              allowedRoutes: {kinds: [{kind: GRPCRoute}]}
            """), httpRoute("infra", "disallowed-kind", "[{name: grpc-only}]", "[]", INFRA_BACKEND)));
    ParentStatus parent = parent(result, httpRouteKey("infra", "disallowed-kind"), gatewayKey("infra", "grpc-only"));
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "NotAllowedByListeners");
  }

  @Test
  void httpRouteHostnameIntersection() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080", "infra/infra-backend-v2:8080",
        "infra/infra-backend-v3:8080"), CLASS, gateway("infra", "httproute-hostname-intersection", """
        - {name: listener-1, port: 8080, protocol: HTTP, hostname: very.specific.com}
        - {name: listener-2, port: 8080, protocol: HTTP, hostname: "*.wildcard.io"}
        - {name: listener-3, port: 8080, protocol: HTTP, hostname: "*.anotherwildcard.io"}
        """),
        httpRoute("infra", "specific-host-matches-listener-specific-host",
            "[{name: httproute-hostname-intersection}]", "[non.matching.com, \"*.nonmatchingwildcard.io\","
                + " very.specific.com]", "[{name: infra-backend-v1, port: 8080}]"),
        httpRoute("infra", "specific-host-matches-listener-wildcard-host",
            "[{name: httproute-hostname-intersection}]", "[non.matching.com, wildcard.io, foo.wildcard.io,"
                + " bar.wildcard.io, foo.bar.wildcard.io]", "[{name: infra-backend-v2, port: 8080}]"),
        httpRoute("infra", "wildcard-host-matches-listener-specific-host",
            "[{name: httproute-hostname-intersection}]", "[non.matching.com, \"*.specific.com\"]",
            "[{name: infra-backend-v3, port: 8080}]"),
        httpRoute("infra", "wildcard-host-matches-listener-wildcard-host",
            "[{name: httproute-hostname-intersection}]", "[\"*.anotherwildcard.io\"]",
            "[{name: infra-backend-v1, port: 8080}]"),
        httpRoute("infra", "no-intersecting-hosts",
            "[{name: httproute-hostname-intersection}]", "[specific.but.wrong.com, wildcard.io]",
            "[{name: infra-backend-v2, port: 8080}]")));
    ResourceKey gateway = gatewayKey("infra", "httproute-hostname-intersection");
    Listener.Socket socket = socket(result, gateway, 8080);
    assertThat(socket.virtualHosts()).extracting(h -> h.domains().get(0)).containsExactlyInAnyOrder(
        "very.specific.com", "foo.wildcard.io", "bar.wildcard.io", "foo.bar.wildcard.io", "*.anotherwildcard.io");
    assertThat(host(result, gateway, 8080, "very.specific.com").routes()).extracting(r -> r.origin().object())
        .containsExactlyInAnyOrder(httpRouteKey("infra", "specific-host-matches-listener-specific-host"),
            httpRouteKey("infra", "wildcard-host-matches-listener-specific-host"));
    assertThat(host(result, gateway, 8080, "foo.wildcard.io").routes()).extracting(r -> r.origin().object())
        .containsExactly(httpRouteKey("infra", "specific-host-matches-listener-wildcard-host"));
    assertCondition(parent(result, httpRouteKey("infra", "no-intersecting-hosts"), gateway).conditions(),
        Condition.ACCEPTED, Condition.Status.FALSE, "NoMatchingListenerHostname");
    assertThat(listenerStatus(result, gateway, "listener-1").attachedRoutes()).isEqualTo(2);
    assertThat(listenerStatus(result, gateway, "listener-2").attachedRoutes()).isEqualTo(1);
    assertThat(listenerStatus(result, gateway, "listener-3").attachedRoutes()).isEqualTo(1);
  }

  @Test
  void httpRouteListenerHostnameMatching() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080", "infra/infra-backend-v2:8080",
        "infra/infra-backend-v3:8080"), CLASS, gateway("infra", "httproute-listener-hostname-matching", """
        - {name: listener-1, port: 8080, protocol: HTTP, hostname: bar.com}
        - {name: listener-2, port: 8080, protocol: HTTP, hostname: foo.bar.com}
        - {name: listener-3, port: 8080, protocol: HTTP, hostname: "*.bar.com"}
        - {name: listener-4, port: 8080, protocol: HTTP, hostname: "*.foo.com"}
        """),
        httpRoute("infra", "backend-v1", "[{name: httproute-listener-hostname-matching, sectionName: listener-1}]",
            "[]", "[{name: infra-backend-v1, port: 8080}]"),
        httpRoute("infra", "backend-v2", "[{name: httproute-listener-hostname-matching, sectionName: listener-2}]",
            "[]", "[{name: infra-backend-v2, port: 8080}]"),
        httpRoute("infra", "backend-v3", "[{name: httproute-listener-hostname-matching, sectionName: listener-3},"
            + " {name: httproute-listener-hostname-matching, sectionName: listener-4}]", "[]",
            "[{name: infra-backend-v3, port: 8080}]")));
    ResourceKey gateway = gatewayKey("infra", "httproute-listener-hostname-matching");
    assertThat(forwardedTo(host(result, gateway, 8080, "bar.com").routes().get(0)))
        .containsExactly(serviceCluster("infra", "infra-backend-v1:8080"));
    assertThat(forwardedTo(host(result, gateway, 8080, "foo.bar.com").routes().get(0)))
        .containsExactly(serviceCluster("infra", "infra-backend-v2:8080"));
    assertThat(forwardedTo(host(result, gateway, 8080, "*.bar.com").routes().get(0)))
        .containsExactly(serviceCluster("infra", "infra-backend-v3:8080"));
    assertThat(forwardedTo(host(result, gateway, 8080, "*.foo.com").routes().get(0)))
        .containsExactly(serviceCluster("infra", "infra-backend-v3:8080"));
    assertThat(socket(result, gateway, 8080).virtualHosts()).hasSize(4);
    assertThat(status(result, httpRouteKey("infra", "backend-v3")).parents()).hasSize(2)
        .allSatisfy(p -> assertCondition(p.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted"));
  }

  @Test
  void httpRouteWiderListenerDoesNotAnswerForANarrowerListenersHostname() {
    IrBuilder.Result result = lower(config(services("infra/wide:8080", "infra/narrow:8080"), CLASS,
        gateway("infra", "edge", """
            - {name: wide, port: 8080, protocol: HTTP, hostname: "*.example.test"}
            - {name: narrow, port: 8080, protocol: HTTP, hostname: a.example.test}
            """),
        httpRoute("infra", "on-wide", "[{name: edge, sectionName: wide}]", "[a.example.test, b.example.test]",
            "[{name: wide, port: 8080}]"),
        httpRoute("infra", "on-narrow", "[{name: edge, sectionName: narrow}]", "[]",
            "[{name: narrow, port: 8080}]")));
    ResourceKey edge = gatewayKey("infra", "edge");
    assertThat(host(result, edge, 8080, "a.example.test").routes()).extracting(r -> r.origin().object())
        .containsExactly(httpRouteKey("infra", "on-narrow"));
    assertThat(host(result, edge, 8080, "b.example.test").routes()).extracting(r -> r.origin().object())
        .containsExactly(httpRouteKey("infra", "on-wide"));
  }

  @Test
  void httpRouteInvalidNonExistentBackendRef() {
    IrBuilder.Result result = lower(config(CLASS, GATEWAYS,
        httpRoute("infra", "nonexistent-backend-ref", SAME_PARENT, "[]", "[{name: nonexistent, port: 8080}]")));
    ParentStatus parent = parent(result, httpRouteKey("infra", "nonexistent-backend-ref"), SAME);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.FALSE, "BackendNotFound");
    assertThat(host(result, SAME, 8080, "*").routes()).singleElement()
        .satisfies(r -> assertThat(r.action()).isEqualTo(new RouteAction.DirectResponse(500, Optional.empty())));
    assertThat(result.ir().clusters()).isEmpty();
  }

  @Test
  void httpRouteInvalidBackendRefUnknownKind() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080"), CLASS, GATEWAYS,
        httpRoute("infra", "invalid-backend-ref-unknown-kind", SAME_PARENT, "[]",
            "[{group: unknownkind.example.com, kind: NonExistent, name: infra-backend-v1, port: 8080}]")));
    ParentStatus parent = parent(result, httpRouteKey("infra", "invalid-backend-ref-unknown-kind"), SAME);
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.FALSE, "InvalidKind");
    assertThat(host(result, SAME, 8080, "*").routes().get(0).action()).isInstanceOf(RouteAction.DirectResponse.class);
  }

  @Test
  void httpRouteInvalidCrossNamespaceBackendRef() {
    IrBuilder.Result result = lower(config(services("web/web-backend:8080"), CLASS, GATEWAYS,
        httpRoute("infra", "invalid-cross-namespace-backend-ref", SAME_PARENT, "[]",
            "[{name: web-backend, namespace: web, port: 8080}]")));
    ParentStatus parent = parent(result, httpRouteKey("infra", "invalid-cross-namespace-backend-ref"), SAME);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.FALSE, "RefNotPermitted");
    assertThat(result.ir().clusters()).isEmpty();
  }

  private static final String GRANT_TO_WEB = """
      apiVersion: gateway.networking.k8s.io/v1beta1
      kind: ReferenceGrant
      metadata: {name: reference-grant, namespace: web}
      spec:
        from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: infra}]
        to: [{group: "", kind: Service, name: web-backend}]
      """;

  @Test
  void httpRouteReferenceGrant() {
    IrBuilder.Result result = lower(config(services("web/web-backend:8080"), CLASS, GATEWAYS, GRANT_TO_WEB,
        httpRoute("infra", "reference-grant", SAME_PARENT, "[]", "[{name: web-backend, namespace: web, port: 8080}]")));
    ParentStatus parent = parent(result, httpRouteKey("infra", "reference-grant"), SAME);
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs");
    assertThat(forwardedTo(host(result, SAME, 8080, "*").routes().get(0)))
        .containsExactly(serviceCluster("web", "web-backend:8080"));
  }

  @Test
  void httpRoutePartiallyInvalidViaInvalidReferenceGrant() {
    IrBuilder.Result result = lower(config(services("web/web-backend:8080", "web/other-backend:8080",
        "infra/infra-backend-v1:8080"), CLASS, GATEWAYS, GRANT_TO_WEB, """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: invalid-reference-grant, namespace: infra}
        spec:
          parentRefs: [{name: same-namespace}]
          rules:
            - matches: [{path: {type: PathPrefix, value: /v2}}]
              backendRefs: [{name: other-backend, namespace: web, port: 8080}]
            - backendRefs: [{name: infra-backend-v1, port: 8080}]
        """));
    ParentStatus parent = parent(result, httpRouteKey("infra", "invalid-reference-grant"), SAME);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertCondition(parent.conditions(), "ResolvedRefs", Condition.Status.FALSE, "RefNotPermitted");
    List<Route> routes = host(result, SAME, 8080, "*").routes();
    assertThat(routes).filteredOn(r -> r.name().contains("/rule/0/")).isNotEmpty()
        .allSatisfy(r -> assertThat(r.action()).isEqualTo(new RouteAction.DirectResponse(500, Optional.empty())));
    assertThat(routes).filteredOn(r -> r.name().contains("/rule/1/")).singleElement()
        .satisfies(r -> assertThat(forwardedTo(r)).containsExactly(serviceCluster("infra", "infra-backend-v1:8080")));
  }

  @Test
  void httpRouteMatchingAcrossRoutes() {
    IrBuilder.Result result = lower(config(services("infra/infra-backend-v1:8080", "infra/infra-backend-v2:8080"),
        CLASS, GATEWAYS, """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: matching-part1, namespace: infra, creationTimestamp: "2026-01-01T00:00:00Z"}
        spec:
          parentRefs: [{name: same-namespace}]
          hostnames: [example.com, example.net]
          rules:
            - matches: [{path: {type: PathPrefix, value: /}}]
              backendRefs: [{name: infra-backend-v1, port: 8080}]
            - matches: [{path: {type: PathPrefix, value: /v2}, headers: [{name: version, value: two}]}]
              backendRefs: [{name: infra-backend-v2, port: 8080}]
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: matching-part2, namespace: infra, creationTimestamp: "2026-01-02T00:00:00Z"}
        spec:
          parentRefs: [{name: same-namespace}]
          hostnames: [example.com]
          rules:
            - matches: [{path: {type: PathPrefix, value: /v2}}]
              backendRefs: [{name: infra-backend-v2, port: 8080}]
            - matches: [{path: {type: Exact, value: /}}]
              backendRefs: [{name: infra-backend-v2, port: 8080}]
        """));
    List<Route> routes = host(result, SAME, 8080, "example.com").routes();
    // Exact before prefixes; longer prefixes first; at equal path, more header matches first. A prefix other than
    // "/" is two IR routes (the path itself, and below it), so /v2 matches /v2/x but not /v2x.
    assertThat(routes).extracting(Route::name).containsExactly(
        "httproute/infra/matching-part2/rule/1/match/0",
        "httproute/infra/matching-part1/rule/1/match/0/exact",
        "httproute/infra/matching-part1/rule/1/match/0/prefix",
        "httproute/infra/matching-part2/rule/0/match/0/exact",
        "httproute/infra/matching-part2/rule/0/match/0/prefix",
        "httproute/infra/matching-part1/rule/0/match/0");
    assertThat(host(result, SAME, 8080, "example.net").routes()).extracting(r -> r.origin().object())
        .containsOnly(httpRouteKey("infra", "matching-part1"));
  }

  private static ResourceKey serviceCluster(String namespace, String nameAndPort) {
    return ResourceKey.core("Service", namespace, nameAndPort);
  }

  private static List<ResourceKey> forwardedTo(Route route) {
    assertThat(route.action()).isInstanceOf(RouteAction.Forwarding.class);
    return ((RouteAction.Forwarding) route.action()).clusters();
  }
}
