package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RouteTables and the {@code delegate} action, parsed as files and custom resources give them. */
class RouteTableParserTest {

  private final ModelParser parser = new ModelParser();

  @Test
  void routeTableWithWeightAndADelegatingVirtualService() {
    RouteTable table = (RouteTable) ((ParseResult.Parsed) parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: team-a, namespace: apps, labels: {team: a}}
        spec:
          weight: -3
          routes:
            - {name: api, match: {prefix: /team-a/api}, route: {upstream: a-api}}
            - {match: {prefix: /team-a/v2}, delegate: {ref: {name: team-a-v2}}}
        """))).resource();
    assertThat(table.key()).isEqualTo(ResourceKey.routeTable("apps", "team-a"));
    assertThat(table.weight()).isEqualTo(-3);
    assertThat(table.routes()).hasSize(2);
    assertThat(table.routes().get(1).action())
        .isEqualTo(new RouteAction.Delegate(new RouteAction.DelegateRef(ObjectRef.of("team-a-v2"))));

    VirtualService vs = (VirtualService) ((ParseResult.Parsed) parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes:
            - {match: {prefix: /team-a/}, delegate: {ref: {name: team-a, namespace: apps}}}
            - {match: {prefix: /teams/}, delegate: {selector: {matchLabels: {tier: edge}, namespaces: ["*"]}}}
            - {match: {prefix: /local/}, delegate: {selector: {}}}
        """))).resource();
    assertThat(vs.routes()).extracting(Route::action).containsExactly(
        new RouteAction.Delegate(new RouteAction.DelegateRef(ObjectRef.of("apps", "team-a"))),
        new RouteAction.Delegate(new RouteAction.DelegateSelector(Map.of("tier", "edge"), List.of("*"))),
        new RouteAction.Delegate(new RouteAction.DelegateSelector(Map.of(), List.of())));
    assertThat(vs.routes().get(0).action().upstreams()).isEmpty();
  }

  @Test
  void weightDefaultsToZero() {
    RouteTable table = (RouteTable) ((ParseResult.Parsed) parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: t}
        spec:
          routes: [{match: {prefix: /t/}, directResponse: {status: 204}}]
        """))).resource();
    assertThat(table.weight()).isZero();
  }

  @Test
  void malformedDelegatesAndSpecsAreReportedWithTheirPaths() {
    ParseResult.Invalid result = (ParseResult.Invalid) parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: t}
        spec:
          weight: heavy
          routes:
            - {match: {prefix: /a}, delegate: {ref: {name: x}, selector: {}}}
            - {match: {prefix: /b}, delegate: {}}
            - {match: {prefix: /c}, delegate: {ref: {namespace: x}}}
            - {match: {prefix: /d}, delegate: {selector: {matchLabels: {a: 1}, namespaces: x}}}
            - {match: {prefix: /e}, delegate: {ref: {name: x}}, route: {upstream: u}}
            - {match: {prefix: /f}, delegate: {name: x}}
        """));
    assertThat(result.key()).contains(ResourceKey.routeTable("default", "t"));
    assertThat(result.problems()).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.weight", Reasons.WRONG_TYPE),
        tuple("spec.routes[0].delegate", Reasons.CONFLICTING_FIELDS),
        tuple("spec.routes[1].delegate", Reasons.MISSING_FIELD),
        tuple("spec.routes[2].delegate.ref.name", Reasons.MISSING_FIELD),
        tuple("spec.routes[3].delegate.selector.matchLabels.a", Reasons.WRONG_TYPE),
        tuple("spec.routes[3].delegate.selector.namespaces", Reasons.WRONG_TYPE),
        tuple("spec.routes[4]", Reasons.CONFLICTING_FIELDS),
        tuple("spec.routes[5].delegate.name", Reasons.UNKNOWN_FIELD),
        tuple("spec.routes[5].delegate", Reasons.MISSING_FIELD));
  }

  @Test
  void routeTablesJoinTheConfigSortedByKey() {
    GatewayConfig config = TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: b}
        spec: {routes: [{match: {prefix: /b}, directResponse: {status: 200}}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: a}
        spec: {routes: [{match: {prefix: /a}, directResponse: {status: 200}}]}
        """);
    assertThat(config.routeTables()).extracting(RouteTable::key)
        .containsExactly(ResourceKey.routeTable("default", "a"), ResourceKey.routeTable("default", "b"));
    assertThat(config.toBuilder().build()).isEqualTo(config);
  }
}
