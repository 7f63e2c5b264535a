package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.RouteFixtures.cluster;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.lowerHttp;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.RouteFixtures.FakeBackends;
import io.holdfast.frontend.gatewayapi.RouteFixtures.Request;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RoutePolicies.HeaderValue;
import io.holdfast.ir.RoutePolicies.LiteralHost;
import io.holdfast.ir.RoutePolicies.Mirror;
import io.holdfast.ir.RoutePolicies.Percent;
import io.holdfast.ir.RoutePolicies.RegexRewrite;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** HTTPRoute filters, one test per intent of the conformance tests of the same name. */
class HttpRouteFiltersTest {

  private static final String NS = "gateway-conformance-infra";
  private static final FakeBackends BACKENDS = new FakeBackends("infra-backend-v1", "infra-backend-v2");
  private static final ResourceKey V1 = cluster(NS, "infra-backend-v1", 8080);
  private static final ResourceKey V2 = cluster(NS, "infra-backend-v2", 8080);

  private static LoweredRoute lower(String rules) {
    return lowerHttp("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata:
          name: filters
          namespace: gateway-conformance-infra
        spec:
          rules:
        """ + rules, BACKENDS);
  }

  private static Route routeFor(LoweredRoute lowered, String pathAndQuery) {
    return select(lowered.routes(), Request.get(pathAndQuery)).orElseThrow();
  }

  private static RouteAction.Redirect redirectFor(LoweredRoute lowered, String path) {
    return (RouteAction.Redirect) routeFor(lowered, path).action();
  }

  private static RouteAction.ForwardPolicy policyFor(LoweredRoute lowered, String path) {
    return ((RouteAction.Forwarding) routeFor(lowered, path).action()).policy();
  }

  /** The path the proxy forwards or redirects to: Envoy's prefix_rewrite swaps the matched prefix (or path). */
  private static String rewrittenPath(Route route, Optional<String> prefixRewrite, String path) {
    if (prefixRewrite.isEmpty()) {
      return path;
    }
    String matched = route.match().path().value();
    return prefixRewrite.get() + path.substring(matched.length());
  }

  @Test
  void httpRouteRequestHeaderModifier() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /set}}]
            filters:
            - type: RequestHeaderModifier
              requestHeaderModifier:
                set: [{name: X-Header-Set, value: set-overwrites-values}]
                add: [{name: X-Header-Add, value: add-appends-values}]
                remove: [X-Header-Remove]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    Route route = routeFor(lowered, "/set");
    assertThat(route.headers().requestAdd()).containsExactly(
        new HeaderValue("x-header-set", "set-overwrites-values", false),
        new HeaderValue("x-header-add", "add-appends-values", true));
    assertThat(route.headers().requestRemove()).containsExactly("x-header-remove");
    assertThat(route.headers().responseAdd()).isEmpty();
    assertThat(((RouteAction.Forward) route.action()).cluster()).isEqualTo(V1);
  }

  @Test
  void httpRouteResponseHeaderModifier() {
    LoweredRoute lowered = lower("""
          - filters:
            - type: ResponseHeaderModifier
              responseHeaderModifier:
                set: [{name: X-Header-Set, value: set-overwrites-values}]
                add: [{name: X-Header-Add, value: add-appends-values}]
                remove: [X-Header-Remove, X-Header-Remove-2]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    Route route = routeFor(lowered, "/");
    assertThat(route.headers().responseAdd()).containsExactly(
        new HeaderValue("x-header-set", "set-overwrites-values", false),
        new HeaderValue("x-header-add", "add-appends-values", true));
    assertThat(route.headers().responseRemove()).containsExactly("x-header-remove", "x-header-remove-2");
    assertThat(route.headers().requestAdd()).isEmpty();
  }

  @Test
  void httpRouteRedirectHostAndStatus() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /hostname-redirect}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {hostname: example.org}
          - matches: [{path: {type: PathPrefix, value: /host-and-status}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {hostname: example.org, statusCode: 301}
        """);

    assertThat(redirectFor(lowered, "/hostname-redirect")).isEqualTo(new RouteAction.Redirect(
        Optional.of("example.org"), Optional.empty(), Optional.empty(), 302, false));
    assertThat(redirectFor(lowered, "/host-and-status/x").responseCode()).isEqualTo(301);
    assertThat(lowered.problems()).isEmpty();
  }

  @Test
  void httpRouteRedirectPath() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /original-prefix}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /replacement-prefix}}
          - matches: [{path: {type: PathPrefix, value: /full}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {path: {type: ReplaceFullPath, replaceFullPath: /full-path-replacement}}
          - matches: [{path: {type: PathPrefix, value: /path-and-host}}]
            filters:
            - type: RequestRedirect
              requestRedirect:
                hostname: example.org
                path: {type: ReplacePrefixMatch, replacePrefixMatch: /replacement-prefix}
        """);

    for (String[] c : new String[][] {{"/original-prefix/lemon", "/replacement-prefix/lemon"},
        {"/original-prefix", "/replacement-prefix"}, {"/path-and-host/x", "/replacement-prefix/x"}}) {
      Route route = routeFor(lowered, c[0]);
      assertThat(rewrittenPath(route, ((RouteAction.Redirect) route.action()).prefixRewrite(), c[0]))
          .as(c[0]).isEqualTo(c[1]);
    }
    assertThat(redirectFor(lowered, "/full/one").path()).contains("/full-path-replacement");
    assertThat(redirectFor(lowered, "/path-and-host/x").host()).contains("example.org");
  }

