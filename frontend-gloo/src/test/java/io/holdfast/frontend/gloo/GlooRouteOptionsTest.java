package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.holdfast.api.ResourceKey;
import io.holdfast.api.RetryPolicy;
import io.holdfast.api.Route;
import io.holdfast.api.Reasons;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.TrafficReasons;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Finding;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Gloo route and virtual-host options read into Holdfast's options: csrf, bufferPerRoute, retries. */
class GlooRouteOptionsTest {

  static final ResourceKey VS = new ResourceKey(GlooKinds.GATEWAY_GROUP, GlooKinds.VIRTUAL_SERVICE, "gloo-system",
      "default");

  /** A VirtualService with the given virtual-host options and first-route options (YAML flow maps). */
  static String vs(String hostOptions, String routeOptions) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            options: %s
            routes:
            - matchers: [{prefix: /}]
              options: %s
              routeAction: {single: {upstream: {name: petstore}}}
        """.formatted(hostOptions, routeOptions);
  }

  static GlooReading read(String yaml) {
    return GlooReading.of(GlooFixtures.load(yaml));
  }

  static VirtualService readVs(String yaml) {
    GlooReading reading = read(yaml);
    assertThat(reading.rejected()).as("rejected").doesNotContainKey(VS);
    return reading.holdfastConfig().virtualServices().get(0);
  }

  static List<Finding> rejection(String yaml) {
    GlooReading reading = read(yaml);
    assertThat(reading.rejected()).containsKey(VS);
    return reading.rejected().get(VS);
  }

  @Test
  void csrfEnforcedOnTheVirtualHostAndShadowedOnARoute() {
    VirtualService vs = readVs(vs("""
        {csrf: {filterEnabled: {defaultValue: {numerator: 100, denominator: HUNDRED}},
                additionalOrigins: [{exact: pay.example.com}]}}""",
        "{csrf: {shadowEnabled: {defaultValue: {numerator: 10000, denominator: TEN_THOUSAND}}}}"));
    assertThat(vs.options().traffic().csrf()).contains(new TrafficOptions.Csrf(List.of("pay.example.com"), false));
    assertThat(vs.routes().get(0).options().traffic().csrf()).contains(new TrafficOptions.Csrf(List.of(), true));
  }

  @Test
  void csrfWithoutFilterEnabledIsGloosZeroPercentSoShadowOnly() {
    VirtualService vs = readVs(vs("{csrf: {shadowEnabled: {defaultValue: {numerator: 100}}}}", "{}"));
    assertThat(vs.options().traffic().csrf()).contains(new TrafficOptions.Csrf(List.of(), true));
  }

  @Test
  void csrfHoldfastCannotReproduceIsRejectedNamingTheField() {
    assertThat(rejection(vs("{csrf: {filterEnabled: {defaultValue: {numerator: 50}}}}", "{}")))
        .extracting(Finding::field, Finding::reason)
        .containsExactly(tuple("spec.virtualHost.options.csrf", GlooFeatures.UNSUPPORTED));
    assertThat(rejection(vs("{}", """
        {csrf: {filterEnabled: {defaultValue: {numerator: 100}}, additionalOrigins: [{suffix: a, prefix: b}]}}""")))
        .extracting(Finding::field, Finding::reason).contains(
            tuple("spec.virtualHost.routes[0].options.csrf.additionalOrigins[0]", Reasons.CONFLICTING_FIELDS));
    assertThat(rejection(vs("{csrf: {filterEnabled: {runtimeKey: k, defaultValue: {numerator: 100}}}}", "{}")))
        .extracting(Finding::field).containsExactly("spec.virtualHost.options.csrf.filterEnabled.runtimeKey");
  }

  /** Envoy compares the Origin's host[:port]: an origin written as a URL would never match, so it is refused. */
  @Test
  void csrfOriginWithASchemeIsRefusedByHoldfastsChecks() {
    io.holdfast.ir.IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(vs(
        "{csrf: {filterEnabled: {defaultValue: {numerator: 100}}, additionalOrigins: [{exact: 'https://a.test'}]}}",
        "{}")));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").findings())
        .extracting(Finding::reason).contains(TrafficReasons.CSRF_ORIGIN_WITH_SCHEME);
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "default").isAccepted()).isFalse();
  }

  @Test
  void csrfOriginMatchersAreEnvoysStringMatchers() {
    VirtualService vs = readVs(vs("""
        {csrf: {filterEnabled: {defaultValue: {numerator: 100, denominator: HUNDRED}},
                additionalOrigins: [{suffix: example.com}, {exact: a.test, ignoreCase: true}, {prefix: pay.},
                                    {safeRegex: {googleRe2: {}, regex: '[a-z]+\\.shop\\.test'}}, {exact: b.test}]}}""",
        "{}"));
    assertThat(vs.options().traffic().csrf()).contains(new TrafficOptions.Csrf(List.of("b.test"), List.of(
        new TrafficOptions.OriginMatcher(TrafficOptions.MatchType.SUFFIX, "example.com", false),
        new TrafficOptions.OriginMatcher(TrafficOptions.MatchType.EXACT, "a.test", true),
        new TrafficOptions.OriginMatcher(TrafficOptions.MatchType.PREFIX, "pay.", false),
        new TrafficOptions.OriginMatcher(TrafficOptions.MatchType.SAFE_REGEX, "[a-z]+\\.shop\\.test", false)),
        false));
  }

  @Test
  void bufferPerRouteIsTheRequestBodyLimit() {
    VirtualService vs = readVs(vs("{bufferPerRoute: {buffer: {maxRequestBytes: 1048576}}}",
        "{bufferPerRoute: {buffer: {maxRequestBytes: 10485760}}}"));
    assertThat(vs.options().traffic().maxRequestBodyBytes()).contains(1_048_576L);
    assertThat(vs.routes().get(0).options().traffic().maxRequestBodyBytes()).contains(10_485_760L);
  }

  @Test
  void bufferDisabledPerRouteIsRejectedRatherThanInheritingALimit() {
    assertThat(rejection(vs("{}", "{bufferPerRoute: {disabled: true}}")))
        .extracting(Finding::field, Finding::reason)
        .containsExactly(tuple("spec.virtualHost.routes[0].options.bufferPerRoute.disabled",
            GlooFeatures.UNSUPPORTED));
  }

  @Test
  void retriesWithStatusCodesAndRateLimitedBackoffInBothSpellings() {
    String retries = """
        {retries: {retryOn: retriable-status-codes, %s: [502, 503], num_retries: 3, perTryTimeout: 2s,
                   retryBackOff: {baseInterval: 1s, maxInterval: 1s},
                   rateLimitedRetryBackOff: {maxInterval: 5s, resetHeaders: [
                     {name: X-RateLimit-Reset, format: UNIX_TIMESTAMP}, {name: Retry-After}]}}}""";
    RetryPolicy expected = new RetryPolicy(3, Optional.of(Duration.ofSeconds(2)), List.of("retriable-status-codes"),
        Optional.of(new RetryPolicy.Backoff(Duration.ofSeconds(1), Optional.of(Duration.ofSeconds(1)))),
        List.of(502, 503), Optional.of(new RetryPolicy.RateLimitedBackoff(List.of(
            new RetryPolicy.ResetHeader("X-RateLimit-Reset", RetryPolicy.ResetFormat.UNIX_TIMESTAMP),
            new RetryPolicy.ResetHeader("Retry-After", RetryPolicy.ResetFormat.SECONDS)),
            Optional.of(Duration.ofSeconds(5)))));
    for (String spelling : List.of("retriableStatusCodes", "retriable_status_codes")) {
      Route route = readVs(vs("{}", retries.formatted(spelling))).routes().get(0);
      assertThat(route.retries()).contains(expected);
    }
    assertThat(readVs(vs(retries.formatted("retriableStatusCodes"), "{}")).options().retries()).contains(expected);
  }

  @Test
  void retriesGivenInBothSpellingsConflict() {
    assertThat(rejection(vs("{}", "{retries: {retryOn: 5xx, numRetries: 1, num_retries: 2}}")))
        .extracting(Finding::field).containsExactly("spec.virtualHost.routes[0].options.retries.num_retries");
  }

  @Test
  void glooWritesZeroRetriesAsOne() {
    Route route = readVs(vs("{}", "{retries: {retryOn: 5xx, numRetries: 0}}")).routes().get(0);
    assertThat(route.retries().map(RetryPolicy::attempts)).contains(1);
  }

  @Test
  void retryPrioritiesAreNotRead() {
    assertThat(rejection(vs("{}", "{retries: {retryOn: 5xx, previousPriorities: {updateFrequency: 2}}}")))
        .extracting(Finding::field, Finding::reason).containsExactly(
            tuple("spec.virtualHost.routes[0].options.retries.previousPriorities", GlooFeatures.UNSUPPORTED));
  }

  @Test
  void appendXForwardedHostKeepsTheRewrittenHost() {
    Route route = readVs(vs("{}", "{hostRewrite: internal.test, appendXForwardedHost: true}")).routes().get(0);
    assertThat(route.options().hostRewrite()).contains("internal.test");
    assertThat(route.options().appendXForwardedHost()).isTrue();
  }

  @Test
  void aRouteTableWithOptionsIsNotGloosApi() {
    GlooReading reading = read("""
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: a-routes, namespace: a}
        spec:
          routes: [{matchers: [{prefix: /a/1}], routeAction: {single: {upstream: {name: foo}}}}]
          options: {headerManipulation: {requestHeadersToRemove: [x-a]}}
        """);
    List<Finding> findings = reading.rejected().get(new ResourceKey(GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE,
        "a", "a-routes"));
    assertThat(findings).extracting(Finding::field, Finding::reason)
        .containsExactly(tuple("spec.options", GlooFeatures.UNSUPPORTED));
    assertThat(findings.get(0).message()).startsWith(GlooFeatures.NOT_A_GLOO_FIELD).contains("Gloo refuses");
  }

  @Test
  void aRedirectStripsTheQueryWhenAsked() {
    VirtualService vs = readVs("""
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - matchers: [{exact: /old}]
              redirectAction: {pathRedirect: /new, stripQuery: true, responseCode: FOUND}
        """);
    assertThat(vs.routes().get(0).action()).isEqualTo(new io.holdfast.api.RouteAction.Redirect(Optional.empty(),
        Optional.of("/new"), Optional.empty(), 302, false, true));
  }

  @Test
  void upstreamSubjectAltNamesAreCheckedBesideTheRootCa() {
    String upstream = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: nginx, namespace: nginx}
        spec:
          sslConfig:
            oneWayTls: true
            verifySubjectAltName: [invalid.san.com]
            %s
          static: {hosts: [{addr: nginx.example.test, port: 8443}]}
        """;
    GlooReading reading = GlooReading.of(GlooFixtures.withSecret(GlooFixtures.load(upstream.formatted(
        "secretRef: {name: nginx-tls, namespace: nginx}")), "nginx", "nginx-tls", java.util.Map.of("ca.crt", "CA")));
    io.holdfast.api.UpstreamOptions.Tls tls = reading.holdfastConfig().upstreams().get(0).options().tls().orElseThrow();
    assertThat(tls.subjectAltNames()).containsExactly("invalid.san.com");
    assertThat(tls.effectiveVerify()).isEqualTo(io.holdfast.api.UpstreamOptions.TlsVerify.CA);

    GlooReading withoutCa = read(upstream.formatted("sslFiles: {tlsCert: /c.pem, tlsKey: /k.pem}"));
    assertThat(withoutCa.rejected().values()).singleElement().satisfies(findings -> assertThat(findings)
        .extracting(Finding::field).containsExactly("spec.sslConfig.verifySubjectAltName"));
  }

  @Test
  void maxStreamDurationIsReadWithoutTheGrpcTimeoutHeaders() {
    Route route = readVs(vs("{}", "{maxStreamDuration: {maxStreamDuration: 30s}}")).routes().get(0);
    assertThat(route.options().maxStreamDuration()).contains(Duration.ofSeconds(30));
    assertThat(rejection(vs("{}", "{maxStreamDuration: {grpcTimeoutHeaderMax: 5s}}"))).extracting(Finding::field)
        .containsExactly("spec.virtualHost.routes[0].options.maxStreamDuration.grpcTimeoutHeaderMax");
  }
}
