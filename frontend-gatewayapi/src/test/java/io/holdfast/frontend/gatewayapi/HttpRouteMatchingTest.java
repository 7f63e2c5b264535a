package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.RouteFixtures.cluster;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.lowerHttp;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.merged;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.RouteFixtures.FakeBackends;
import io.holdfast.frontend.gatewayapi.RouteFixtures.Request;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * HTTPRoute matches, one test per intent of the conformance tests of the same name (HTTPRouteMatching,
 * HTTPRouteExactPathMatching, ...): requests are evaluated against the lowered routes in precedence order.
 */
class HttpRouteMatchingTest {

  private static final FakeBackends BACKENDS = new FakeBackends("infra-backend-v1", "infra-backend-v2",
      "infra-backend-v3");
  private static final ResourceKey V1 = cluster("gateway-conformance-infra", "infra-backend-v1", 8080);
  private static final ResourceKey V2 = cluster("gateway-conformance-infra", "infra-backend-v2", 8080);
  private static final ResourceKey V3 = cluster("gateway-conformance-infra", "infra-backend-v3", 8080);

  private static final String HEAD = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata:
        name: %s
        namespace: gateway-conformance-infra
        creationTimestamp: "%s"
      spec:
        parentRefs:
        - name: same-namespace
        rules:
      """;

  private static String route(String name, String rules) {
    return route(name, "2026-01-01T00:00:00Z", rules);
  }

  private static String route(String name, String created, String rules) {
    return HEAD.formatted(name, created) + rules;
  }

  private static Optional<ResourceKey> backendOf(List<RankedRoute> routes, Request request) {
    return select(routes, request).map(Route::action)
        .filter(a -> a instanceof RouteAction.Forward)
        .map(a -> ((RouteAction.Forward) a).cluster());
  }

  @Test
  void httpRouteMatching() {
    LoweredRoute lowered = lowerHttp(route("matching", """
          - matches:
            - path: {type: PathPrefix, value: /}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - path: {type: PathPrefix, value: /v2}
            backendRefs: [{name: infra-backend-v2, port: 8080}]
        """), BACKENDS);

    assertThat(lowered.problems()).isEmpty();
    assertThat(lowered.notAccepted()).isEmpty();
    List<RankedRoute> routes = merged(lowered);
    assertThat(backendOf(routes, Request.get("/"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/example"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/v2"))).contains(V2);
    assertThat(backendOf(routes, Request.get("/v2/"))).contains(V2);
    assertThat(backendOf(routes, Request.get("/v2/example"))).contains(V2);
    // PathPrefix matches whole segments: /v2 does not match /v2example.
    assertThat(backendOf(routes, Request.get("/v2example"))).contains(V1);
  }

  @Test
  void httpRoutePathPrefixIgnoresATrailingSlash() {
    List<RankedRoute> routes = merged(lowerHttp(route("trailing", """
          - matches:
            - path: {type: PathPrefix, value: /foo/}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """), BACKENDS));

    assertThat(backendOf(routes, Request.get("/foo"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/foo/bar?x=1"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/foobar"))).isEmpty();
  }

  @Test
  void httpRouteExactPathMatching() {
    List<RankedRoute> routes = merged(lowerHttp(route("exact", """
          - matches:
            - path: {type: Exact, value: /one}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - path: {type: Exact, value: /two}
            backendRefs: [{name: infra-backend-v2, port: 8080}]
        """), BACKENDS));

    assertThat(backendOf(routes, Request.get("/one"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/two"))).contains(V2);
    assertThat(backendOf(routes, Request.get("/one?q=1"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/"))).isEmpty();
    assertThat(backendOf(routes, Request.get("/one/example"))).isEmpty();
    assertThat(backendOf(routes, Request.get("/Two"))).isEmpty();
  }

  @Test
  void httpRouteRegularExpressionPathMatching() {
    List<RankedRoute> routes = merged(lowerHttp(route("regex", """
          - matches:
            - path: {type: RegularExpression, value: "/v[0-9]+/items"}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - path: {type: RegularExpression, value: "/v[0-9+"}
            backendRefs: [{name: infra-backend-v2, port: 8080}]
        """), BACKENDS));

    assertThat(backendOf(routes, Request.get("/v12/items"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/v12/items/more"))).isEmpty();
    LoweredRoute invalid = lowerHttp(route("regex", """
          - matches:
            - path: {type: RegularExpression, value: "/v[0-9+"}
            backendRefs: [{name: infra-backend-v2, port: 8080}]
        """), BACKENDS);
    assertThat(invalid.routes()).isEmpty();
    assertThat(invalid.notAccepted()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("UnsupportedValue");
      assertThat(p.origin().field()).isEqualTo("spec.rules[0].matches[0].path.value");
    });
  }

  /** The 23-byte regex made re2j expand 10^9 nodes (OutOfMemoryError); it is refused before that. */
  @Test
  void httpRouteRegexBombIsRegexTooComplex() {
    LoweredRoute bomb = lowerHttp(route("bomb", """
          - matches:
            - headers: [{name: x, type: RegularExpression, value: "((a{1000}){1000}){1000}"}]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """), BACKENDS);
    assertThat(bomb.notAccepted()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("RegexTooComplex");
      assertThat(p.origin().field()).isEqualTo("spec.rules[0].matches[0].headers[0].value");
    });
  }

  @Test
  void httpRouteHeaderMatching() {
    List<RankedRoute> routes = merged(lowerHttp(route("headers", """
          - matches:
            - headers: [{name: version, value: one}]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - headers: [{name: version, value: two}]
            backendRefs: [{name: infra-backend-v2, port: 8080}]
          - matches:
            - headers: [{name: version, value: two}, {name: color, value: orange}]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - headers: [{name: Color, value: blue}]
            - headers: [{name: color, value: green}]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - headers: [{name: color, value: red}]
            - headers: [{name: color, value: yellow}]
            backendRefs: [{name: infra-backend-v2, port: 8080}]
          - matches:
            - headers: [{name: version, type: RegularExpression, value: "v[0-9]+"}]
            backendRefs: [{name: infra-backend-v3, port: 8080}]
        """), BACKENDS));

    assertThat(backendOf(routes, Request.get("/").with("Version", "one"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/").with("version", "two"))).contains(V2);
    // More header matches take precedence over the earlier rule.
    assertThat(backendOf(routes, Request.get("/").with("version", "two").with("color", "orange"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/").with("color", "blue"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/").with("COLOR", "green"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/").with("color", "red"))).contains(V2);
    assertThat(backendOf(routes, Request.get("/").with("color", "yellow"))).contains(V2);
    assertThat(backendOf(routes, Request.get("/").with("version", "v42"))).contains(V3);
    assertThat(backendOf(routes, Request.get("/").with("version", "v42x"))).isEmpty();
    assertThat(backendOf(routes, Request.get("/").with("color", "purple"))).isEmpty();
    assertThat(backendOf(routes, Request.get("/"))).isEmpty();
  }

  @Test
  void httpRouteHeaderMatchingUsesOnlyTheFirstOfEquivalentNames() {
    LoweredRoute lowered = lowerHttp(route("dup", """
          - matches:
            - headers: [{name: version, value: one}, {name: Version, value: two}]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """), BACKENDS);

    assertThat(lowered.routes().get(0).route().match().headers()).singleElement()
        .satisfies(h -> assertThat(h.name()).isEqualTo("version"));
    assertThat(backendOf(lowered.routes(), Request.get("/").with("version", "one"))).contains(V1);
  }

  @Test
  void httpRouteQueryParamMatching() {
    List<RankedRoute> routes = merged(lowerHttp(route("query", """
          - matches:
            - queryParams: [{name: animal, value: whale}]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - queryParams: [{name: animal, value: dolphin}]
            backendRefs: [{name: infra-backend-v2, port: 8080}]
          - matches:
            - queryParams: [{name: animal, value: dolphin}, {name: color, value: blue}]
            - queryParams: [{name: ANIMAL, value: Whale}]
            backendRefs: [{name: infra-backend-v3, port: 8080}]
          - matches:
            - queryParams: [{name: id, type: RegularExpression, value: "[0-9]+"}]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """), BACKENDS));

    assertThat(backendOf(routes, Request.get("/?animal=whale"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/?animal=dolphin"))).contains(V2);
    assertThat(backendOf(routes, Request.get("/?animal=dolphin&color=blue"))).contains(V3);
    assertThat(backendOf(routes, Request.get("/?ANIMAL=Whale"))).contains(V3);
    assertThat(backendOf(routes, Request.get("/?id=123"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/?id=12a"))).isEmpty();
    assertThat(backendOf(routes, Request.get("/?animal=shark"))).isEmpty();
    assertThat(backendOf(routes, Request.get("/"))).isEmpty();
  }

  @Test
  void httpRouteMethodMatching() {
    List<RankedRoute> routes = merged(lowerHttp(route("method", """
          - matches:
            - method: POST
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - method: GET
            backendRefs: [{name: infra-backend-v2, port: 8080}]
          - matches:
            - path: {type: PathPrefix, value: /path1}
              method: GET
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches:
            - path: {type: PathPrefix, value: /path1}
            backendRefs: [{name: infra-backend-v3, port: 8080}]
        """), BACKENDS));

    assertThat(backendOf(routes, Request.get("/").method("POST"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/"))).contains(V2);
    assertThat(backendOf(routes, Request.get("/").method("HEAD"))).isEmpty();
    // A longer prefix outranks a method match; with equal paths the method match wins.
    assertThat(backendOf(routes, Request.get("/path1"))).contains(V1);
    assertThat(backendOf(routes, Request.get("/path1").method("POST"))).contains(V3);
  }

  @Test
  void httpRoutePathMatchOrder() {
    LoweredRoute lowered = lowerHttp(route("order", """
          - matches:
            - path: {type: PathPrefix, value: /match}
              queryParams: [{name: a, value: "1"}]
            - path: {type: PathPrefix, value: /match}
              headers: [{name: h, value: "1"}, {name: g, value: "1"}]
            - path: {type: PathPrefix, value: /match}
              headers: [{name: h, value: "1"}]
              queryParams: [{name: a, value: "1"}]
            - path: {type: PathPrefix, value: /match}
              method: GET
            - path: {type: PathPrefix, value: /match/longer}
            - path: {type: Exact, value: /match}
            - path: {type: PathPrefix, value: /match}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """), BACKENDS);

    List<String> order = lowered.routes().stream().sorted()
        .map(r -> r.route().origin().field().replace("spec.rules[0].", "")).distinct().toList();
    assertThat(order).containsExactly("matches[5]", "matches[4]", "matches[3]", "matches[1]", "matches[2]",
        "matches[0]", "matches[6]");
  }

  @Test
  void httpRoutePrecedenceAcrossRoutesIsOldestThenAlphabetical() {
    String rule = """
          - matches:
            - path: {type: PathPrefix, value: /shared}
            backendRefs: [{name: %s, port: 8080}]
        """;
    LoweredRoute newer = lowerHttp(route("a-newer", "2026-02-01T00:00:00Z", rule.formatted("infra-backend-v1")),
        BACKENDS);
    LoweredRoute older = lowerHttp(route("z-older", "2026-01-01T00:00:00Z", rule.formatted("infra-backend-v2")),
        BACKENDS);
    LoweredRoute sameAge = lowerHttp(route("b-same", "2026-01-01T00:00:00Z", rule.formatted("infra-backend-v3")),
        BACKENDS);

    assertThat(backendOf(merged(newer, older), Request.get("/shared/x"))).contains(V2);
    // Same creation time: namespace/name order decides.
    assertThat(backendOf(merged(newer, older, sameAge), Request.get("/shared/x"))).contains(V3);
    // A more specific match wins whatever the route's age.
    LoweredRoute exactNewer = lowerHttp(route("exact-newer", "2026-03-01T00:00:00Z", """
          - matches:
            - path: {type: Exact, value: /shared/x}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """), BACKENDS);
    assertThat(backendOf(merged(older, exactNewer), Request.get("/shared/x"))).contains(V1);
  }

  @Test
  void aRuleWithoutMatchesMatchesEveryPath() {
    LoweredRoute lowered = lowerHttp(route("catch-all", """
          - backendRefs: [{name: infra-backend-v1, port: 8080}]
        """), BACKENDS);

    assertThat(lowered.routes()).singleElement().satisfies(r -> {
      assertThat(r.route().match().path()).isEqualTo(new io.holdfast.ir.RouteMatch.PathMatch.Prefix("/"));
      assertThat(r.precedence().specificity())
          .isEqualTo(new Precedence.Specificity.Http(Precedence.PathType.PATH_PREFIX, 1, false, 0, 0));
    });
    assertThat(backendOf(lowered.routes(), Request.get("/anything/at/all"))).contains(V1);
  }
}
