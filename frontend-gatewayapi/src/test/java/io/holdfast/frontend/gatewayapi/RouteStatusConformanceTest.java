package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.CLASS;
import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static io.holdfast.frontend.gatewayapi.Fixtures.config;
import static io.holdfast.frontend.gatewayapi.Fixtures.gateway;
import static io.holdfast.frontend.gatewayapi.Fixtures.gatewayKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.grpcRouteKey;
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

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Condition;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ParentStatus;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Route status intents beside attachment: generations, foreign parents, GRPCRoutes, routes Holdfast rejects. */
class RouteStatusConformanceTest {

  private static final ResourceKey EDGE = gatewayKey("infra", "edge");
  private static final String EDGE_GATEWAY = gateway("infra", "edge", """
      - {name: http, port: 8080, protocol: HTTP, hostname: "*.example.test"}
      """);

  @Test
  void httpRouteObservedGenerationBump() {
    String yaml = httpRoute("infra", "bumped", "[{name: edge}]", "[a.example.test]",
        "[{name: backend, port: 8080}]");
    ObjectNode body = (ObjectNode) TestManifests.tree(yaml);
    GatewayConfig base = config(services("infra/backend:8080"), CLASS, EDGE_GATEWAY);
    for (long generation : new long[] {1, 2}) {
      IrBuilder.Result result = lower(base.toBuilder()
          .add(new ApiObject(httpRouteKey("infra", "bumped"), generation, body)).build());
      ParentStatus parent = parent(result, httpRouteKey("infra", "bumped"), EDGE);
      assertThat(parent.conditions()).extracting(Condition::observedGeneration).containsOnly(generation);
    }
  }

  @Test
  void httpRouteParentOfAnotherControllerGetsNoEntryFromHoldfast() {
    IrBuilder.Result result = lower(config(services("infra/backend:8080"), CLASS, EDGE_GATEWAY, """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: other}
        spec: {controllerName: example.test/other}
        ---
        """ + gateway("infra", "foreign", "- {name: http, port: 9090, protocol: HTTP}").replace(
        "gatewayClassName: holdfast", "gatewayClassName: other"),
        httpRoute("infra", "two-parents", "[{name: edge}, {name: foreign}]", "[a.example.test]",
            "[{name: backend, port: 8080}]"),
        httpRoute("infra", "foreign-only", "[{name: foreign}]", "[]", "[{name: backend, port: 8080}]")));
    assertThat(status(result, httpRouteKey("infra", "two-parents")).parents()).extracting(ParentStatus::parent)
        .containsExactly(EDGE);
    assertThat(result.statuses()).doesNotContainKey(httpRouteKey("infra", "foreign-only"));
    assertThat(result.ir().listeners()).noneMatch(l -> l.origin().object().name().equals("foreign"));
  }

  @Test
  void httpRouteWithAnUnsupportedValueIsNotAccepted() {
    IrBuilder.Result result = lower(config(services("infra/backend:8080"), CLASS, EDGE_GATEWAY, """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: bad-regex, namespace: infra}
        spec:
          parentRefs: [{name: edge}]
          rules:
            - matches: [{path: {type: RegularExpression, value: "/(unclosed"}}]
              backendRefs: [{name: backend, port: 8080}]
        """));
    ParentStatus parent = parent(result, httpRouteKey("infra", "bad-regex"), EDGE);
    assertCondition(parent.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "UnsupportedValue");
    assertThat(socket(result, EDGE, 8080).virtualHosts()).isEmpty();
    assertThat(listenerStatus(result, EDGE, "http").attachedRoutes()).isZero();
  }

  @Test
  void grpcRouteListenerHostnameMatching() {
    IrBuilder.Result result = lower(config(services("infra/grpc-a:9000", "infra/grpc-b:9000"), CLASS,
        gateway("infra", "grpc", """
            - {name: a, port: 8080, protocol: HTTP, hostname: a.example.test}
            - {name: any, port: 8080, protocol: HTTP}
            """), """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GRPCRoute
        metadata: {name: on-a, namespace: infra}
        spec:
          parentRefs: [{name: grpc, sectionName: a}]
          rules:
            - backendRefs: [{name: grpc-a, port: 9000}]
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: GRPCRoute
        metadata: {name: elsewhere, namespace: infra}
        spec:
          parentRefs: [{name: grpc, sectionName: any}]
          hostnames: [b.example.test, a.example.test]
          rules:
            - backendRefs: [{name: grpc-b, port: 9000}]
        """));
    ResourceKey grpc = gatewayKey("infra", "grpc");
    assertThat(host(result, grpc, 8080, "a.example.test").routes()).extracting(r -> r.origin().object())
        .containsOnly(grpcRouteKey("infra", "on-a"));
    assertThat(host(result, grpc, 8080, "b.example.test").routes()).extracting(r -> r.origin().object())
        .containsOnly(grpcRouteKey("infra", "elsewhere"));
    assertThat(result.ir().clusters()).allSatisfy(c -> assertThat(c.http2()).isTrue())
        .extracting(c -> c.origin().object().name()).containsExactly("grpc-a:9000:grpc", "grpc-b:9000:grpc");
    // Proxyless gRPC clients ask for the hostname as their xDS target.
    assertThat(result.ir().listeners()).filteredOn(l -> l instanceof Listener.ClientApi)
        .extracting(l -> ((Listener.ClientApi) l).target()).containsExactly("a.example.test", "b.example.test");
  }

  @Test
  void aServiceUsedOverHttpAndGrpcIsTwoClusters() {
    IrBuilder.Result result = lower(config(services("infra/both:9000"), CLASS, EDGE_GATEWAY,
        httpRoute("infra", "http", "[{name: edge}]", "[a.example.test]", "[{name: both, port: 9000}]"), """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GRPCRoute
        metadata: {name: grpc, namespace: infra}
        spec:
          parentRefs: [{name: edge}]
          hostnames: [g.example.test]
          rules:
            - backendRefs: [{name: both, port: 9000}]
        """));
    assertThat(result.ir().clusters()).extracting(c -> c.origin().object().name(), Cluster::http2)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("both:9000", false),
            org.assertj.core.groups.Tuple.tuple("both:9000:grpc", true));
  }
}
