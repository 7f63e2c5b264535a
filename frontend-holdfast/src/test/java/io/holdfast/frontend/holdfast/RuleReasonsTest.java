package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each rule's reason code and field path, one bad field per case. */
class RuleReasonsTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");
  private static final ResourceKey UP = ResourceKey.upstream("default", "up");
  private static final ResourceKey GW = ResourceKey.gateway("default", "gw");

  static Stream<Arguments> routeCases() {
    return Stream.of(
        Arguments.of("{match: {regex: '/(?=a)'}, route: {upstream: up}}", "spec.routes[0].match.regex",
            Reasons.INVALID_REGEX),
        Arguments.of("{match: {regex: '(a'}, route: {upstream: up}}", "spec.routes[0].match.regex",
            Reasons.INVALID_REGEX),
        Arguments.of("{match: {prefix: /, headers: [{name: x, regex: '(a)\\1'}]}, route: {upstream: up}}",
            "spec.routes[0].match.headers[0].regex", Reasons.INVALID_REGEX),
        Arguments.of("{match: {prefix: api}, route: {upstream: up}}", "spec.routes[0].match.prefix",
            Reasons.INVALID_PATH),
        Arguments.of("{match: {exact: x}, route: {upstream: up}}", "spec.routes[0].match.exact", Reasons.INVALID_PATH),
        Arguments.of("{match: {}, route: {upstream: up}}", "spec.routes[0].match", Reasons.EMPTY_MATCHER),
        Arguments.of("{match: {headers: [{name: x, prefix: ''}]}, route: {upstream: up}}",
            "spec.routes[0].match.headers[0].prefix", Reasons.EMPTY_MATCHER),
        Arguments.of("{match: {headers: [{name: X-A, exact: a}, {name: x-a, exact: b}]}, route: {upstream: up}}",
            "spec.routes[0].match.headers[1].name", Reasons.CONFLICTING_MATCHER),
        Arguments.of("{match: {methods: [GET], headers: [{name: ':method', exact: GET}]}, route: {upstream: up}}",
            "spec.routes[0].match.headers[0].name", Reasons.CONFLICTING_MATCHER),
        Arguments.of("{match: {methods: [GET, GET]}, route: {upstream: up}}", "spec.routes[0].match.methods",
            Reasons.CONFLICTING_MATCHER),
        Arguments.of("{match: {headers: [{name: 'bad header', present: true}]}, route: {upstream: up}}",
            "spec.routes[0].match.headers[0].name", Reasons.INVALID_HEADER_NAME),
        Arguments.of("{match: {prefix: /}, route: {upstream: nope}}", "spec.routes[0].route.upstream",
            Reasons.UPSTREAM_NOT_FOUND),
        Arguments.of("{match: {prefix: /}, route: {upstream: up, namespace: other}}", "spec.routes[0].route.upstream",
            Reasons.UPSTREAM_NOT_FOUND),
        Arguments.of("{match: {prefix: /}, route: {upstream: Up}}", "spec.routes[0].route.upstream",
            Reasons.INVALID_NAME),
        Arguments.of("{match: {prefix: /}, split: [{upstream: up, weight: 0}]}", "spec.routes[0].split",
            Reasons.ZERO_TOTAL_WEIGHT),
        Arguments.of("{match: {prefix: /}, split: []}", "spec.routes[0].split", Reasons.ZERO_TOTAL_WEIGHT),
        Arguments.of("{match: {prefix: /}, split: [{upstream: up, weight: -1}, {upstream: up, weight: 1}]}",
            "spec.routes[0].split[0].weight", Reasons.INVALID_WEIGHT),
        Arguments.of("{match: {prefix: /}, split: [{upstream: up, weight: 1}, {upstream: gone, weight: 1}]}",
            "spec.routes[0].split[1].upstream", Reasons.UPSTREAM_NOT_FOUND),
        Arguments.of("{match: {prefix: /}, redirect: {host: a.test, responseCode: 304}}",
            "spec.routes[0].redirect.responseCode", Reasons.INVALID_RESPONSE_CODE),
        Arguments.of("{match: {prefix: /}, redirect: {}}", "spec.routes[0].redirect", Reasons.EMPTY_REDIRECT),
        Arguments.of("{match: {prefix: /}, redirect: {path: new}}", "spec.routes[0].redirect.path",
            Reasons.INVALID_PATH),
        Arguments.of("{match: {prefix: /}, directResponse: {status: 700}}", "spec.routes[0].directResponse.status",
            Reasons.INVALID_STATUS),
        Arguments.of("{match: {prefix: /}, directResponse: {status: 200, body: '" + "x".repeat(4097) + "'}}",
            "spec.routes[0].directResponse.body", Reasons.INVALID_VALUE),
        Arguments.of("{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 0, retryOn: [5xx]}}",
            "spec.routes[0].retries.attempts", Reasons.INVALID_RETRY_POLICY),
        Arguments.of("{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: [5xx, oops]}}",
            "spec.routes[0].retries.retryOn[1]", Reasons.INVALID_RETRY_POLICY),
        Arguments.of("{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: []}}",
            "spec.routes[0].retries.retryOn", Reasons.INVALID_RETRY_POLICY),
        Arguments.of("{match: {prefix: /}, route: {upstream: up}, retries: {attempts: 1, retryOn: [reset],"
            + " perTryTimeout: 0s}}", "spec.routes[0].retries.perTryTimeout", Reasons.INVALID_DURATION));
  }

  @ParameterizedTest
  @MethodSource("routeCases")
  void routeRule(String route, String field, String reason) {
    GatewayConfig config = TestManifests.config(TestManifests.upstream("up", 9101), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes: [%s]
        """.formatted(route));
    ValidationResult result = new Validator().validate(config);
    ResourceStatus status = result.status(VS);
    assertThat(status.state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status.problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(field, reason));
    assertThat(result.accepted().virtualServices()).isEmpty();
    assertThat(result.status(UP).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
  }

  static Stream<Arguments> domainCases() {
    return Stream.of(
        Arguments.of("[]", "spec.domains", Reasons.INVALID_DOMAIN),
        Arguments.of("[Web.test]", "spec.domains[0]", Reasons.INVALID_DOMAIN),
        Arguments.of("['a.*.test']", "spec.domains[0]", Reasons.INVALID_DOMAIN),
        Arguments.of("['a.test:99999']", "spec.domains[0]", Reasons.INVALID_DOMAIN),
        Arguments.of("['a b']", "spec.domains[0]", Reasons.INVALID_DOMAIN),
        Arguments.of("[a.test, b.test, a.test]", "spec.domains[2]", Reasons.DUPLICATE_DOMAIN));
  }

  @ParameterizedTest
  @MethodSource("domainCases")
  void domainRule(String domains, String field, String reason) {
    GatewayConfig config = TestManifests.config(TestManifests.upstream("up", 9101), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: %s
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """.formatted(domains));
    assertThat(new Validator().validate(config).status(VS).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(field, reason));
  }

  static Stream<Arguments> upstreamCases() {
    return Stream.of(
        Arguments.of("static: {hosts: [{address: 127.0.0.1, port: 0}]}", "spec.static.hosts[0].port",
            Reasons.PORT_OUT_OF_RANGE),
        Arguments.of("static: {hosts: [{address: 127.0.0.1, port: 65536}]}", "spec.static.hosts[0].port",
            Reasons.PORT_OUT_OF_RANGE),
        Arguments.of("static: {hosts: [{address: backend_1.test, port: 80}]}", "spec.static.hosts[0].address",
            Reasons.INVALID_ADDRESS),
        Arguments.of("static: {hosts: [{address: 127.0.0.256, port: 80}]}", "spec.static.hosts[0].address",
            Reasons.INVALID_ADDRESS),
        Arguments.of("static: {hosts: [{address: -a.test, port: 80}]}", "spec.static.hosts[0].address",
            Reasons.INVALID_ADDRESS),
        Arguments.of("static: {hosts: [{address: 127.0.0.1, port: 80, weight: 0}]}", "spec.static.hosts[0].weight",
            Reasons.INVALID_WEIGHT),
        Arguments.of("kube: {name: svc, port: 70000}", "spec.kube.port", Reasons.PORT_OUT_OF_RANGE),
        Arguments.of("kube: {name: Svc_1, port: 80}", "spec.kube.name", Reasons.INVALID_NAME),
        Arguments.of("{kube: {name: svc, port: 80}, connectTimeout: 0s}", "spec.connectTimeout",
            Reasons.INVALID_DURATION));
  }

  private static final String NAMED = "static: {hosts: [{address: a.test, port: 80}, {address: b.test, port: 80}]}";
  private static final String KUBE = "kube: {name: svc, port: 80}";

  /** One bad value of an upstream option per case. */
  static Stream<Arguments> upstreamOptionCases() {
    return Stream.of(
        Arguments.of(NAMED + ", dns: {resolution: LOGICAL}", "spec.dns.resolution", Reasons.INVALID_DNS),
        Arguments.of(NAMED + ", dns: {refreshRate: 1ms}", "spec.dns.refreshRate", Reasons.INVALID_DURATION),
        Arguments.of(KUBE + ", circuitBreakers: {maxConnections: 0}", "spec.circuitBreakers.maxConnections",
            Reasons.INVALID_CIRCUIT_BREAKERS),
        Arguments.of(KUBE + ", circuitBreakers: {maxPendingRequests: 0}", "spec.circuitBreakers.maxPendingRequests",
            Reasons.INVALID_CIRCUIT_BREAKERS),
        Arguments.of(KUBE + ", circuitBreakers: {maxRequests: 0}", "spec.circuitBreakers.maxRequests",
            Reasons.INVALID_CIRCUIT_BREAKERS),
        Arguments.of(KUBE + ", circuitBreakers: {maxRetries: -1}", "spec.circuitBreakers.maxRetries",
            Reasons.INVALID_CIRCUIT_BREAKERS),
        Arguments.of(KUBE + ", outlierDetection: {interval: 5s}", "spec.outlierDetection",
            Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {consecutive5xx: 0}", "spec.outlierDetection.consecutive5xx",
            Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {consecutiveGatewayErrors: 0}",
            "spec.outlierDetection.consecutiveGatewayErrors", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {consecutive5xx: 5, maxEjectionPercent: 101}",
            "spec.outlierDetection.maxEjectionPercent", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {consecutive5xx: 5, interval: 0s}",
            "spec.outlierDetection.interval", Reasons.INVALID_DURATION),
        Arguments.of(KUBE + ", outlierDetection: {consecutive5xx: 5, baseEjectionTime: 0ms}",
            "spec.outlierDetection.baseEjectionTime", Reasons.INVALID_DURATION),
        Arguments.of(KUBE + ", outlierDetection: {successRate: {minimumHosts: 0}}",
            "spec.outlierDetection.successRate.minimumHosts", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {successRate: {requestVolume: 0}}",
            "spec.outlierDetection.successRate.requestVolume", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {successRate: {stdevFactor: 0}}",
            "spec.outlierDetection.successRate.stdevFactor", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {failurePercentage: {threshold: 120}}",
            "spec.outlierDetection.failurePercentage.threshold", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {failurePercentage: {minimumHosts: 0}}",
            "spec.outlierDetection.failurePercentage.minimumHosts", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", outlierDetection: {failurePercentage: {requestVolume: 0}}",
            "spec.outlierDetection.failurePercentage.requestVolume", Reasons.INVALID_OUTLIER_DETECTION),
        Arguments.of(KUBE + ", healthChecks: [{tcp: {}, timeout: 0s, interval: 5s}]", "spec.healthChecks[0].timeout",
            Reasons.INVALID_DURATION),
        Arguments.of(KUBE + ", healthChecks: [{tcp: {}, timeout: 1s, interval: 0s}]",
            "spec.healthChecks[0].interval", Reasons.INVALID_DURATION),
        Arguments.of(KUBE + ", healthChecks: [{tcp: {}, timeout: 1s, interval: 5s, healthyThreshold: 0}]",
            "spec.healthChecks[0].healthyThreshold", Reasons.INVALID_HEALTH_CHECK),
        Arguments.of(KUBE + ", healthChecks: [{tcp: {}, timeout: 1s, interval: 5s, unhealthyThreshold: 0}]",
            "spec.healthChecks[0].unhealthyThreshold", Reasons.INVALID_HEALTH_CHECK),
        Arguments.of(KUBE + ", healthChecks: [{http: {path: healthz}, timeout: 1s, interval: 5s}]",
            "spec.healthChecks[0].http.path", Reasons.INVALID_PATH),
        Arguments.of(KUBE + ", healthChecks: [{http: {path: '/a b'}, timeout: 1s, interval: 5s}]",
            "spec.healthChecks[0].http.path", Reasons.INVALID_PATH),
        Arguments.of(KUBE + ", healthChecks: [{http: {path: /, host: '*.test'}, timeout: 1s, interval: 5s}]",
            "spec.healthChecks[0].http.host", Reasons.INVALID_HEALTH_CHECK),
        Arguments.of(KUBE + ", healthChecks: [{http: {path: /, expectedStatuses: [{start: 200, end: 200}]},"
            + " timeout: 1s, interval: 5s}]", "spec.healthChecks[0].http.expectedStatuses[0]", Reasons.INVALID_STATUS),
        Arguments.of(KUBE + ", healthChecks: [{http: {path: /, expectedStatuses: [{start: 200, end: 601}]},"
            + " timeout: 1s, interval: 5s}]", "spec.healthChecks[0].http.expectedStatuses[0]", Reasons.INVALID_STATUS),
        Arguments.of(KUBE + ", healthChecks: [{grpc: {}, timeout: 1s, interval: 5s}]", "spec.healthChecks[0].grpc",
            Reasons.INVALID_HEALTH_CHECK),
        Arguments.of(KUBE + ", tls: {sni: 'bad_name.test'}", "spec.tls.sni", Reasons.INVALID_UPSTREAM_TLS),
        Arguments.of(KUBE + ", tls: {sni: 'api.test.', verify: NONE}", "spec.tls.sni", Reasons.INVALID_UPSTREAM_TLS),
        Arguments.of(KUBE + ", tls: {}", "spec.tls.sni", Reasons.INVALID_UPSTREAM_TLS),
        Arguments.of(NAMED + ", tls: {verify: SYSTEM}", "spec.tls.sni", Reasons.INVALID_UPSTREAM_TLS),
        Arguments.of(KUBE + ", tls: {verify: NONE, subjectAltNames: [api.test]}", "spec.tls.subjectAltNames",
            Reasons.INVALID_UPSTREAM_TLS),
        Arguments.of(KUBE + ", tls: {subjectAltNames: ['a b']}", "spec.tls.subjectAltNames[0]",
            Reasons.INVALID_UPSTREAM_TLS));
  }

  @ParameterizedTest
  @MethodSource("upstreamOptionCases")
  void upstreamOptionRule(String spec, String field, String reason) {
    upstreamRule(spec, field, reason);
  }

  @ParameterizedTest
  @MethodSource("upstreamCases")
  void upstreamRule(String spec, String field, String reason) {
    GatewayConfig config = TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up}
        spec: %s
        """.formatted(spec.startsWith("{") ? spec : "{" + spec + "}"));
    ResourceStatus status = new Validator().validate(config).status(UP);
    assertThat(status.state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status.problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(field, reason));
  }

  static Stream<Arguments> gatewayCases() {
    return Stream.of(
        Arguments.of("{port: 0}", "spec.port", Reasons.PORT_OUT_OF_RANGE),
        Arguments.of("{port: 80, bindAddress: localhost}", "spec.bindAddress", Reasons.INVALID_ADDRESS),
        Arguments.of("{port: 80, virtualServices: [{name: Web}]}", "spec.virtualServices[0].name",
            Reasons.INVALID_NAME));
  }

  @ParameterizedTest
  @MethodSource("gatewayCases")
  void gatewayRule(String spec, String field, String reason) {
    GatewayConfig config = TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gw}
        spec: %s
        """.formatted(spec));
    ResourceStatus status = new Validator().validate(config).status(GW);
    assertThat(status.state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status.problems()).extracting(Problem::field, Problem::reason).startsWith(
        org.assertj.core.groups.Tuple.tuple(field, reason));
  }

  @ParameterizedTest
  @MethodSource("metadataCases")
  void invalidNames(String metadata, String field) {
    GatewayConfig config = TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: %s
        spec: {port: 8080}
        """.formatted(metadata));
    ResourceStatus status = new Validator().validate(config).statuses().values().iterator().next();
    assertThat(status.problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(field, Reasons.INVALID_NAME));
  }

  static Stream<Arguments> metadataCases() {
    return Stream.of(
        Arguments.of("{name: My_Gateway}", "metadata.name"),
        Arguments.of("{name: gw, namespace: a.b}", "metadata.namespace"),
        Arguments.of("{name: ''}", "metadata.name"));
  }
}
