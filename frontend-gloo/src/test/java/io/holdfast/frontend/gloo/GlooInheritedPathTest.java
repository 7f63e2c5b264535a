package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteMatch.PathMatch;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Gloo's {@code inheritablePathMatchers}, as Gloo's route converter resolves it ({@code validateAndMergeParentRoute}):
 * a delegated route's own value, else its delegating route's, false at the VirtualService; when true the route's
 * path (and case rule) is replaced by the delegating route's prefix, its other conditions kept.
 */
class GlooInheritedPathTest {

  private static final String GATEWAY = GlooDelegatedOptionsTest.GATEWAY;
  private static final String UPSTREAM = GlooDelegatedOptionsTest.UPSTREAM;

  private static final String FORWARD = "routeAction: {single: {upstream: {name: pets}}}";

  private static String virtualService(String name, String route) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: apps}
        spec:
          virtualHost:
            domains: [%s.example.test]
            routes:
            - %s
        ---
        """.formatted(name, name, route);
  }

  private static String table(String name, String... routes) {
    StringBuilder out = new StringBuilder("""
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: %s, namespace: apps}
        spec:
          routes:
        """.formatted(name));
    for (String route : routes) {
      out.append("  - ").append(route).append('\n');
    }
    return out.append("---\n").toString();
  }

  private static IrBuilder.Result build(String yaml) {
    return GlooFixtures.build(GlooFixtures.load(UPSTREAM + yaml + GATEWAY));
  }

  private static List<Route> routes(IrBuilder.Result result, String vs) {
    ResourceKey key = new ResourceKey(GlooKinds.GATEWAY_GROUP, GlooKinds.VIRTUAL_SERVICE, "apps", vs);
    return result.ir().listeners().stream().flatMap(l -> l.virtualHosts().stream())
        .filter(h -> h.origin().object().equals(key)).findFirst().orElseThrow().routes();
  }

  private static List<PathMatch> paths(IrBuilder.Result result, String vs) {
    return routes(result, vs).stream().map(r -> r.match().path()).toList();
  }

  private static ObjectStatus table(IrBuilder.Result result, String name) {
    return GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE, "apps", name);
  }

  private static void assertAllAccepted(IrBuilder.Result result) {
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isAccepted()).as("%s", s).isTrue());
  }

  @Test
  void withTheFlagOnTheDelegatingRouteEveryDelegatedRouteServesItsPrefixAndKeepsItsOtherConditions() {
    IrBuilder.Result result = build(virtualService("vs", "{matchers: [{prefix: /a, caseSensitive: false}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: rt}}}")
        + table("rt",
            "{matchers: [{prefix: /elsewhere, headers: [{name: x-team, value: blue}]}], " + FORWARD + "}",
            "{matchers: [{exact: /a/b}], " + FORWARD + "}",
            "{matchers: [{regex: '/x.*'}], " + FORWARD + "}",
            "{" + FORWARD + "}"));
    assertAllAccepted(result);
    // Gloo sets each child matcher's path specifier and caseSensitive to the parent's: /elsewhere, the exact path
    // and the regex would all leave /a without the flag.
    assertThat(paths(result, "vs")).containsOnly(new PathMatch.Prefix("/a", false)).hasSize(4);
    assertThat(routes(result, "vs").get(0).match().headers()).extracting(h -> h.name()).containsExactly("x-team");
  }

  @Test
  void withoutTheFlagTheSameTableLeavesThePrefixAndIsNotServed() {
    IrBuilder.Result result = build(virtualService("vs", "{matchers: [{prefix: /a}],"
        + " delegateAction: {ref: {name: rt}}}")
        + table("rt", "{matchers: [{prefix: /elsewhere}], " + FORWARD + "}"));
    assertThat(table(result, "rt").findings()).extracting(Finding::reason).contains(Reasons.PREFIX_VIOLATION);
    // The route is skipped with a warning, as Gloo Edge does; the table stays accepted and serves nothing.
    assertThat(table(result, "rt").isAccepted()).isTrue();
    assertThat(routes(result, "vs")).isEmpty();
  }

  @Test
  void theFlagIsInheritedDownAChainAndADelegatingRouteTakesThePrefixItHandsOnToo() {
    IrBuilder.Result result = build(virtualService("vs", "{matchers: [{prefix: /a}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: mid}}}")
        + table("mid", "{matchers: [{prefix: /zzz}], delegateAction: {ref: {name: leaf}}}",
            "{matchers: [{prefix: /mid}], " + FORWARD + "}")
        + table("leaf", "{matchers: [{prefix: /leaf}], " + FORWARD + "}"));
    assertAllAccepted(result);
    assertThat(paths(result, "vs")).containsExactly(new PathMatch.Prefix("/a", true),
        new PathMatch.Prefix("/a", true));
  }

  @Test
  void aRouteWithItsOwnFalseKeepsItsPathAndIsCheckedAgainstThePrefix() {
    IrBuilder.Result served = build(virtualService("vs", "{matchers: [{prefix: /a}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: rt}}}")
        + table("rt", "{matchers: [{prefix: /a/own}], inheritablePathMatchers: false, " + FORWARD + "}",
            "{matchers: [{prefix: /other}], " + FORWARD + "}"));
    assertAllAccepted(served);
    assertThat(paths(served, "vs")).containsExactly(new PathMatch.Prefix("/a/own", true),
        new PathMatch.Prefix("/a", true));

    IrBuilder.Result leaves = build(virtualService("vs", "{matchers: [{prefix: /a}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: rt}}}")
        + table("rt", "{matchers: [{prefix: /other}], inheritablePathMatchers: false, " + FORWARD + "}"));
    assertThat(table(leaves, "rt").findings()).extracting(Finding::reason, Finding::field)
        .contains(org.assertj.core.groups.Tuple.tuple(Reasons.PREFIX_VIOLATION, "spec.routes[0].match.prefix"));
  }

  @Test
  void aDelegatingRouteWithItsOwnFalseStopsTheInheritanceBelowIt() {
    IrBuilder.Result result = build(virtualService("vs", "{matchers: [{prefix: /a}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: mid}}}")
        + table("mid", "{matchers: [{prefix: /a/mid}], inheritablePathMatchers: false,"
            + " delegateAction: {ref: {name: leaf}}}")
        + table("leaf", "{matchers: [{prefix: /a/mid/leaf}], " + FORWARD + "}"));
    assertAllAccepted(result);
    assertThat(paths(result, "vs")).containsExactly(new PathMatch.Prefix("/a/mid/leaf", true));
  }

  @Test
  void aTableUnderTwoParentsGetsEachParentsPathAndIsNotChangedForTheOther() {
    String shared = table("shared", "{matchers: [{prefix: /two/x}], " + FORWARD + "}");
    IrBuilder.Result result = build(virtualService("one", "{matchers: [{prefix: /one}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: shared}}}")
        + virtualService("two", "{matchers: [{prefix: /two}], delegateAction: {ref: {name: shared}}}")
        + shared);
    assertAllAccepted(result);
    assertThat(paths(result, "one")).containsExactly(new PathMatch.Prefix("/one", true));
    assertThat(paths(result, "two")).containsExactly(new PathMatch.Prefix("/two/x", true));
  }

  @Test
  void aTableBelowASharedOneGetsThePathOfTheVirtualServiceItIsReachedFrom() {
    // mid's delegating route has no flag of its own: under one it is true (path /one), under two false (/two/m).
    IrBuilder.Result result = build(virtualService("one", "{matchers: [{prefix: /one}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: mid}}}")
        + virtualService("two", "{matchers: [{prefix: /two}], delegateAction: {ref: {name: mid}}}")
        + table("mid", "{matchers: [{prefix: /two/m}], delegateAction: {ref: {name: leaf}}}")
        + table("leaf", "{matchers: [{prefix: /two/m/leaf}], " + FORWARD + "}"));
    assertAllAccepted(result);
    assertThat(paths(result, "one")).containsExactly(new PathMatch.Prefix("/one", true));
    assertThat(paths(result, "two")).containsExactly(new PathMatch.Prefix("/two/m/leaf", true));
  }

  @Test
  void aTableServedUnderOnlyOneOfTheContextsItIsReachedWithIsServedThereAndLeftOutOfTheOther() {
    // leaf leaves /two/m, so it is served only where the flag hands it one's prefix.
    IrBuilder.Result result = build(virtualService("one", "{matchers: [{prefix: /one}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: mid}}}")
        + virtualService("two", "{matchers: [{prefix: /two}], delegateAction: {ref: {name: mid}}}")
        + table("mid", "{matchers: [{prefix: /two/m}], delegateAction: {ref: {name: leaf}}}",
            "{matchers: [{prefix: /two/m}], " + FORWARD + "}")
        + table("leaf", "{matchers: [{prefix: /elsewhere}], " + FORWARD + "}"));
    assertThat(table(result, "leaf").isAccepted()).isTrue();
    assertThat(paths(result, "one")).containsExactly(new PathMatch.Prefix("/one", true),
        new PathMatch.Prefix("/one", true));
    assertThat(paths(result, "two")).containsExactly(new PathMatch.Prefix("/two/m", true));
  }

  @Test
  void theFlagServesWhatHandWrittenHoldfastRoutesWithTheParentsPrefixServe() {
    String gloo = UPSTREAM + virtualService("vs", "{matchers: [{prefix: /pets, caseSensitive: false}],"
        + " inheritablePathMatchers: true, options: {timeout: 3s}, delegateAction: {ref: {name: mid}}}")
        + table("mid", "{matchers: [{prefix: /ignored, headers: [{name: x-v, value: '2'}]}],"
            + " delegateAction: {ref: {name: leaf}}}")
        + table("leaf", "{name: search, matchers: [{exact: /search}], " + FORWARD + "}",
            "{name: all, matchers: [{prefix: /all, methods: [GET]}], " + FORWARD + "}") + GATEWAY;
    String holdfast = GlooDelegatedOptionsTest.HOLDFAST_UPSTREAM + """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: vs, namespace: apps}
        spec:
          domains: [vs.example.test]
          routes:
          - match: {prefix: /pets, caseSensitive: false}
            timeout: 3s
            delegate: {ref: {name: mid}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: mid, namespace: apps}
        spec:
          routes:
          - match: {prefix: /pets, caseSensitive: false, headers: [{name: x-v, exact: '2'}]}
            delegate: {ref: {name: leaf}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: leaf, namespace: apps}
        spec:
          routes:
          - {name: search, match: {prefix: /pets, caseSensitive: false}, route: {upstream: pets}}
          - {name: all, match: {prefix: /pets, caseSensitive: false, methods: [GET]}, route: {upstream: pets}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: '::'
          port: 8080
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          virtualServices: [{name: vs, namespace: apps}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
  }

  @Test
  void aDeepChainWithTheFlagIsCutAtTheDepthLimitQuickly() {
    StringBuilder yaml = new StringBuilder(virtualService("root", "{matchers: [{prefix: /root}],"
        + " inheritablePathMatchers: true, delegateAction: {ref: {name: rt-0}}}"));
    int depth = 2000;
    for (int i = 0; i < depth; i++) {
      String action = i == depth - 1 ? FORWARD : "delegateAction: {ref: {name: rt-" + (i + 1) + "}}";
      // Every level writes a path outside /root and a route of its own: only the flag keeps them under it.
      yaml.append(table("rt-" + i, "{matchers: [{prefix: /level-" + i + "}], " + action + "}",
          "{matchers: [{exact: /own-" + i + "}], " + FORWARD + "}"));
    }
    long start = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    IrBuilder.Result result = build(yaml.toString());
    assertThat(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - start)
        .as("CPU nanoseconds of this thread").isLessThan(10_000_000_000L);
    assertThat(table(result, "rt-" + InputLimits.DEFAULT_MAX_DELEGATION_DEPTH).findings())
        .extracting(Finding::reason).contains(Reasons.DELEGATION_TOO_DEEP);
    assertThat(GlooFixtures.virtualService(result, "apps", "root").isAccepted()).isTrue();
    // Below the cut no VirtualService reaches the tables: what they inherit is unknown, so none is refused for it.
    assertThat(table(result, "rt-" + (depth - 1)).findings()).extracting(Finding::reason)
        .doesNotContain(Reasons.PREFIX_VIOLATION).contains(Reasons.NOT_DELEGATED);
    // The routes of the 32 tables served, every one on /root; the delegating routes are replaced by their tables'.
    assertThat(paths(result, "root")).hasSize(InputLimits.DEFAULT_MAX_DELEGATION_DEPTH)
        .containsOnly(new PathMatch.Prefix("/root", true));
  }

  @Test
  void aTableHandedMoreInheritedPathsThanTheBoundIsRejectedByName() {
    StringBuilder yaml = new StringBuilder();
    int parents = InputLimits.MAX_INHERITED_PATHS + 1;
    for (int i = 0; i < parents; i++) {
      yaml.append(virtualService("p" + i, "{matchers: [{prefix: /p" + i + "}], inheritablePathMatchers: true,"
          + " delegateAction: {ref: {name: shared}}}"));
    }
    yaml.append(table("shared", "{" + FORWARD + "}"));
    IrBuilder.Result result = build(yaml.toString());
    assertThat(table(result, "shared").findings()).extracting(Finding::reason)
        .contains(Reasons.TOO_MANY_INHERITED_PATHS);
    assertThat(GlooFixtures.virtualService(result, "apps", "p0").findings()).extracting(Finding::reason)
        .contains(Reasons.ROUTE_TABLE_REJECTED);
  }
}
