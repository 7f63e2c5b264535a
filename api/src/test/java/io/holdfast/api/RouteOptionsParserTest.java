package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Route {@code options}, VirtualService {@code spec.options}, query-parameter matchers and retry backoff. */
class RouteOptionsParserTest {

  private static final String HEAD = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web}
      spec:
        domains: [web.test]
      """;

  private static VirtualService parsed(String specTail) {
    ParseResult result = new ModelParser().parse(tree(HEAD + specTail));
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    return (VirtualService) ((ParseResult.Parsed) result).resource();
  }

  private static List<Problem> problems(String specTail) {
    ParseResult result = new ModelParser().parse(tree(HEAD + specTail));
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    return ((ParseResult.Invalid) result).problems();
  }

  @Test
  void everyRouteOptionIsRead() {
    VirtualService vs = parsed("""
          routes:
            - match: {prefix: /, queryParameters: [{name: v, exact: "2"}, {name: q, regex: "a.*"}, {name: d, present: true}]}
              route: {upstream: app}
              retries: {attempts: 2, retryOn: [unavailable], backoff: {baseInterval: 10ms, maxInterval: 1s}}
              options:
                headerManipulation:
                  requestHeadersToAdd: [{name: x-a, value: "1"}, {name: x-b, value: "2", append: false}]
                  requestHeadersToRemove: [x-c]
                  responseHeadersToAdd: [{name: x-d, value: "3"}]
                  responseHeadersToRemove: [server]
                hostRewrite: api.test
                regexRewrite: {pattern: "^/v1/(.*)$", substitution: "/\\\\1"}
                cors: {allowOrigin: [https://a.test], allowOriginRegex: ["https://.*\\\\.b\\\\.test"],
                       allowMethods: [GET], allowHeaders: [x-a], exposeHeaders: [x-d], maxAge: 1h,
                       allowCredentials: true}
                idleTimeout: 30s
                maxStreamDuration: 2m
                faults: {abort: {percentage: 2.5, httpStatus: 503}, delay: {percentage: 10, fixedDelay: 250ms}}
                hashPolicies: [{header: x-user, terminal: true}, {cookie: {name: s, ttl: 1h, path: /}}, {sourceIp: true}]
                mirror: {upstream: shadow, namespace: other, percentage: 5}
        """);
    Route route = vs.routes().get(0);
    assertThat(route.match().queryParameters()).containsExactly(
        new QueryParameterMatch("v", new QueryParameterMatch.Exact("2")),
        new QueryParameterMatch("q", new QueryParameterMatch.Regex("a.*")),
        new QueryParameterMatch("d", new QueryParameterMatch.Present(true)));
    assertThat(route.retries().orElseThrow().backoff()).contains(
        new RetryPolicy.Backoff(Duration.ofMillis(10), Optional.of(Duration.ofSeconds(1))));
    RouteOptions options = route.options();
    assertThat(options.headerManipulation().orElseThrow()).isEqualTo(new RouteOptions.HeaderManipulation(
        List.of(new RouteOptions.HeaderValue("x-a", "1", true), new RouteOptions.HeaderValue("x-b", "2", false)),
        List.of("x-c"), List.of(new RouteOptions.HeaderValue("x-d", "3", true)), List.of("server")));
    assertThat(options.hostRewrite()).contains("api.test");
    assertThat(options.autoHostRewrite()).isFalse();
    assertThat(options.regexRewrite()).contains(new RouteOptions.RegexRewrite("^/v1/(.*)$", "/\\1"));
    assertThat(options.cors()).contains(new RouteOptions.Cors(List.of("https://a.test"),
        List.of("https://.*\\.b\\.test"), List.of("GET"), List.of("x-a"), List.of("x-d"),
        Optional.of(Duration.ofHours(1)), Optional.of(true)));
    assertThat(options.idleTimeout()).contains(Duration.ofSeconds(30));
    assertThat(options.maxStreamDuration()).contains(Duration.ofMinutes(2));
    assertThat(options.faults()).contains(new RouteOptions.Faults(
        Optional.of(new RouteOptions.Abort(2.5, Optional.of(503), Optional.empty())),
        Optional.of(new RouteOptions.Delay(10, Duration.ofMillis(250)))));
    assertThat(options.hashPolicies()).containsExactly(new RouteOptions.HeaderHash("x-user", true),
        new RouteOptions.CookieHash("s", Optional.of(Duration.ofHours(1)), Optional.of("/"), false),
        new RouteOptions.SourceIpHash(false));
    assertThat(options.mirror()).contains(new RouteOptions.Mirror(ObjectRef.of("other", "shadow"), 5));
  }

  @Test
  void absentOptionsAreNoneAndMirrorDefaultsToEverything() {
    VirtualService vs = parsed("""
          routes:
            - match: {prefix: /}
              route: {upstream: app}
            - match: {prefix: /m}
              route: {upstream: app}
              options: {mirror: {upstream: shadow}, autoHostRewrite: true}
        """);
    assertThat(vs.options()).isEqualTo(VirtualHostOptions.NONE);
    assertThat(vs.routes().get(0).options()).isEqualTo(RouteOptions.NONE);
    assertThat(vs.routes().get(1).options().mirror()).contains(new RouteOptions.Mirror(ObjectRef.of("shadow"), 100));
    assertThat(vs.routes().get(1).options().autoHostRewrite()).isTrue();
  }

  @Test
  void virtualServiceDefaults() {
    VirtualService vs = parsed("""
          options:
            headerManipulation: {responseHeadersToAdd: [{name: x-frame-options, value: DENY, append: false}]}
            cors: {allowOrigin: [https://a.test]}
            retries: {attempts: 1, retryOn: [5xx]}
          routes:
            - match: {prefix: /}
              route: {upstream: app}
        """);
    assertThat(vs.options().headerManipulation().orElseThrow().responseHeadersToAdd())
        .containsExactly(new RouteOptions.HeaderValue("x-frame-options", "DENY", false));
    assertThat(vs.options().cors().orElseThrow().allowOrigin()).containsExactly("https://a.test");
    assertThat(vs.options().retries()).contains(new RetryPolicy(1, Optional.empty(), List.of("5xx")));
  }

  @Test
  void malformedOptionsAreReportedWithTheirPaths() {
    List<Problem> problems = problems("""
          options: {timeout: 1s}
          routes:
            - match: {prefix: /, queryParameters: [{name: a}, {name: b, exact: x, present: true}, {exact: y}]}
              route: {upstream: app}
              retries: {attempts: 1, retryOn: [5xx], backoff: {maxInterval: 1s}}
              options:
                headerManipulation: {requestHeadersToAdd: [{name: x-a}], requestHeadersToRemove: x-b}
                regexRewrite: {pattern: a}
                cors: {allowOrigin: https://a.test, maxAge: soon}
                faults: {abort: {percentage: "5", httpStatus: 503, grpcStatus: 14}, delay: {percentage: 5}}
                hashPolicies: [{header: a, cookie: {name: b}}, {sourceIp: false}, {}]
                mirror: {percentage: 5}
                retries: {attempts: 1}
        """);
    assertThat(problems).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.options.timeout", Reasons.UNKNOWN_FIELD),
        tuple("spec.routes[0].options.retries", Reasons.UNKNOWN_FIELD),
        tuple("spec.routes[0].match.queryParameters[0]", Reasons.EMPTY_MATCHER),
        tuple("spec.routes[0].match.queryParameters[1]", Reasons.CONFLICTING_MATCHER),
        tuple("spec.routes[0].match.queryParameters[2].name", Reasons.MISSING_FIELD),
        tuple("spec.routes[0].retries.backoff.baseInterval", Reasons.MISSING_FIELD),
        tuple("spec.routes[0].options.headerManipulation.requestHeadersToAdd[0].value", Reasons.MISSING_FIELD),
        tuple("spec.routes[0].options.headerManipulation.requestHeadersToRemove", Reasons.WRONG_TYPE),
        tuple("spec.routes[0].options.regexRewrite.substitution", Reasons.MISSING_FIELD),
        tuple("spec.routes[0].options.cors.allowOrigin", Reasons.WRONG_TYPE),
        tuple("spec.routes[0].options.cors.maxAge", Reasons.INVALID_DURATION),
        tuple("spec.routes[0].options.faults.abort", Reasons.CONFLICTING_FIELDS),
        tuple("spec.routes[0].options.faults.abort.percentage", Reasons.WRONG_TYPE),
        tuple("spec.routes[0].options.faults.delay.fixedDelay", Reasons.MISSING_FIELD),
        tuple("spec.routes[0].options.hashPolicies[0]", Reasons.CONFLICTING_FIELDS),
        tuple("spec.routes[0].options.hashPolicies[1].sourceIp", Reasons.INVALID_VALUE),
        tuple("spec.routes[0].options.hashPolicies[2]", Reasons.MISSING_FIELD),
        tuple("spec.routes[0].options.mirror.upstream", Reasons.MISSING_FIELD));
    assertThat(problems).filteredOn(p -> p.field().endsWith("faults.abort"))
        .extracting(Problem::message).containsExactly("an abort needs exactly one of httpStatus and grpcStatus");
  }
}
