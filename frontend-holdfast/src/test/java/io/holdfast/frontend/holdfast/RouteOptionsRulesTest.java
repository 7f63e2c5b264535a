package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RoutePolicies;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Route options, VirtualService defaults and query-parameter matchers: each bad value is rejected with its reason
 * and path (the domain is a wildcard, so no gRPC warnings mix in); what gRPC clients ignore is warned about; the
 * defaults merge into each route.
 */
class RouteOptionsRulesTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");

  private static ValidationResult validate(String domains, String options, String routes) {
    GatewayConfig config = TestManifests.config(TestManifests.upstream("up", 9101),
        TestManifests.upstream("shadow", 9102), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: hashed}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9103}]}, loadBalancing: RING_HASH}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: %s
          options: %s
          routes: %s
        """.formatted(domains, options, routes));
    return new Validator().validate(config);
  }

  private static String forward(String options) {
    return "[{match: {prefix: /}, route: {upstream: up}, options: " + options + "}]";
  }

  static Stream<Arguments> badValues() {
    String at = "spec.routes[0].options.";
    return Stream.of(
        Arguments.of(forward("{headerManipulation: {requestHeadersToAdd: [{name: ':path', value: /}]}}"),
            at + "headerManipulation.requestHeadersToAdd[0].name", Reasons.INVALID_HEADER_MUTATION),
        Arguments.of(forward("{headerManipulation: {requestHeadersToRemove: [Host]}}"),
            at + "headerManipulation.requestHeadersToRemove[0]", Reasons.INVALID_HEADER_MUTATION),
        Arguments.of(forward("{headerManipulation: {responseHeadersToAdd: [{name: 'x a', value: b}]}}"),
            at + "headerManipulation.responseHeadersToAdd[0].name", Reasons.INVALID_HEADER_NAME),
        Arguments.of(forward("{headerManipulation: {responseHeadersToAdd: [{name: x-a, value: \"a\\nb\"}]}}"),
            at + "headerManipulation.responseHeadersToAdd[0].value", Reasons.INVALID_VALUE),
        Arguments.of(forward("{hostRewrite: a.test, autoHostRewrite: true}"), at + "autoHostRewrite",
            Reasons.CONFLICTING_FIELDS),
        Arguments.of(forward("{hostRewrite: ''}"), at + "hostRewrite", Reasons.INVALID_VALUE),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, prefixRewrite: /,"
            + " options: {regexRewrite: {pattern: a, substitution: b}}}]", at + "regexRewrite",
            Reasons.CONFLICTING_FIELDS),
        Arguments.of(forward("{regexRewrite: {pattern: '(a', substitution: b}}"), at + "regexRewrite.pattern",
            Reasons.INVALID_REGEX),
        Arguments.of(forward("{regexRewrite: {pattern: '/(a)', substitution: '/\\2'}}"),
            at + "regexRewrite.substitution", Reasons.INVALID_VALUE),
        Arguments.of(forward("{cors: {allowMethods: [GET]}}"), at + "cors", Reasons.INVALID_CORS_POLICY),
        Arguments.of(forward("{cors: {allowOriginRegex: ['[a']}}"), at + "cors.allowOriginRegex[0]",
            Reasons.INVALID_REGEX),
        Arguments.of(forward("{cors: {allowOrigin: [a.test], allowHeaders: ['x y']}}"), at + "cors.allowHeaders[0]",
            Reasons.INVALID_CORS_POLICY),
        Arguments.of(forward("{cors: {allowOrigin: [a.test], maxAge: 1500ms}}"), at + "cors.maxAge",
            Reasons.INVALID_CORS_POLICY),
        Arguments.of(forward("{faults: {}}"), at + "faults", Reasons.INVALID_FAULT),
        Arguments.of(forward("{faults: {abort: {percentage: 10, httpStatus: 600}}}"), at + "faults.abort.httpStatus",
            Reasons.INVALID_FAULT),
        Arguments.of(forward("{faults: {abort: {percentage: 10, grpcStatus: 17}}}"), at + "faults.abort.grpcStatus",
            Reasons.INVALID_FAULT),
        Arguments.of(forward("{faults: {abort: {percentage: 101, httpStatus: 503}}}"),
            at + "faults.abort.percentage", Reasons.INVALID_PERCENTAGE),
        Arguments.of(forward("{faults: {delay: {percentage: -1, fixedDelay: 1s}}}"), at + "faults.delay.percentage",
            Reasons.INVALID_PERCENTAGE),
        Arguments.of(forward("{faults: {delay: {percentage: 5, fixedDelay: 0s}}}"), at + "faults.delay.fixedDelay",
            Reasons.INVALID_DURATION),
        Arguments.of(forward("{hashPolicies: [{header: 'x y'}]}").replace("upstream: up", "upstream: hashed"),
            at + "hashPolicies[0].header", Reasons.INVALID_HEADER_NAME),
        Arguments.of(forward("{hashPolicies: [{cookie: {name: 'a;b'}}]}").replace("upstream: up", "upstream: hashed"),
            at + "hashPolicies[0].cookie.name", Reasons.INVALID_VALUE),
        Arguments.of(forward("{mirror: {upstream: gone}}"), at + "mirror.upstream", Reasons.UPSTREAM_NOT_FOUND),
        Arguments.of(forward("{mirror: {upstream: Shadow}}"), at + "mirror.upstream", Reasons.INVALID_NAME),
        Arguments.of(forward("{mirror: {upstream: shadow, percentage: 200}}"), at + "mirror.percentage",
            Reasons.INVALID_PERCENTAGE),
        Arguments.of("[{match: {prefix: /, queryParameters: [{name: q, regex: '(a'}]}, route: {upstream: up}}]",
            "spec.routes[0].match.queryParameters[0].regex", Reasons.INVALID_REGEX),
        Arguments.of("[{match: {prefix: /, queryParameters: [{name: q, present: false}]}, route: {upstream: up}}]",
            "spec.routes[0].match.queryParameters[0].present", Reasons.INVALID_VALUE),
        Arguments.of("[{match: {queryParameters: [{name: q, exact: a}, {name: q, exact: b}]}, route: {upstream: up}}]",
            "spec.routes[0].match.queryParameters[1].name", Reasons.CONFLICTING_MATCHER),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: [reset],"
            + " backoff: {baseInterval: 0s}}}]", "spec.routes[0].retries.backoff.baseInterval",
            Reasons.INVALID_RETRY_POLICY),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: [reset],"
            + " backoff: {baseInterval: 1s, maxInterval: 10ms}}}]", "spec.routes[0].retries.backoff.maxInterval",
            Reasons.INVALID_RETRY_POLICY),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1,"
            + " retryOn: [retriable-status-codes], retriableStatusCodes: [503, 700]}}]",
            "spec.routes[0].retries.retriableStatusCodes[1]", Reasons.INVALID_RETRY_POLICY),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1,"
            + " retryOn: [retriable-status-codes], retriableStatusCodes: [503, 503]}}]",
            "spec.routes[0].retries.retriableStatusCodes[1]", Reasons.INVALID_RETRY_POLICY),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: [reset],"
            + " rateLimitedBackoff: {resetHeaders: [{name: 'retry after'}]}}}]",
            "spec.routes[0].retries.rateLimitedBackoff.resetHeaders[0].name", Reasons.INVALID_HEADER_NAME),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: [reset],"
            + " rateLimitedBackoff: {resetHeaders: [], maxInterval: 1s}}}]",
            "spec.routes[0].retries.rateLimitedBackoff.resetHeaders", Reasons.INVALID_RETRY_POLICY),
        Arguments.of("[{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: [reset],"
            + " rateLimitedBackoff: {resetHeaders: [{name: retry-after}], maxInterval: 0s}}}]",
            "spec.routes[0].retries.rateLimitedBackoff.maxInterval", Reasons.INVALID_RETRY_POLICY));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void aBadRouteOptionIsRejectedWithItsReason(String routes, String field, String reason) {
    ValidationResult result = validate("['*.web.test']", "{}", routes);
    assertThat(result.status(VS).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple(field, reason));
    assertThat(result.accepted().virtualServices()).isEmpty();
  }

  @Test
  void retriableStatusCodesWithoutTheirConditionAreWarnedAbout() {
    ValidationResult result = validate("['*.web.test']", "{}", "[{match: {prefix: /}, route: {upstream: up},"
        + " retries: {attempts: 1, retryOn: [5xx], retriableStatusCodes: [429]}}]");
    assertThat(result.status(VS).state()).isEqualTo(State.WARNING);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.routes[0].retries.retriableStatusCodes", Reasons.INVALID_RETRY_POLICY));
  }

  @Test
  void badDefaultsAreRejectedToo() {
    ValidationResult result = validate("['*.web.test']", """
        {headerManipulation: {requestHeadersToRemove: [':authority']}, cors: {exposeHeaders: [x]},
         retries: {attempts: 0, retryOn: [reset]}}""", "[{match: {prefix: /}, route: {upstream: up}}]");
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.options.headerManipulation.requestHeadersToRemove[0]", Reasons.INVALID_HEADER_MUTATION),
        tuple("spec.options.cors", Reasons.INVALID_CORS_POLICY),
        tuple("spec.options.retries.attempts", Reasons.INVALID_RETRY_POLICY));
  }

  @Test
  void forwardingOptionsOnARedirectAndHashingWithoutRingHashAreWarnedAbout() {
    ValidationResult result = validate("['*.web.test']", "{}", """
        [{match: {prefix: /old}, redirect: {path: /new}, options: {faults: {delay: {percentage: 1, fixedDelay: 1s}}}},
         {match: {prefix: /a}, route: {upstream: up}, options: {hashPolicies: [{header: x-user}]}},
         {match: {prefix: /b}, route: {upstream: hashed}, options: {hashPolicies: [{sourceIp: true}]}}]""");
    assertThat(result.status(VS).state()).isEqualTo(State.WARNING);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.routes[0].options.faults", Reasons.FIELD_IGNORED),
        tuple("spec.routes[1].options.hashPolicies", Reasons.FIELD_IGNORED));
    assertThat(result.status(VS).problems().get(1).message()).contains("ROUND_ROBIN", "RING_HASH");
  }

  @Test
  void grpcClientsGetWarningsForWhatTheyIgnore() {
    ValidationResult result = validate("[web.test]", "{cors: {allowOrigin: [https://a.test]}}", """
        [{match: {prefix: /q, queryParameters: [{name: v, exact: '1'}]}, route: {upstream: up}},
         {match: {prefix: /}, route: {upstream: hashed}, options: {
           headerManipulation: {requestHeadersToAdd: [{name: x-a, value: b}]}, hostRewrite: a.test,
           regexRewrite: {pattern: a, substitution: b}, idleTimeout: 1s, mirror: {upstream: shadow},
           hashPolicies: [{header: x-user}, {cookie: {name: s}}], cors: {allowOrigin: [https://b.test]},
           faults: {abort: {percentage: 1, httpStatus: 503}}, maxStreamDuration: 5s}}]""");
    assertThat(result.status(VS).state()).isEqualTo(State.WARNING);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.options.cors", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[0].match.queryParameters", Reasons.GRPC_UNMATCHABLE_ROUTE),
        tuple("spec.routes[1].options.headerManipulation", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[1].options.hostRewrite", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[1].options.regexRewrite", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[1].options.idleTimeout", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[1].options.mirror", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[1].options.hashPolicies[1]", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[1].options.cors", Reasons.GRPC_IGNORED_OPTION));
    assertThat(result.status(VS).problems()).filteredOn(p -> p.field().endsWith(".cors"))
        .allSatisfy(p -> assertThat(p.message()).contains("web.test", "left out"));
  }

  @Test
  void aBrokenOptionKeepsTheLastAcceptedVersionServing() {
    LastGoodValidator validator = new LastGoodValidator();
    String good = "[{match: {prefix: /}, route: {upstream: up}, options: {faults: {abort: {percentage: 5,"
        + " httpStatus: 503}}}}]";
    String bad = good.replace("503", "700");
    validator.validate(TestManifests.config(TestManifests.upstream("up", 9101), vs(good)));
    ValidationResult broken = validator.validate(TestManifests.config(TestManifests.upstream("up", 9101), vs(bad)));
    assertThat(broken.status(VS).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.INVALID_FAULT, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(broken.accepted().virtualServices().get(0).routes().get(0).options().faults().orElseThrow().abort()
        .orElseThrow().httpStatus()).contains(503);
  }

  @Test
  void defaultsMergeIntoEachRoute() {
    ValidationResult result = validate("[web.test]", """
        {headerManipulation: {requestHeadersToAdd: [{name: X-Env, value: prod}, {name: x-team, value: web}],
                              responseHeadersToRemove: [server]},
         cors: {allowOrigin: [https://a.test]}, retries: {attempts: 2, retryOn: [reset]}}""", """
        [{match: {prefix: /own}, route: {upstream: up}, retries: {attempts: 1, retryOn: [5xx]}, options: {
           headerManipulation: {requestHeadersToAdd: [{name: x-team, value: api, append: false}],
                                responseHeadersToRemove: [x-debug]},
           cors: {allowOrigin: [https://b.test]}}},
         {match: {prefix: /}, directResponse: {status: 204}}]""");
    assertThat(result.status(VS).state()).isEqualTo(State.WARNING);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    List<Route> routes = ir.listeners().get(0).virtualHosts().get(0).routes();
    Route own = routes.get(0);
    assertThat(own.headers()).isEqualTo(new RoutePolicies.HeaderMutation(
        List.of(new RoutePolicies.HeaderValue("x-env", "prod", true), new RoutePolicies.HeaderValue("x-team", "api",
            false)), List.of(), List.of(), List.of("server", "x-debug")));
    assertThat(own.cors().orElseThrow().origins()).containsExactly("https://b.test");
    assertThat(((RouteAction.Forward) own.action()).policy().retries().orElseThrow().retryOn()).containsExactly("5xx");
    Route direct = routes.get(1);
    assertThat(direct.cors().orElseThrow().origins()).containsExactly("https://a.test");
    assertThat(direct.headers().requestAdd()).extracting(RoutePolicies.HeaderValue::name)
        .containsExactly("x-env", "x-team");
    assertThat(direct.headers().responseRemove()).containsExactly("server");
    assertThat(Optional.of(direct.action())).containsInstanceOf(RouteAction.DirectResponse.class);
  }

  private static String vs(String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes: %s
        """.formatted(routes);
  }
}
