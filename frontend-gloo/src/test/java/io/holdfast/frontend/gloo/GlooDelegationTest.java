package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Reasons;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Delegation by selector with {@code expressions} (Kubernetes label-selector semantics), in weight order; a
 * delegated route leaving its parent's prefix is skipped with a warning on its RouteTable, as Gloo Edge's converter
 * does, and the table's other routes are served.
 */
class GlooDelegationTest {

  private static String table(String name, String labels, int weight, String prefix) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: %s, namespace: apps, labels: {%s}}
        spec:
          weight: %d
          routes:
          - matchers: [{prefix: %s}]
            directResponseAction: {status: 200, body: %s}
        ---
        """.formatted(name, labels, weight, prefix, name);
  }

  private static final String PARENT = """
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: parent, namespace: gloo-system}
      spec:
        virtualHost:
          routes:
          - matchers: [{prefix: /api}]
            delegateAction:
              selector:
                namespaces: [apps]
                labels: {domain: api}
                expressions:
                - {key: stage, operator: In, values: [prod, canary]}
                - {key: deprecated, operator: DoesNotExist}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gw, namespace: gloo-system}
      spec: {bindPort: 8080, httpGateway: {}}
      """;

  @Test
  void expressionsPickTablesAndTheirRoutesAreServedInWeightOrder() {
    String yaml = table("late", "domain: api, stage: prod", 20, "/api/late")
        + table("early", "domain: api, stage: canary", 5, "/api/early")
        + table("old", "domain: api, stage: prod, deprecated: 'yes'", 1, "/api/old")
        + table("dev", "domain: api, stage: dev", 0, "/api/dev")
        + table("other", "domain: web, stage: prod", 0, "/api/other")
        + PARENT;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "parent").isAccepted())
        .as("%s", result.statuses()).isTrue();
    Listener socket = result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket).findFirst()
        .orElseThrow();
    List<String> tables = socket.virtualHosts().get(0).routes().stream().map(r -> r.origin().object().name())
        .toList();
    assertThat(tables).containsExactly("early", "late");
  }

  @Test
  void theOptionsOfASelectorWithExpressionsReachEveryPickedTablesRoutes() {
    String yaml = table("late", "domain: api, stage: prod", 20, "/api/late")
        + table("early", "domain: api, stage: canary", 5, "/api/early")
        + PARENT.replace("    - matchers: [{prefix: /api}]\n", "    - matchers: [{prefix: /api}]\n"
            + "      options: {headerManipulation: {responseHeadersToAdd: [{header: {key: x-api, value: v1}}]}}\n");
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "parent").isAccepted())
        .as("%s", result.statuses()).isTrue();
    Listener socket = result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket).findFirst()
        .orElseThrow();
    assertThat(socket.virtualHosts().get(0).routes()).hasSize(2).allSatisfy(r -> assertThat(r.headers()
        .responseAdd()).extracting(h -> h.name()).containsExactly("x-api"));
  }

  private static final String THREE_ROUTES = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: shop, namespace: apps}
      spec:
        static: {hosts: [{addr: 192.0.2.31, port: 8080}]}
      ---
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: shop, namespace: gloo-system}
      spec:
        virtualHost:
          domains: [shop.example.test]
          routes:
          - matchers: [{prefix: /shop}]
            delegateAction: {ref: {name: shop-routes, namespace: apps}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: RouteTable
      metadata: {name: shop-routes, namespace: apps}
      spec:
        routes:
        - matchers: [{prefix: /shop/cart}]
          routeAction: {single: {upstream: {name: shop, namespace: apps}}}
        - matchers: [{prefix: /admin}]
          routeAction: {single: {upstream: {name: shop, namespace: apps}}}
        - matchers: [{exact: /shop/health}]
          routeAction: {single: {upstream: {name: shop, namespace: apps}}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec: {bindAddress: '::', bindPort: 8080, httpGateway: {}}
      """;

  @Test
  void oneRouteOfThreeLeavingThePrefixIsSkippedWithAWarningAndTheOtherTwoAreServed() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(THREE_ROUTES));
    ObjectStatus table = GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE, "apps",
        "shop-routes");
    assertThat(table.isAccepted()).as("%s", table.findings()).isTrue();
    assertThat(table.findings()).extracting(Finding::severity, Finding::field, Finding::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Finding.Severity.WARNING, "spec.routes[1].match.prefix",
            Reasons.PREFIX_VIOLATION));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "shop").findings()).isEmpty();
    Listener socket = result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket).findFirst()
        .orElseThrow();
    assertThat(socket.virtualHosts().get(0).routes()).extracting(r -> r.match().path().value())
        .containsExactly("/shop/cart", "/shop/health");
  }

  @Test
  void servingATableWithOneRouteLeavingThePrefixEqualsHoldfastWithoutThatRoute() {
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: shop, namespace: apps}
        spec:
          static: {hosts: [{address: 192.0.2.31, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          domains: [shop.example.test]
          routes:
          - match: {prefix: /shop}
            delegate: {ref: {name: shop-routes, namespace: apps}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: shop-routes, namespace: apps}
        spec:
          routes:
          - match: {prefix: /shop/cart}
            route: {upstream: shop}
          - name: routes[2]
            match: {exact: /shop/health}
            route: {upstream: shop}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8080
          virtualServices: [{name: shop}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(THREE_ROUTES), GlooFixtures.load(holdfast), Map.of());
  }
}
