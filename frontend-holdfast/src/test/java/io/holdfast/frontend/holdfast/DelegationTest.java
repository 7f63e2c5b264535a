package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteMatch;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** RouteTable delegation through the whole front end: statuses (with parents) and the flattened IR routes. */
class DelegationTest {

  private static final ResourceKey WEB = ResourceKey.virtualService("default", "web");
  private static final ResourceKey API = ResourceKey.virtualService("default", "api");
  private static final ResourceKey TEAM_A = ResourceKey.routeTable("default", "team-a");
  private static final ResourceKey A = ResourceKey.routeTable("default", "a");
  private static final ResourceKey B = ResourceKey.routeTable("default", "b");

  // Tests use wildcard domains unless they are about gRPC clients, which get warnings of their own (GrpcRules).
  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd();

  private static String vs(String name, String domain, String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s}
        spec:
          domains: [%s]
          routes:
        %s""".formatted(name, domain, routes.indent(4));
  }

  private static String table(String name, String extra, String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: %s%s}
        spec:
          routes:
        %s""".formatted(name, extra, routes.indent(4));
  }

  private IrBuilder.Result lower(String... yamls) {
    IrBuilder builder = new IrBuilder();
    String[] all = new String[yamls.length + 2];
    all[0] = upstream("up", 9101);
    all[1] = gateway("gw", 10080);
    System.arraycopy(yamls, 0, all, 2, yamls.length);
    frontEnd.lower(config(all), builder);
    return builder.build();
  }

  /** The routes of {@code vs}'s virtual host on the gateway's listener, as "name origin match". */
  private static List<String> routes(IrBuilder.Result result, ResourceKey vs) {
    Listener listener = result.ir().listeners().stream()
        .filter(l -> l.origin().object().equals(ResourceKey.gateway("default", "gw"))).findFirst().orElseThrow();
    return listener.virtualHosts().stream().filter(h -> h.origin().object().equals(vs)).findFirst().orElseThrow()
        .routes().stream().map(DelegationTest::describe).toList();
  }

  private static String describe(Route route) {
    RouteMatch match = route.match();
    String path = (match.path() instanceof RouteMatch.PathMatch.Prefix ? "prefix " : "exact ") + match.path().value()
        + (match.path().caseSensitive() ? "" : " any-case");
    String headers = match.headers().stream().map(RouteMatch.HeaderMatch::name).collect(Collectors.joining(","));
    return route.name() + " " + route.origin() + " " + path + (headers.isEmpty() ? "" : " headers=" + headers)
        + (match.methods().isEmpty() ? "" : " methods=" + match.methods());
  }

  private static List<String> findings(IrBuilder.Result result, ResourceKey key) {
    return result.statuses().get(key).findings().stream()
        .map(f -> f.severity() + " " + f.field() + " " + f.reason()).toList();
  }

  private static List<String> parents(IrBuilder.Result result, ResourceKey key) {
    return result.statuses().get(key).parents().stream().map(p -> p.parent() + " " + p.section().orElse("") + " "
        + p.conditions().get(0).status() + " " + p.conditions().get(0).reason()).toList();
  }

  @Test
  void aReferencedTableIsFlattenedInPlaceOfTheDelegatingRouteWithItsOwnOrigins() {
    IrBuilder.Result result = lower(
        vs("web", "web.test", """
            - {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}
            - {name: rest, match: {prefix: /}, route: {upstream: up}}"""),
        table("team-a", "", """
            - {name: api, match: {prefix: /team-a/api}, route: {upstream: up}}
            - {match: {exact: /team-a/health}, directResponse: {status: 200}}
            - {match: {headers: [{name: x-debug, present: true}]}, directResponse: {status: 204}}"""));

    assertThat(routes(result, WEB)).containsExactly(
        "default/team-a/api RouteTable/default/team-a:spec.routes[0] prefix /team-a/api",
        "default/team-a/routes[1] RouteTable/default/team-a:spec.routes[1] exact /team-a/health",
        "default/team-a/routes[2] RouteTable/default/team-a:spec.routes[2] prefix /team-a/ headers=x-debug",
        "rest VirtualService/default/web:spec.routes[1] prefix /");
    assertThat(result.statuses().get(TEAM_A).isAccepted()).isTrue();
    // Its routes reach gRPC clients of web.test like the VirtualService's own would.
    assertThat(findings(result, TEAM_A)).containsExactly(
        "WARNING spec.routes[1].directResponse " + Reasons.GRPC_NON_FORWARDING_ROUTE,
        "WARNING spec.routes[2].directResponse " + Reasons.GRPC_NON_FORWARDING_ROUTE);
    assertThat(parents(result, TEAM_A)).containsExactly("VirtualService/default/web spec.routes[0] TRUE Accepted");
    assertThat(result.statuses().get(WEB).findings()).isEmpty();
    // The gRPC client listener of web.test gets the same flattened routes.
    assertThat(result.ir().listeners()).filteredOn(l -> l instanceof Listener.ClientApi).singleElement()
        .satisfies(l -> assertThat(l.virtualHosts().get(0).routes()).hasSize(4));
  }

  @Test
  void parentHeadersAreAddedAndMethodsIntersectedAndARouteNoMethodCanMatchIsLeftOut() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - match: {prefix: /team-a/, headers: [{name: X-Team, exact: a}], methods: [GET, POST]}
              delegate: {ref: {name: team-a}}"""),
        table("team-a", "", """
            - {name: post, match: {prefix: /team-a/p, headers: [{name: x-kind, exact: k}], methods: [POST, PUT]},
               route: {upstream: up}}
            - {name: put, match: {prefix: /team-a/q, methods: [PUT]}, route: {upstream: up}}
            - {name: any, match: {prefix: /team-a/r}, route: {upstream: up}}"""));

    assertThat(routes(result, WEB)).containsExactly(
        "default/team-a/post RouteTable/default/team-a:spec.routes[0] prefix /team-a/p headers=x-team,x-kind"
            + " methods=[POST]",
        "default/team-a/any RouteTable/default/team-a:spec.routes[2] prefix /team-a/r headers=x-team"
            + " methods=[GET, POST]");
    assertThat(findings(result, TEAM_A))
        .containsExactly("WARNING spec.routes[1].match.methods " + Reasons.CONFLICTING_MATCHER);
    assertThat(result.statuses().get(TEAM_A).isAccepted()).isTrue();
  }

  @Test
  void theVirtualServiceDefaultsAndQueryParametersReachDelegatedRoutes() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - match: {prefix: /team-a/, queryParameters: [{name: tenant, present: true}]}
              delegate: {ref: {name: team-a}}
              options: {cors: {allowOrigin: [o.test]}}""")
            + "  options: {headerManipulation: {responseHeadersToRemove: [server]}}\n",
        table("team-a", "", """
            - {name: q, match: {prefix: /team-a/q, queryParameters: [{name: v, exact: '2'}]}, route: {upstream: up},
               options: {headerManipulation: {responseHeadersToAdd: [{name: x-team, value: a}]}}}"""));

    Listener listener = result.ir().listeners().get(0);
    Route route = listener.virtualHosts().get(0).routes().get(0);
    assertThat(route.match().queryParameters()).extracting(q -> q.name()).containsExactly("tenant", "v");
    assertThat(route.headers().responseRemove()).containsExactly("server");
    assertThat(route.headers().responseAdd()).extracting(h -> h.name()).containsExactly("x-team");
    assertThat(route.cors()).as("the delegating route's options are handed down (DelegatedOptionsTest)").isPresent();
    assertThat(findings(result, WEB)).isEmpty();
  }

  @Test
  void aSelectorPicksTablesByLabelInItsNamespaceOrderedByWeightThenKey() {
    String teams = "- {match: {prefix: /teams/}, delegate: {selector: {matchLabels: {tier: teams}}}}";
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", teams),
        table("t1", ", labels: {tier: teams}", "- {match: {prefix: /teams/1}, directResponse: {status: 200}}")
            + "  weight: 10\n",
        table("t2", ", labels: {tier: teams}", "- {match: {prefix: /teams/2}, directResponse: {status: 200}}")
            + "  weight: -1\n",
        table("t4", ", labels: {tier: teams}", "- {match: {prefix: /teams/4}, directResponse: {status: 200}}"),
        table("t3", ", labels: {tier: teams}", "- {match: {prefix: /teams/3}, directResponse: {status: 200}}"),
        table("other", ", labels: {tier: other}", "- {match: {prefix: /teams/x}, directResponse: {status: 200}}"),
        table("far", ", namespace: far, labels: {tier: teams}",
            "- {match: {prefix: /teams/far}, directResponse: {status: 200}}"));

    assertThat(routes(result, WEB)).extracting(r -> r.split(" ")[0]).containsExactly(
        "default/t2/routes[0]", "default/t3/routes[0]", "default/t4/routes[0]", "default/t1/routes[0]");
    assertThat(findings(result, ResourceKey.routeTable("default", "other")))
        .containsExactly("NOTE  " + Reasons.NOT_DELEGATED);
    assertThat(findings(result, ResourceKey.routeTable("far", "far")))
        .containsExactly("NOTE  " + Reasons.NOT_DELEGATED);
    assertThat(ResourceStatus.of(result.statuses().get(ResourceKey.routeTable("far", "far"))).state())
        .isEqualTo(ResourceStatus.State.WARNING);

    IrBuilder.Result everywhere = lower(
        vs("web", "web.test",
            "- {match: {prefix: /teams/}, delegate: {selector: {matchLabels: {tier: teams}, namespaces: ['*']}}}"),
        table("t1", ", labels: {tier: teams}", "- {match: {prefix: /teams/1}, directResponse: {status: 200}}"),
        table("far", ", namespace: far, labels: {tier: teams}",
            "- {match: {prefix: /teams/far}, directResponse: {status: 200}}"));
    assertThat(routes(everywhere, WEB)).extracting(r -> r.split(" ")[0])
        .containsExactly("default/t1/routes[0]", "far/far/routes[0]");

    IrBuilder.Result none = lower(vs("web", "web.test",
        "- {match: {prefix: /teams/}, delegate: {selector: {matchLabels: {tier: nobody}}}}"));
    assertThat(findings(none, WEB))
        .containsExactly("WARNING spec.routes[0].delegate.selector " + Reasons.NO_ROUTE_TABLES);
    assertThat(routes(none, WEB)).isEmpty();
  }

  @Test
  void nestedTablesAreFlattenedDepthFirstAndInheritTheWholeChainsHeaders() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - {match: {prefix: /a/, headers: [{name: x-1, present: true}]}, delegate: {ref: {name: a}}}"""),
        table("a", "", """
            - {match: {prefix: /a/b/, headers: [{name: x-2, present: true}]}, delegate: {ref: {name: b}}}
            - {name: x, match: {prefix: /a/x}, directResponse: {status: 200}}"""),
        table("b", "", """
            - {name: c, match: {prefix: /a/b/c}, directResponse: {status: 200}}"""));

    assertThat(routes(result, WEB)).containsExactly(
        "default/b/c RouteTable/default/b:spec.routes[0] prefix /a/b/c headers=x-1,x-2",
        "default/a/x RouteTable/default/a:spec.routes[1] prefix /a/x headers=x-1");
    assertThat(parents(result, B)).containsExactly("RouteTable/default/a spec.routes[0] TRUE Accepted");
  }

  @Test
  void routesLeavingThePrefixArePrunedAndReportedOnTheTableWhileItsOtherRoutesAreServed() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}
            - {name: rest, match: {prefix: /}, route: {upstream: up}}"""),
        table("team-a", "", """
            - {match: {prefix: /team-a/ok}, directResponse: {status: 200}}
            - {match: {prefix: /team-b/steal}, directResponse: {status: 200}}
            - {match: {regex: /team-a/.*}, directResponse: {status: 200}}
            - {match: {exact: /}, directResponse: {status: 200}}"""));

    ObjectStatus status = result.statuses().get(TEAM_A);
    assertThat(status.isAccepted()).isTrue();
    assertThat(status.findings()).extracting(Finding::severity, Finding::field, Finding::reason).containsExactly(
        tuple(Finding.Severity.WARNING, "spec.routes[1].match.prefix", Reasons.PREFIX_VIOLATION),
        tuple(Finding.Severity.WARNING, "spec.routes[2].match.regex", Reasons.PREFIX_VIOLATION),
        tuple(Finding.Severity.WARNING, "spec.routes[3].match.exact", Reasons.PREFIX_VIOLATION));
    assertThat(status.findings().get(0).message())
        .isEqualTo("prefix /team-b/steal is not under the delegated prefix /team-a/ of VirtualService/default/web"
            + " spec.routes[0]; this route is pruned under it, the table's other routes are served");
    assertThat(parents(result, TEAM_A))
        .containsExactly("VirtualService/default/web spec.routes[0] TRUE Accepted");
    assertThat(status.parents().get(0).conditions().get(0).message()).contains("except 3 route(s)",
        "spec.routes[1], spec.routes[2], spec.routes[3]");
    assertThat(findings(result, WEB)).isEmpty();
    assertThat(routes(result, WEB)).containsExactly(
        "default/team-a/routes[0] RouteTable/default/team-a:spec.routes[0] prefix /team-a/ok",
        "rest VirtualService/default/web:spec.routes[1] prefix /");
  }

  @Test
  void oneBadRouteOfThreeIsPrunedAndTheOtherTwoAreServed() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}"),
        table("team-a", "", """
            - {name: one, match: {prefix: /team-a/1}, route: {upstream: up}}
            - {name: bad, match: {prefix: /elsewhere}, route: {upstream: up}}
            - {name: three, match: {exact: /team-a/3}, route: {upstream: up}}"""));

    assertThat(result.statuses().get(TEAM_A).isAccepted()).isTrue();
    assertThat(findings(result, TEAM_A)).containsExactly("WARNING spec.routes[1].match.prefix "
        + Reasons.PREFIX_VIOLATION);
    assertThat(routes(result, WEB)).containsExactly(
        "default/team-a/one RouteTable/default/team-a:spec.routes[0] prefix /team-a/1",
        "default/team-a/three RouteTable/default/team-a:spec.routes[2] exact /team-a/3");
  }

  @Test
  void aTableValidUnderOneParentAndPartlyInvalidUnderAnotherIsReportedPerParent() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /}, delegate: {ref: {name: team-a}}}"),
        vs("api", "'*.api.test'", "- {match: {prefix: /x/}, delegate: {ref: {name: team-a}}}"),
        table("team-a", "", """
            - {name: in, match: {prefix: /x/in}, route: {upstream: up}}
            - {name: out, match: {prefix: /y/out}, route: {upstream: up}}"""));

    assertThat(result.statuses().get(TEAM_A).isAccepted()).isTrue();
    assertThat(parents(result, TEAM_A)).containsExactly(
        "VirtualService/default/api spec.routes[0] TRUE Accepted",
        "VirtualService/default/web spec.routes[0] TRUE Accepted");
    assertThat(result.statuses().get(TEAM_A).findings()).extracting(Finding::field, Finding::message)
        .containsExactly(tuple("spec.routes[1].match.prefix", "prefix /y/out is not under the delegated prefix /x/"
            + " of VirtualService/default/api spec.routes[0]; this route is pruned under it, the table's other"
            + " routes are served"));
    assertThat(routes(result, WEB)).extracting(r -> r.split(" ")[0])
        .containsExactly("default/team-a/in", "default/team-a/out");
    assertThat(routes(result, API)).extracting(r -> r.split(" ")[0]).containsExactly("default/team-a/in");
  }

  @Test
  void aPrunedDelegatingRouteHandsNothingDownAndItsTableSaysWhy() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /a/}, delegate: {ref: {name: a}}}"),
        table("a", "", """
            - {match: {prefix: /z/}, delegate: {ref: {name: b}}}
            - {name: kept, match: {prefix: /a/kept}, route: {upstream: up}}"""),
        table("b", "", "- {name: c, match: {prefix: /z/c}, route: {upstream: up}}"));

    assertThat(findings(result, A)).containsExactly("WARNING spec.routes[0].match.prefix "
        + Reasons.PREFIX_VIOLATION);
    assertThat(parents(result, B)).containsExactly("RouteTable/default/a spec.routes[0] FALSE "
        + Reasons.PREFIX_VIOLATION);
    assertThat(findings(result, B)).containsExactly("NOTE  " + Reasons.NOT_DELEGATED);
    assertThat(routes(result, WEB)).extracting(r -> r.split(" ")[0]).containsExactly("default/a/kept");
  }

  @Test
  void aTableNoRouteOfWhichIsServedStaysAcceptedAndSaysSoAsGlooDoes() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}
            - {name: rest, match: {prefix: /}, route: {upstream: up}}"""),
        table("team-a", "", "- {match: {prefix: /team-b/}, route: {upstream: up}}"));

    assertThat(result.statuses().get(TEAM_A).isAccepted()).isTrue();
    assertThat(findings(result, TEAM_A)).containsExactly(
        "WARNING spec.routes[0].match.prefix " + Reasons.PREFIX_VIOLATION,
        "WARNING spec.routes " + Reasons.PREFIX_VIOLATION);
    assertThat(parents(result, TEAM_A))
        .containsExactly("VirtualService/default/web spec.routes[0] FALSE " + Reasons.PREFIX_VIOLATION);
    assertThat(findings(result, WEB))
        .containsExactly("WARNING spec.routes[0].delegate " + Reasons.ROUTE_TABLE_REJECTED);
    assertThat(routes(result, WEB)).containsExactly("rest VirtualService/default/web:spec.routes[1] prefix /");
  }

  @Test
  void aTableOfTenThousandRoutesAllLeavingThePrefixGivesABoundedNumberOfFindings() {
    // 9,999 routes and the delegating one: the most a virtual host takes by default (pruned routes count too).
    int count = io.holdfast.api.InputLimits.DEFAULT_MAX_ROUTES_PER_VIRTUAL_HOST - 1;
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < count; i++) {
      many.append("- {match: {prefix: /out/").append(i).append("}, route: {upstream: up}}\n");
    }
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}"),
        table("team-a", "", many.toString()));

    List<Finding> found = result.statuses().get(TEAM_A).findings();
    assertThat(found).hasSize(DelegationRules.MAX_REPORTED_PRUNED + 2);
    assertThat(found.get(DelegationRules.MAX_REPORTED_PRUNED).message()).startsWith(
        (count - DelegationRules.MAX_REPORTED_PRUNED) + " more route(s) leave the prefix");
    assertThat(result.statuses().get(WEB).isAccepted()).isTrue();
    assertThat(result.statuses().get(TEAM_A).parents().get(0).conditions().get(0).message().length())
        .isLessThan(400);
    assertThat(routes(result, WEB)).isEmpty();
  }

  @Test
  void aTableReachedFromSeveralParentsHasOneParentStatusEachAndIsServedWhereItFits() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /shared/}, delegate: {ref: {name: team-a}}}"),
        vs("api", "'*.api.test'", """
            - {match: {prefix: /other/}, delegate: {ref: {name: team-a}}}
            - {match: {prefix: /}, delegate: {ref: {name: team-a}}}"""),
        table("team-a", "", "- {name: x, match: {prefix: /shared/x}, directResponse: {status: 200}}"));

    assertThat(parents(result, TEAM_A)).containsExactly(
        "VirtualService/default/api spec.routes[0] FALSE " + Reasons.PREFIX_VIOLATION,
        "VirtualService/default/api spec.routes[1] TRUE Accepted",
        "VirtualService/default/web spec.routes[0] TRUE Accepted");
    ObjectStatus status = result.statuses().get(TEAM_A);
    assertThat(status.isAccepted()).isTrue();
    assertThat(findings(result, TEAM_A)).containsExactly("WARNING spec.routes[0].match.prefix "
        + Reasons.PREFIX_VIOLATION);
    assertThat(routes(result, WEB)).containsExactly(
        "default/team-a/x RouteTable/default/team-a:spec.routes[0] prefix /shared/x");
    assertThat(routes(result, API)).containsExactly(
        "default/team-a/x RouteTable/default/team-a:spec.routes[0] prefix /shared/x");
    assertThat(findings(result, API))
        .containsExactly("WARNING spec.routes[0].delegate " + Reasons.ROUTE_TABLE_REJECTED);
  }

  @Test
  void theSameTableTwiceInOneHostGetsDistinctRouteNames() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - {match: {prefix: /shared/, headers: [{name: x-a, present: true}]}, delegate: {ref: {name: team-a}}}
            - {match: {prefix: /shared/}, delegate: {ref: {name: team-a}}}"""),
        table("team-a", "", "- {name: x, match: {prefix: /shared/x}, directResponse: {status: 200}}"));
    assertThat(routes(result, WEB)).extracting(r -> r.split(" ")[0])
        .containsExactly("default/team-a/x", "default/team-a/x#2");
  }

  @Test
  void aCycleIsRejectedOnTheTableThatClosesItWithThePathInTheMessage() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /a/}, delegate: {ref: {name: a}}}"),
        table("a", "", """
            - {match: {prefix: /a/b/}, delegate: {ref: {name: b}}}
            - {name: x, match: {prefix: /a/x}, directResponse: {status: 200}}"""),
        table("b", "", """
            - {match: {prefix: /a/b/loop/}, delegate: {ref: {name: a}}}
            - {name: y, match: {prefix: /a/b/y}, directResponse: {status: 200}}"""));

    ObjectStatus b = result.statuses().get(B);
    assertThat(b.isAccepted()).isFalse();
    assertThat(b.findings()).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(Reasons.DELEGATION_CYCLE);
      assertThat(f.field()).isEqualTo("spec.routes[0].delegate");
      assertThat(f.message()).contains("VirtualService/default/web -> RouteTable/default/a -> RouteTable/default/b"
          + " -> RouteTable/default/a");
    });
    assertThat(result.statuses().get(A).isAccepted()).isTrue();
    assertThat(findings(result, A)).containsExactly("WARNING spec.routes[0].delegate " + Reasons.ROUTE_TABLE_REJECTED);
    assertThat(routes(result, WEB)).containsExactly("default/a/x RouteTable/default/a:spec.routes[1] prefix /a/x");
  }

  @Test
  void aTableDelegatingToItselfIsACycle() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /a/}, delegate: {ref: {name: a}}}"),
        table("a", ", labels: {team: a}", """
            - {name: x, match: {prefix: /a/x}, directResponse: {status: 200}}
            - {match: {prefix: /a/self/}, delegate: {selector: {matchLabels: {team: a}}}}"""));

    assertThat(result.statuses().get(A).findings()).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(Reasons.DELEGATION_CYCLE);
      assertThat(f.message()).contains("RouteTable/default/a -> RouteTable/default/a");
    });
    assertThat(findings(result, WEB))
        .containsExactly("WARNING spec.routes[0].delegate " + Reasons.ROUTE_TABLE_REJECTED);
    assertThat(routes(result, WEB)).isEmpty();
  }

  @Test
  void aMissingReferenceRejectsTheDelegatingObject() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /a/}, delegate: {ref: {name: nope}}}"),
        table("a", "", "- {match: {prefix: /a/}, delegate: {ref: {name: gone, namespace: elsewhere}}}"));
    assertThat(result.statuses().get(WEB).isAccepted()).isFalse();
    assertThat(findings(result, WEB)).containsExactly("ERROR spec.routes[0].delegate.ref " + Reasons.ROUTE_TABLE_NOT_FOUND);
    assertThat(result.statuses().get(WEB).findings().get(0).message())
        .isEqualTo("RouteTable/default/nope does not exist");
    assertThat(findings(result, A)).containsExactly("ERROR spec.routes[0].delegate.ref " + Reasons.ROUTE_TABLE_NOT_FOUND);
  }

  @Test
  void aDelegatingRouteNeedsAPrefix() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - {match: {exact: /a}, delegate: {ref: {name: a}}}
            - {match: {headers: [{name: x, present: true}]}, delegate: {ref: {name: a}}}
            - {match: {prefix: /}, delegate: {selector: {namespaces: [Bad]}}}"""),
        table("a", "", "- {match: {prefix: /a}, directResponse: {status: 200}}"));
    assertThat(findings(result, WEB)).containsExactly(
        "ERROR spec.routes[0].match " + Reasons.INVALID_DELEGATE_MATCH,
        "ERROR spec.routes[1].match " + Reasons.INVALID_DELEGATE_MATCH,
        "ERROR spec.routes[2].delegate.selector.namespaces[0] " + Reasons.INVALID_NAME);
    assertThat(findings(result, A)).containsExactly("NOTE  " + Reasons.NOT_DELEGATED);
  }

  @Test
  void aBrokenEditOfATableKeepsItsLastAcceptedVersionServed() {
    String web = vs("web", "'*.web.test'", "- {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}");
    lower(web, table("team-a", "", "- {name: v1, match: {prefix: /team-a/v1}, directResponse: {status: 200}}"));

    // A route leaving the prefix no longer breaks the edit: it is pruned and the rest of the new version served.
    IrBuilder.Result pruned = lower(web, table("team-a", "", """
        - {name: v2, match: {prefix: /team-a/v2}, directResponse: {status: 200}}
        - {name: steal, match: {prefix: /team-b/}, directResponse: {status: 200}}"""));
    assertThat(pruned.statuses().get(TEAM_A).isAccepted()).isTrue();
    assertThat(findings(pruned, TEAM_A)).containsExactly("WARNING spec.routes[1].match.prefix "
        + Reasons.PREFIX_VIOLATION);
    assertThat(routes(pruned, WEB)).containsExactly(
        "default/team-a/v2 RouteTable/default/team-a:spec.routes[0] prefix /team-a/v2");

    IrBuilder.Result ownRule = lower(web, table("team-a", "", """
        - {name: v3, match: {regex: '(a'}, directResponse: {status: 200}}"""));
    assertThat(findings(ownRule, TEAM_A)).containsExactly(
        "ERROR spec.routes[0].match.regex " + Reasons.INVALID_REGEX, "NOTE  " + Reasons.SERVING_LAST_ACCEPTED);
    assertThat(routes(ownRule, WEB)).extracting(r -> r.split(" ")[0]).containsExactly("default/team-a/v2");
  }

  @Test
  void parentStatusesCarryTheTablesGeneration() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", "- {match: {prefix: /a/}, delegate: {ref: {name: a}}}"),
        """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: a, generation: 7}
        spec: {routes: [{match: {prefix: /a/x}, directResponse: {status: 200}}]}
        """);
    ParentStatus parent = result.statuses().get(A).parents().get(0);
    assertThat(parent.parent()).isEqualTo(WEB);
    assertThat(parent.section()).isEqualTo(Optional.of("spec.routes[0]"));
    assertThat(parent.conditions().get(0).observedGeneration()).isEqualTo(7);
  }

  @Test
  void aCaseInsensitivePrefixContainsChildrenIgnoringCaseAndHandsItsCaseRuleToPathlessOnes() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - {match: {prefix: /Team-A/, caseSensitive: false}, delegate: {ref: {name: team-a}}}"""),
        table("team-a", "", """
            - {name: upper, match: {prefix: /TEAM-A/x}, route: {upstream: up}}
            - {name: any, match: {exact: /team-a/y, caseSensitive: false}, route: {upstream: up}}
            - {name: rest, match: {headers: [{name: x-debug, present: true}]}, route: {upstream: up}}"""));

    assertThat(result.statuses().get(TEAM_A).isAccepted()).isTrue();
    assertThat(routes(result, WEB)).containsExactly(
        "default/team-a/upper RouteTable/default/team-a:spec.routes[0] prefix /TEAM-A/x",
        "default/team-a/any RouteTable/default/team-a:spec.routes[1] exact /team-a/y any-case",
        "default/team-a/rest RouteTable/default/team-a:spec.routes[2] prefix /Team-A/ any-case headers=x-debug");
  }

  @Test
  void aCaseInsensitiveChildUnderACaseSensitivePrefixWithLettersLeavesItAndIsPruned() {
    IrBuilder.Result result = lower(
        vs("web", "'*.web.test'", """
            - {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}
            - {match: {prefix: /2/}, delegate: {ref: {name: a}}}
            - {match: {prefix: /b/, caseSensitive: false}, delegate: {ref: {name: b}}}"""),
        table("team-a", "", """
            - {match: {prefix: /team-a/x, caseSensitive: false}, route: {upstream: up}}"""),
        // No letter in the parent's prefix: ignoring case cannot take the child outside it.
        table("a", "", "- {name: x, match: {prefix: /2/x, caseSensitive: false}, route: {upstream: up}}"),
        table("b", "", "- {match: {prefix: /c/x}, route: {upstream: up}}"));

    ObjectStatus status = result.statuses().get(TEAM_A);
    assertThat(status.isAccepted()).isTrue();
    assertThat(status.findings()).extracting(Finding::field, Finding::reason).containsExactly(
        tuple("spec.routes[0].match.caseSensitive", Reasons.PREFIX_VIOLATION),
        tuple("spec.routes", Reasons.PREFIX_VIOLATION));
    assertThat(status.findings().get(0).message()).isEqualTo("prefix /team-a/x ignores case, so it would also take"
        + " paths outside the case-sensitive delegated prefix /team-a/ of VirtualService/default/web spec.routes[0];"
        + " this route is pruned under it, the table's other routes are served");
    assertThat(result.statuses().get(A).isAccepted()).isTrue();
    assertThat(result.statuses().get(B).findings()).extracting(Finding::field, Finding::message).startsWith(
        tuple("spec.routes[0].match.prefix", "prefix /c/x is not under the case-insensitive delegated prefix /b/ of"
            + " VirtualService/default/web spec.routes[2]; this route is pruned under it, the table's other routes"
            + " are served"));
    assertThat(routes(result, WEB)).containsExactly(
        "default/a/x RouteTable/default/a:spec.routes[0] prefix /2/x any-case");
  }
}