  @Test
  void httpRouteRedirectPort() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /port}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {port: 8083}
          - matches: [{path: {type: PathPrefix, value: /port-and-host-and-status}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {port: 8083, hostname: example.org, statusCode: 301}
        """);

    assertThat(redirectFor(lowered, "/port").port()).contains(8083);
    assertThat(redirectFor(lowered, "/port").scheme()).isEmpty();
    RouteAction.Redirect all = redirectFor(lowered, "/port-and-host-and-status");
    assertThat(all.port()).contains(8083);
    assertThat(all.host()).contains("example.org");
    assertThat(all.responseCode()).isEqualTo(301);
  }

  @Test
  void httpRouteRedirectScheme() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /scheme}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {scheme: https}
          - matches: [{path: {type: PathPrefix, value: /scheme-and-host}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {scheme: http, hostname: example.org}
          - matches: [{path: {type: PathPrefix, value: /scheme-and-port}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {scheme: https, port: 8443}
          - matches: [{path: {type: PathPrefix, value: /scheme-and-default-port}}]
            filters:
            - type: RequestRedirect
              requestRedirect: {scheme: https, port: 443}
        """);

    // The scheme's well-known port, implied or written, stays out of Location: no port for the proxy to append.
    assertThat(redirectFor(lowered, "/scheme").scheme()).contains("https");
    assertThat(redirectFor(lowered, "/scheme").port()).isEmpty();
    assertThat(redirectFor(lowered, "/scheme-and-host").port()).isEmpty();
    assertThat(redirectFor(lowered, "/scheme-and-default-port").port()).isEmpty();
    assertThat(redirectFor(lowered, "/scheme-and-port").port()).contains(8443);
  }

  @Test
  void httpRouteRedirectWithAnUnsupportedStatusIsNotAccepted() {
    LoweredRoute lowered = lower("""
          - filters:
            - type: RequestRedirect
              requestRedirect: {statusCode: 307}
        """);

    assertThat(lowered.notAccepted()).singleElement()
        .satisfies(p -> assertThat(p.origin().field()).isEqualTo("spec.rules[0].filters[0].requestRedirect.statusCode"));
    assertThat(routeFor(lowered, "/").action()).isEqualTo(RouteRules.internalError());
  }

  @Test
  void httpRouteRewriteHost() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /one}}]
            filters:
            - type: URLRewrite
              urlRewrite: {hostname: one.example.org}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - filters:
            - type: URLRewrite
              urlRewrite: {hostname: example.org}
            backendRefs: [{name: infra-backend-v2, port: 8080}]
        """);

    assertThat(policyFor(lowered, "/one").hostRewrite()).contains(new LiteralHost("one.example.org"));
    assertThat(policyFor(lowered, "/").hostRewrite()).contains(new LiteralHost("example.org"));
    assertThat(((RouteAction.Forward) routeFor(lowered, "/").action()).cluster()).isEqualTo(V2);
  }

  @Test
  void httpRouteRewritePath() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /prefix/one}}]
            filters:
            - type: URLRewrite
              urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /one}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /full/one}}]
            filters:
            - type: URLRewrite
              urlRewrite: {path: {type: ReplaceFullPath, replaceFullPath: /one}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /strip-prefix}}]
            filters:
            - type: URLRewrite
              urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /trailing}}]
            filters:
            - type: URLRewrite
              urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /one/}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    for (String[] c : new String[][] {{"/prefix/one/two", "/one/two"}, {"/prefix/one", "/one"},
        {"/prefix/one/", "/one/"}, {"/strip-prefix/three", "/three"}, {"/strip-prefix", "/"},
        {"/strip-prefix/", "/"}, {"/trailing/two", "/one/two"}, {"/trailing", "/one"}}) {
      Route route = routeFor(lowered, c[0]);
      RouteAction.ForwardPolicy policy = ((RouteAction.Forwarding) route.action()).policy();
      assertThat(rewrittenPath(route, policy.prefixRewrite(), c[0])).as(c[0]).isEqualTo(c[1]);
    }
    assertThat(policyFor(lowered, "/full/one/two").regexRewrite())
        .contains(new RegexRewrite(RuleFilters.WHOLE_PATH, "/one"));
    assertThat(com.google.re2j.Pattern.compile(RuleFilters.WHOLE_PATH).matcher("/full/one/two")
        .replaceAll("/one")).isEqualTo("/one");
  }

  @Test
  void httpRouteRewritePathNeedsAPrefixMatchToReplaceAPrefix() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: Exact, value: /exact}}]
            filters:
            - type: URLRewrite
              urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /one}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.notAccepted()).singleElement().satisfies(p -> assertThat(p.reason())
        .isEqualTo(AcceptedProblem.UNSUPPORTED_VALUE));
    assertThat(routeFor(lowered, "/exact").action()).isEqualTo(RouteRules.internalError());
  }

  @Test
  void httpRouteRequestMirror() {
    LoweredRoute lowered = lower("""
          - matches: [{path: {type: PathPrefix, value: /mirror}}]
            filters:
            - type: RequestMirror
              requestMirror: {backendRef: {name: infra-backend-v2, port: 8080}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /percent}}]
            filters:
            - type: RequestMirror
              requestMirror: {backendRef: {name: infra-backend-v2, port: 8080}, percent: 35}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /fraction}}]
            filters:
            - type: RequestMirror
              requestMirror: {backendRef: {name: infra-backend-v2, port: 8080}, fraction: {numerator: 1, denominator: 3}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /missing}}]
            filters:
            - type: RequestMirror
              requestMirror: {backendRef: {name: not-there, port: 8080}}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    assertThat(policyFor(lowered, "/mirror").mirror()).contains(new Mirror(V2, Percent.ALL));
    assertThat(policyFor(lowered, "/percent").mirror()).contains(new Mirror(V2, new Percent(350_000)));
    assertThat(policyFor(lowered, "/fraction").mirror()).contains(new Mirror(V2, new Percent(333_333)));
    // The primary traffic still flows; the missing mirror backend is reported.
    assertThat(policyFor(lowered, "/missing").mirror()).isEmpty();
    assertThat(((RouteAction.Forward) routeFor(lowered, "/missing").action()).cluster()).isEqualTo(V1);
    assertThat(lowered.problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("BackendNotFound");
      assertThat(p.origin().field()).isEqualTo("spec.rules[3].filters[0].requestMirror.backendRef");
    });
  }

  @Test
  void httpRouteUnsupportedFilterIsNotAcceptedAndAnswers500() {
    LoweredRoute lowered = lower("""
          - filters:
            - type: ExternalAuth
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.notAccepted()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("UnsupportedValue");
      assertThat(p.origin().field()).isEqualTo("spec.rules[0].filters[0].type");
    });
    assertThat(routeFor(lowered, "/x").action()).isEqualTo(RouteRules.internalError());
  }

  /** The spec: a custom filter that cannot be resolved is not skipped; its requests get an error response. */
  @Test
  void httpRouteExtensionRefOfAnUnknownKindIsInvalidKindAndAnswers500() {
    LoweredRoute lowered = lower("""
          - filters:
            - type: ExtensionRef
              extensionRef: {group: example.test, kind: Thing, name: t}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.notAccepted()).isEmpty();
    assertThat(lowered.problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("InvalidKind");
      assertThat(p.origin().field()).isEqualTo("spec.rules[0].filters[0].extensionRef");
    });
    assertThat(routeFor(lowered, "/x").action()).isEqualTo(RouteRules.internalError());
  }

  @Test
  void headerModifiersApplyToEveryMatchOfTheRule() {
    LoweredRoute lowered = lower("""
          - matches:
            - path: {type: Exact, value: /a}
            - path: {type: PathPrefix, value: /b}
            filters:
            - type: RequestHeaderModifier
              requestHeaderModifier: {set: [{name: x-rule, value: "1"}]}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    List<Route> routes = lowered.routes().stream().map(RankedRoute::route).toList();
    assertThat(routes).hasSize(3).allSatisfy(r ->
        assertThat(r.headers().requestAdd()).containsExactly(new HeaderValue("x-rule", "1", false)));
    assertThat(routes.stream().map(Route::name).distinct()).hasSize(3);
  }

  @Test
  void httpRouteCORS() {
    LoweredRoute lowered = lower("""
          - filters:
            - type: CORS
              cors:
                allowOrigins: ["https://www.foo.test", "https://*.bar.test"]
                allowMethods: [GET, options]
                allowHeaders: [x-header-1]
                exposeHeaders: [x-header-3]
                allowCredentials: true
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    io.holdfast.ir.RoutePolicies.Cors cors = routeFor(lowered, "/").cors().orElseThrow();
    assertThat(cors.origins()).containsExactly("https://www.foo.test");
    assertThat(cors.originRegexes()).singleElement().satisfies(regex -> {
      assertThat(com.google.re2j.Pattern.matches(regex, "https://a.bar.test")).isTrue();
      assertThat(com.google.re2j.Pattern.matches(regex, "https://a.bar.testing")).isFalse();
      assertThat(com.google.re2j.Pattern.matches(regex, "http://a.bar.test")).isFalse();
    });
    assertThat(cors.methods()).containsExactly("GET", "OPTIONS");
    assertThat(cors.maxAge()).contains(java.time.Duration.ofSeconds(5));
    assertThat(cors.allowCredentials()).contains(true);
  }

  /**
   * A wildcard origin becomes a regex one instruction per character: a long one compiles past Envoy's program size
   * limit (100), and Envoy would refuse the whole route configuration, so the rule is refused instead.
   */
  @Test
  void longWildcardCorsOriginIsRegexTooComplex() {
    LoweredRoute lowered = lower("""
          - filters:
            - type: CORS
              cors:
                allowOrigins: ["https://ok.test", "https://*.%s.test"]
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """.formatted("a".repeat(200)));

    assertThat(lowered.notAccepted()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("UnsupportedValue");
      assertThat(p.finding()).isEqualTo("RegexTooComplex");
      assertThat(p.origin().field()).isEqualTo("spec.rules[0].filters[0].cors.allowOrigins[1]");
    });
    assertThat(routeFor(lowered, "/").action()).isEqualTo(RouteRules.internalError());
  }

  @Test
  void unsupportedRuleFieldsAreNotAccepted() {
    LoweredRoute lowered = lower("""
          - retry: {attempts: 2}
            sessionPersistence: {type: Cookie, sessionName: s}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.notAccepted()).extracting(p -> p.reason() + " " + p.origin().field()).containsExactly(
        "UnsupportedValue spec.rules[0].retry", "UnsupportedValue spec.rules[0].sessionPersistence");
  }
}
