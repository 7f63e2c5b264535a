package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The options of a delegating route handed down to the routes it delegates to ({@link OptionInheritance}), through
 * the whole front end: group by group, the delegated route's own winning, along chains, per parent.
 */
class DelegatedOptionsTest {

  private static final ResourceKey WEB = ResourceKey.virtualService("default", "web");
  private static final ResourceKey API = ResourceKey.virtualService("default", "api");

  private static IrBuilder.Result lower(InputLimits limits, List<String> yamls) {
    List<String> all = new ArrayList<>(List.of(upstream("up", 9101), upstream("shadow", 9102),
        gateway("gw", 10080)));
    all.addAll(yamls);
    IrBuilder builder = new IrBuilder();
    new HoldfastFrontEnd(Clock.systemUTC(), limits).lower(config(all.toArray(String[]::new)), builder);
    return builder.build();
  }

  private static IrBuilder.Result lower(String... yamls) {
    return lower(InputLimits.DEFAULTS, List.of(yamls));
  }

  private static String vs(String name, String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s}
        spec:
          domains: ["*.%s.test"]  # wildcards: no gRPC clients, whose own warnings GrpcRulesTest covers
          routes:
        %s""".formatted(name, name, routes.indent(4));
  }

  private static String table(String name, String namespace, String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: %s, namespace: %s}
        spec:
          routes:
        %s""".formatted(name, namespace, routes.indent(4));
  }

  private static List<Route> routes(IrBuilder.Result result, ResourceKey vs) {
    return result.ir().listeners().stream().flatMap(l -> l.virtualHosts().stream())
        .filter(h -> h.origin().object().equals(vs)).findFirst().orElseThrow().routes();
  }

  private static Route route(IrBuilder.Result result, ResourceKey vs, String name) {
    return routes(result, vs).stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }

  private static RouteAction.ForwardPolicy policy(Route route) {
    return ((RouteAction.Forward) route.action()).policy();
  }

  private static List<Finding> problems(IrBuilder.Result result, ResourceKey key) {
    return result.statuses().get(key).findings();
  }

  @Test
  void theDelegatedRoutesTakeEveryOptionGroupTheyDoNotSetThemselves() {
    IrBuilder.Result result = lower(
        vs("web", """
            - match: {prefix: /a/}
              delegate: {ref: {name: a}}
              timeout: 3s
              retries: {attempts: 2, retryOn: [5xx]}
              prefixRewrite: /inner/
              options:
                headerManipulation: {requestHeadersToAdd: [{name: x-parent, value: '1'}]}
                cors: {allowOrigin: [https://app.example.test]}"""),
        table("a", "default", """
            - {name: plain, match: {prefix: /a/plain}, route: {upstream: up}}
            - name: own
              match: {prefix: /a/own}
              route: {upstream: up}
              timeout: 9s
              options:
                regexRewrite: {pattern: '^/a/own', substitution: /x}
                headerManipulation: {requestHeadersToAdd: [{name: x-child, value: '2'}]}"""));

    assertThat(problems(result, WEB)).isEmpty();
    Route plain = route(result, WEB, "default/a/plain");
    assertThat(policy(plain).timeout()).contains(Duration.ofSeconds(3));
    assertThat(policy(plain).retries()).hasValueSatisfying(r -> assertThat(r.attempts()).isEqualTo(2));
    assertThat(policy(plain).prefixRewrite()).contains("/inner/");
    assertThat(plain.headers().requestAdd()).extracting(h -> h.name()).containsExactly("x-parent");
    assertThat(plain.cors()).isPresent();

    Route own = route(result, WEB, "default/a/own");
    assertThat(policy(own).timeout()).as("its own timeout wins").contains(Duration.ofSeconds(9));
    assertThat(policy(own).retries()).as("a group it does not set").isPresent();
    assertThat(policy(own).prefixRewrite()).as("its regexRewrite is its path rewrite: not the parent's prefix one")
        .isEmpty();
    assertThat(policy(own).regexRewrite()).isPresent();
    assertThat(own.headers().requestAdd()).as("a group is replaced whole, not added to")
        .extracting(h -> h.name()).containsExactly("x-child");
  }

  @Test
  void aChainOfThreeMergesAtEveryLevelTheNearestSettingWinning() {
    IrBuilder.Result result = lower(
        vs("web", """
            - match: {prefix: /}
              delegate: {ref: {name: mid}}
              timeout: 5s
              options: {cors: {allowOrigin: [https://app.example.test]}, idleTimeout: 30s}"""),
        table("mid", "default", """
            - match: {prefix: /api/}
              delegate: {ref: {name: leaf}}
              timeout: 7s
              retries: {attempts: 3, retryOn: [reset]}"""),
        table("leaf", "default", """
            - {name: get, match: {prefix: /api/get}, route: {upstream: up}, options: {idleTimeout: 1s}}"""));

    assertThat(problems(result, WEB)).isEmpty();
    Route leaf = route(result, WEB, "default/leaf/get");
    assertThat(policy(leaf).timeout()).as("the parent's over the grandparent's").contains(Duration.ofSeconds(7));
    assertThat(policy(leaf).retries()).hasValueSatisfying(r -> assertThat(r.attempts()).isEqualTo(3));
    assertThat(leaf.cors()).as("from the grandparent, through a parent without one").isPresent();
    assertThat(policy(leaf).idleTimeout()).as("its own").contains(Duration.ofSeconds(1));
  }

  @Test
  void aTableReachedFromTwoParentsGetsEachParentsOptionsUnderIt() {
    String shared = table("shared", "default", "- {name: r, match: {prefix: /s/}, route: {upstream: up}}");
    IrBuilder.Result result = lower(
        vs("web", "- {match: {prefix: /s/}, delegate: {ref: {name: shared}}, timeout: 1s}"),
        vs("api", """
            - {match: {prefix: /s/}, delegate: {ref: {name: shared}}, timeout: 2s}
            - {match: {prefix: /}, delegate: {ref: {name: shared}}}"""),
        shared);

    assertThat(policy(route(result, WEB, "default/shared/r")).timeout()).contains(Duration.ofSeconds(1));
    List<Route> api = routes(result, API);
    assertThat(api).extracting(r -> policy(r).timeout())
        .containsExactly(Optional.of(Duration.ofSeconds(2)), Optional.empty());
  }

  @Test
  void aMirrorWithoutNamespaceMeansTheDelegatingObjectsUpstreamInAnotherNamespacesTable() {
    IrBuilder.Result result = lower(
        vs("web", """
            - match: {prefix: /t/}
              delegate: {ref: {name: team, namespace: team}}
              options: {mirror: {upstream: shadow}}"""),
        table("team", "team", "- {name: r, match: {prefix: /t/r}, route: {upstream: up, namespace: default}}"));

    assertThat(policy(route(result, WEB, "team/team/r")).mirror())
        .hasValueSatisfying(m -> assertThat(m.cluster()).isEqualTo(ResourceKey.upstream("default", "shadow")));
  }

  @Test
  void optionsOnADelegatingRouteAreNoLongerReportedAsIgnored() {
    IrBuilder.Result result = lower(
        vs("web", "- {match: {prefix: /a/}, delegate: {ref: {name: a}}, timeout: 1s, options: {idleTimeout: 2s}}"),
        table("a", "default", "- {match: {prefix: /a/}, route: {upstream: up}}"));
    assertThat(problems(result, WEB)).extracting(Finding::reason).doesNotContain(Reasons.FIELD_IGNORED);
  }

  @Test
  void aChainOf2000DelegatingRoutesWithOptionsMergesInLinearTimeWithoutGrowingTheOptions() {
    List<String> chain = new ArrayList<>();
    String options = "timeout: %ds,"
        + " options: {headerManipulation: {requestHeadersToAdd: [{name: x-level, value: '%d'}]}}";
    chain.add(vs("web", "- {match: {prefix: /}, delegate: {ref: {name: t1}}, " + options.formatted(1, 0) + "}"));
    for (int i = 1; i < 2000; i++) {
      chain.add(table("t" + i, "default", "- {match: {prefix: /}, delegate: {ref: {name: t" + (i + 1) + "}}, "
          + options.formatted(i % 60 + 1, i) + "}"));
    }
    chain.add(table("t2000", "default", "- {name: leaf, match: {prefix: /}, route: {upstream: up}}"));

    long start = cpuNanos();
    IrBuilder.Result raised = lower(InputLimits.DEFAULTS.withMaxDelegationDepth(3000), chain);
    assertThat(cpuNanos() - start).as("CPU nanoseconds of this thread").isLessThan(5_000_000_000L);
    Route leaf = route(raised, WEB, "default/t2000/leaf");
    assertThat(leaf.headers().requestAdd()).as("the nearest parent's group, not 2000 accumulated")
        .extracting(h -> h.value()).containsExactly("1999");
    assertThat(policy(leaf).timeout()).contains(Duration.ofSeconds(1999 % 60 + 1));

    IrBuilder.Result bounded = lower(InputLimits.DEFAULTS, chain);
    assertThat(problems(bounded, ResourceKey.routeTable("default", "t" + (InputLimits.DEFAULT_MAX_DELEGATION_DEPTH
        + 1)))).extracting(Finding::reason).contains(Reasons.DELEGATION_TOO_DEEP);
    assertThat(routes(bounded, WEB)).isEmpty();
  }

  private static long cpuNanos() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }
}
