package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Options on a Gloo delegating route, merged into the delegated routes as Gloo's route converter does
 * ({@code ShallowMergeRouteOptions(child, parent)}: each top-level field the child leaves unset is the parent's,
 * along the whole chain), and Gloo's matcher inheritance flags.
 */
class GlooDelegatedOptionsTest {

  static final String GATEWAY = """
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec: {bindPort: 8080, httpGateway: {}}
      """;

  static final String UPSTREAM = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: pets, namespace: apps}
      spec:
        static: {hosts: [{addr: 192.0.2.30, port: 8080}]}
      ---
      """;

  static final String HOLDFAST_UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: pets, namespace: apps}
      spec:
        static: {hosts: [{address: 192.0.2.30, port: 8080}]}
      ---
      """;

  private static final String HOLDFAST_GATEWAY = """
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec:
        options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
        bindAddress: '::'
        port: 8080
        virtualServices: [{name: animals}]
      """;

  /** Three levels, options on both delegating routes; the leaf's routes set some groups of their own. */
  private static final String GLOO_CHAIN = UPSTREAM + """
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: animals, namespace: gloo-system}
      spec:
        virtualHost:
          domains: [animals.example.test]
          routes:
          - matchers: [{prefix: /pets}]
            options:
              timeout: 5s
              retries: {retryOn: '5xx', numRetries: 2}
              headerManipulation:
                requestHeadersToAdd: [{header: {key: x-from, value: vs}}]
            delegateAction: {ref: {name: pets-mid, namespace: apps}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: RouteTable
      metadata: {name: pets-mid, namespace: apps}
      spec:
        routes:
        - matchers: [{prefix: /pets/api}]
          options:
            prefixRewrite: /api
            timeout: 7s
          delegateAction: {ref: {name: pets-leaf}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: RouteTable
      metadata: {name: pets-leaf, namespace: apps}
      spec:
        routes:
        - name: search
          matchers: [{prefix: /pets/api/search}]
          options:
            timeout: 1s
          routeAction: {single: {upstream: {name: pets}}}
        - name: all
          matchers: [{prefix: /pets/api}]
          options:
            headerManipulation:
              requestHeadersToAdd: [{header: {key: x-from, value: leaf}}]
          routeAction: {single: {upstream: {name: pets}}}
      """ + GATEWAY;

  @Test
  void aThreeLevelChainServesWhatTheRoutesWouldWithTheMergedOptionsWrittenOnThem() {
    // Gloo's merge, written out by hand on each leaf route: own groups, then the parent's, then the grandparent's.
    String flattened = HOLDFAST_UPSTREAM + """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: animals, namespace: gloo-system}
        spec:
          domains: [animals.example.test]
          routes:
          - match: {prefix: /pets}
            delegate: {ref: {name: pets-mid, namespace: apps}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: pets-mid, namespace: apps}
        spec:
          routes:
          - match: {prefix: /pets/api}
            delegate: {ref: {name: pets-leaf}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: pets-leaf, namespace: apps}
        spec:
          routes:
          - name: search
            match: {prefix: /pets/api/search}
            route: {upstream: pets}
            timeout: 1s
            retries: {attempts: 2, retryOn: [5xx]}
            prefixRewrite: /api
            options:
              headerManipulation:
                requestHeadersToAdd: [{name: x-from, value: vs}]
          - name: all
            match: {prefix: /pets/api}
            route: {upstream: pets}
            timeout: 7s
            retries: {attempts: 2, retryOn: [5xx]}
            prefixRewrite: /api
            options:
              headerManipulation:
                requestHeadersToAdd: [{name: x-from, value: leaf}]
        """ + HOLDFAST_GATEWAY;
    Equivalence.assertSameXds(GlooFixtures.load(GLOO_CHAIN), GlooFixtures.load(flattened), Map.of());
  }

  @Test
  void aChainIsAlsoWhatHoldfastsOwnDelegationServesWithTheOptionsOnTheDelegatingRoutes() {
    String holdfast = HOLDFAST_UPSTREAM + """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: animals, namespace: gloo-system}
        spec:
          domains: [animals.example.test]
          routes:
          - match: {prefix: /pets}
            delegate: {ref: {name: pets-mid, namespace: apps}}
            timeout: 5s
            retries: {attempts: 2, retryOn: [5xx]}
            options:
              headerManipulation:
                requestHeadersToAdd: [{name: x-from, value: vs}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: pets-mid, namespace: apps}
        spec:
          routes:
          - match: {prefix: /pets/api}
            delegate: {ref: {name: pets-leaf}}
            prefixRewrite: /api
            timeout: 7s
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: pets-leaf, namespace: apps}
        spec:
          routes:
          - {name: search, match: {prefix: /pets/api/search}, route: {upstream: pets}, timeout: 1s}
          - name: all
            match: {prefix: /pets/api}
            route: {upstream: pets}
            options:
              headerManipulation:
                requestHeadersToAdd: [{name: x-from, value: leaf}]
        """ + HOLDFAST_GATEWAY;
    Equivalence.assertSameXds(GlooFixtures.load(GLOO_CHAIN), GlooFixtures.load(holdfast), Map.of());
  }

  private static String parent(String name, String timeout) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [%s.example.test]
            routes:
            - matchers: [{prefix: /shared}]
              options: {timeout: %s, prefixRewrite: /%s}
              delegateAction: {ref: {name: shared, namespace: apps}}
        ---
        """.formatted(name, name, timeout, name);
  }

  private static List<Route> routes(IrBuilder.Result result, String vs) {
    ResourceKey key = new ResourceKey(GlooKinds.GATEWAY_GROUP, GlooKinds.VIRTUAL_SERVICE, "gloo-system", vs);
    return result.ir().listeners().stream().flatMap(l -> l.virtualHosts().stream())
        .filter(h -> h.origin().object().equals(key)).findFirst().orElseThrow().routes();
  }

  private static RouteAction.ForwardPolicy policy(Route route) {
    return ((RouteAction.Forward) route.action()).policy();
  }

  @Test
  void aRouteTableUnderTwoParentsGetsEachParentsOptionsAndIsNotChangedForTheOther() {
    String yaml = UPSTREAM + parent("one", "1s") + parent("two", "2s") + """
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: shared, namespace: apps}
        spec:
          routes:
          - matchers: [{prefix: /shared/own}]
            options: {prefixRewrite: /mine}
            routeAction: {single: {upstream: {name: pets}}}
          - matchers: [{prefix: /shared}]
            routeAction: {single: {upstream: {name: pets}}}
        """ + GATEWAY;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isAccepted()).as("%s", s).isTrue());
    assertThat(routes(result, "one")).extracting(r -> policy(r).timeout(), r -> policy(r).prefixRewrite())
        .containsExactly(tuple(Optional.of(Duration.ofSeconds(1)), Optional.of("/mine")),
            tuple(Optional.of(Duration.ofSeconds(1)), Optional.of("/one")));
    assertThat(routes(result, "two")).extracting(r -> policy(r).timeout(), r -> policy(r).prefixRewrite())
        .containsExactly(tuple(Optional.of(Duration.ofSeconds(2)), Optional.of("/mine")),
            tuple(Optional.of(Duration.ofSeconds(2)), Optional.of("/two")));
  }

  private static ObjectStatus onlyVirtualService(String route) {
    String yaml = UPSTREAM + """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: vs, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - %s
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: rt, namespace: gloo-system}
        spec:
          routes:
          - matchers: [{prefix: /a/b, headers: [{name: x-team, value: a}]}]
            routeAction: {single: {upstream: {name: pets, namespace: apps}}}
        """.formatted(route) + GATEWAY;
    return GlooFixtures.virtualService(GlooFixtures.build(GlooFixtures.load(yaml)), "gloo-system", "vs");
  }

  @Test
  void inheritableMatchersIsReadAndInheritablePathMatchersTrueIsServed() {
    ObjectStatus matchers = onlyVirtualService("{matchers: [{prefix: /a, headers: [{name: x-team, value: a}]}],"
        + " inheritableMatchers: true, inheritablePathMatchers: false, delegateAction: {ref: {name: rt}}}");
    assertThat(matchers.isAccepted()).as("%s", matchers.findings()).isTrue();
    assertThat(matchers.findings()).isEmpty();

    // GlooInheritedPathTest shows what it serves.
    ObjectStatus path = onlyVirtualService("{matchers: [{prefix: /a}], inheritablePathMatchers: true,"
        + " delegateAction: {ref: {name: rt}}}");
    assertThat(path.isAccepted()).as("%s", path.findings()).isTrue();
    assertThat(path.findings()).isEmpty();
  }

  @Test
  void aDeepChainWithOptionsOnEveryLevelIsCutAtTheDepthLimitQuickly() {
    StringBuilder yaml = new StringBuilder(UPSTREAM + """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: root, namespace: apps}
        spec:
          virtualHost:
            routes: [{matchers: [{prefix: /}], options: {timeout: 1s}, delegateAction: {ref: {name: rt-0}}}]
        """);
    int depth = 1000;
    for (int i = 0; i < depth; i++) {
      String action = i == depth - 1 ? "routeAction: {single: {upstream: {name: pets}}}"
          : "delegateAction: {ref: {name: rt-" + (i + 1) + "}}";
      yaml.append("""
          ---
          apiVersion: gateway.solo.io/v1
          kind: RouteTable
          metadata: {name: rt-%d, namespace: apps}
          spec:
            routes:
            - matchers: [{prefix: /}]
              options: {timeout: %ds, headerManipulation: {requestHeadersToAdd: [{header: {key: x-l, value: '%d'}}]}}
              %s
          """.formatted(i, i % 50 + 1, i, action));
    }
    yaml.append(GATEWAY);
    long start = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml.toString()));
    assertThat(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - start)
        .as("CPU nanoseconds of this thread").isLessThan(10_000_000_000L);
    ObjectStatus tooDeep = GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE, "apps",
        "rt-" + io.holdfast.api.InputLimits.DEFAULT_MAX_DELEGATION_DEPTH);
    assertThat(tooDeep.findings()).extracting(Finding::reason)
        .contains(io.holdfast.api.Reasons.DELEGATION_TOO_DEEP);
    assertThat(GlooFixtures.virtualService(result, "apps", "root").isAccepted()).isTrue();
  }

  @Test
  void authorisationAndRateLimitsOfADelegatingRouteReachItsDelegatedRoutesAsGlooMergesThem() {
    String yaml = GlooEdgePoliciesTest.UPSTREAMS + GlooEdgePoliciesTest.SETTINGS + """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - matchers: [{prefix: /login}]
              options: {extauth: {customAuth: {}}}
              routeAction: {single: {upstream: {name: app}}}
            - matchers: [{prefix: /open}]
              delegateAction: {ref: {name: open}}
            - matchers: [{prefix: /guarded}]
              options:
                extauth: {customAuth: {}}
                ratelimit: {rateLimits: [{actions: [{genericKey: {descriptorValue: guarded}}]}]}
              delegateAction: {ref: {name: guarded}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: open, namespace: gloo-system}
        spec:
          routes: [{matchers: [{prefix: /open/x}], routeAction: {single: {upstream: {name: app}}}}]
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: guarded, namespace: gloo-system}
        spec:
          routes: [{matchers: [{prefix: /guarded/x}], routeAction: {single: {upstream: {name: app}}}}]
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "shop").isAccepted()).isTrue();
    List<Route> routes = routes(result, "shop");
    // Gloo: only /login and the routes under /guarded name the service; those under /open have no extauth at all.
    assertThat(routes).extracting(r -> r.security().extAuthz().isPresent()).containsExactly(true, false, true);
    assertThat(routes).extracting(r -> r.traffic().rateLimits().size()).containsExactly(0, 0, 1);
  }

  @Test
  void anAuthorisationThatCannotBeAppliedOnADelegatingRouteRefusesItsWholePrefix() {
    String yaml = GlooEdgePoliciesTest.UPSTREAMS + GlooEdgePoliciesTest.SETTINGS + """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - matchers: [{prefix: /guarded}]
              options: {extauth: {configRef: {name: missing}}}
              delegateAction: {ref: {name: guarded}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: guarded, namespace: gloo-system}
        spec:
          routes: [{matchers: [{prefix: /guarded/x}], routeAction: {single: {upstream: {name: app}}}}]
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "shop").findings()).extracting(Finding::reason)
        .contains(EdgePolicies.AUTH_CONFIG_NOT_FOUND);
    assertThat(routes(result, "shop")).singleElement().satisfies(route -> assertThat(route.action())
        .isInstanceOfSatisfying(RouteAction.DirectResponse.class, refusal -> assertThat(refusal.status())
            .isEqualTo(EdgePolicies.AUTH_REFUSAL_STATUS)));
  }
}
