package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelParserTest {

  private final ModelParser parser = new ModelParser();

  private GatewayResource parsed(String yaml) {
    ParseResult result = parser.parse(tree(yaml));
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    return ((ParseResult.Parsed) result).resource();
  }

  private ParseResult.Invalid invalid(String yaml) {
    ParseResult result = parser.parse(tree(yaml));
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    return (ParseResult.Invalid) result;
  }

  @Test
  void staticUpstreamGetsDefaults() {
    Upstream upstream = (Upstream) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo, labels: {team: a}, generation: 7}
        spec:
          static:
            hosts:
              - {address: 127.0.0.1, port: 9101}
              - {address: 127.0.0.2, port: 9102, weight: 3}
        """);
    assertThat(upstream.key()).isEqualTo(ResourceKey.upstream("default", "echo"));
    assertThat(upstream.metadata().labels()).containsEntry("team", "a");
    assertThat(upstream.metadata().generation()).isEqualTo(7);
    assertThat(upstream.loadBalancing()).isEqualTo(LoadBalancing.ROUND_ROBIN);
    assertThat(upstream.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(upstream.http2()).isFalse();
    assertThat(upstream.target()).isEqualTo(new UpstreamTarget.Static(List.of(
        new UpstreamTarget.Host("127.0.0.1", 9101, 1), new UpstreamTarget.Host("127.0.0.2", 9102, 3))));
  }

  @Test
  void kubeUpstreamWithOptions() {
    Upstream upstream = (Upstream) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: grpc, namespace: shop}
        spec:
          kube: {name: backend, port: 8080}
          loadBalancing: LEAST_REQUEST
          connectTimeout: 250ms
          http2: true
        """);
    assertThat(upstream.key()).hasToString("Upstream/shop/grpc");
    assertThat(upstream.target()).isEqualTo(new UpstreamTarget.Kube(Optional.empty(), "backend", 8080));
    assertThat(((UpstreamTarget.Kube) upstream.target()).service("shop"))
        .isEqualTo(new ServiceRef("shop", "backend", 8080));
    assertThat(upstream.loadBalancing()).isEqualTo(LoadBalancing.LEAST_REQUEST);
    assertThat(upstream.connectTimeout()).isEqualTo(Duration.ofMillis(250));
    assertThat(upstream.http2()).isTrue();
  }

  @Test
  void virtualServiceWithEveryAction() {
    VirtualService vs = (VirtualService) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [example.test]
          routes:
            - name: canary
              match:
                prefix: /api
                headers: [{name: x-canary, exact: "yes"}, {name: x-debug, present: true, invert: true}]
                methods: [GET, POST]
              split: [{upstream: a, weight: 90}, {upstream: b, namespace: other, weight: 10}]
              timeout: 2s
              retries: {attempts: 2, perTryTimeout: 500ms, retryOn: [5xx, reset]}
              prefixRewrite: /v2
            - match: {exact: /old}
              redirect: {path: /new, responseCode: 308}
            - match: {regex: "/files/[0-9]+"}
              directResponse: {status: 404, body: gone}
            - match: {prefix: /}
              route: {upstream: a}
        """);
    assertThat(vs.domains()).containsExactly("example.test");
    Route canary = vs.routes().get(0);
    assertThat(canary.name()).contains("canary");
    assertThat(canary.match().path()).contains(new PathMatch.Prefix("/api"));
    assertThat(canary.match().headers()).containsExactly(
        new HeaderMatch("x-canary", new HeaderMatch.Exact("yes"), false),
        new HeaderMatch("x-debug", new HeaderMatch.Present(true), true));
    assertThat(canary.match().methods()).containsExactly(HttpMethod.GET, HttpMethod.POST);
    assertThat(canary.action()).isEqualTo(new RouteAction.Split(List.of(
        new RouteAction.WeightedTarget(ObjectRef.of("a"), 90),
        new RouteAction.WeightedTarget(ObjectRef.of("other", "b"), 10))));
    assertThat(canary.timeout()).contains(Duration.ofSeconds(2));
    assertThat(canary.retries()).contains(new RetryPolicy(2, Optional.of(Duration.ofMillis(500)), List.of("5xx", "reset")));
    assertThat(canary.prefixRewrite()).contains("/v2");
    assertThat(vs.routes().get(1).action())
        .isEqualTo(new RouteAction.Redirect(Optional.empty(), Optional.of("/new"), Optional.empty(), 308, false));
    assertThat(vs.routes().get(2).action()).isEqualTo(new RouteAction.DirectResponse(404, Optional.of("gone")));
    assertThat(vs.routes().get(3).action()).isEqualTo(new RouteAction.Forward(ObjectRef.of("a")));
  }

  @Test
  void gatewaySelections() {
    Gateway all = (Gateway) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: public}
        spec: {port: 10080}
        """);
    assertThat(all.bindAddress()).isEqualTo("0.0.0.0");
    assertThat(all.selection()).isEqualTo(new VirtualServiceSelection.AllInNamespace());
    Gateway named = (Gateway) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: public}
        spec: {port: 80, bindAddress: 127.0.0.1, virtualServices: [{name: web}, {name: api, namespace: x}]}
        """);
    assertThat(named.selection())
        .isEqualTo(new VirtualServiceSelection.Named(List.of(ObjectRef.of("web"), ObjectRef.of("x", "api"))));
    Gateway selector = (Gateway) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: public}
        spec: {port: 80, selector: {matchLabels: {expose: public}}}
        """);
    assertThat(selector.selection()).isEqualTo(new VirtualServiceSelection.LabelSelector(Map.of("expose", "public")));
  }

  @Test
  void kubernetesMetadataAndStatusAreAccepted() {
    Upstream upstream = (Upstream) parsed("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata:
          name: echo
          namespace: prod
          uid: 0b3f
          resourceVersion: "42"
          creationTimestamp: "2026-01-31T12:00:00Z"
          annotations: {note: hi}
          managedFields: [{manager: kubectl}]
        spec: {static: {hosts: []}}
        status: {anything: goes}
        """);
    assertThat(upstream.metadata().resourceVersion()).isEqualTo("42");
    assertThat(upstream.metadata().creationTimestamp()).contains(java.time.Instant.parse("2026-01-31T12:00:00Z"));
  }

  @Test
  void unknownFieldIsReportedWithItsJsonPath() {
    ParseResult.Invalid result = invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [a.test]
          routes:
            - {match: {prefix: /a}, route: {upstream: a}}
            - {match: {prefix: /b}, route: {upstream: a}}
            - {match: {prefx: /c}, route: {upstream: a}}
        """);
    assertThat(result.key()).contains(ResourceKey.virtualService("default", "web"));
    assertThat(result.problems()).extracting(Problem::field, Problem::reason)
        .contains(org.assertj.core.groups.Tuple.tuple("spec.routes[2].match.prefx", Reasons.UNKNOWN_FIELD));
    assertThat(result.problems().get(0).toString())
        .startsWith("spec.routes[2].match.prefx: unknown field (allowed: caseSensitive, exact, headers, methods,"
            + " prefix, queryParameters, regex)");
  }

  @Test
  void labelKeysWithDotsAndSlashesAreQuotedInPaths() {
    ParseResult.Invalid result = invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo, labels: {app.kubernetes.io/version: 3}}
        spec: {static: {hosts: []}}
        """);
    assertThat(result.problems()).containsExactly(new Problem("metadata.labels[\"app.kubernetes.io/version\"]",
        Reasons.WRONG_TYPE, "expected a string, got number 3"));
  }

  @Test
  void wrongTypesMissingFieldsAndBadValues() {
    ParseResult.Invalid result = invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo}
        spec:
          static:
            hosts: [{address: 127.0.0.1, port: "80"}, {port: 81}]
          loadBalancing: round_robin
          connectTimeout: "5"
          http2: "yes"
        """);
    assertThat(result.problems()).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("spec.static.hosts[0].port", Reasons.WRONG_TYPE),
        org.assertj.core.groups.Tuple.tuple("spec.static.hosts[1].address", Reasons.MISSING_FIELD),
        org.assertj.core.groups.Tuple.tuple("spec.loadBalancing", Reasons.INVALID_VALUE),
        org.assertj.core.groups.Tuple.tuple("spec.connectTimeout", Reasons.INVALID_DURATION),
        org.assertj.core.groups.Tuple.tuple("spec.http2", Reasons.WRONG_TYPE));
  }

  @Test
  void exclusiveFieldsAndMatchers() {
    ParseResult.Invalid result = invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [a.test]
          routes:
            - {match: {prefix: /a, exact: /a}, route: {upstream: a}}
            - {match: {prefix: /b, headers: [{name: x}]}, route: {upstream: a}}
            - {match: {prefix: /c, headers: [{name: x, exact: a, regex: b}]}, route: {upstream: a}}
            - {match: {prefix: /d}, route: {upstream: a}, directResponse: {status: 200}}
            - {match: {prefix: /e}}
            - {match: {prefix: /f}, redirect: {path: /x, prefixRewrite: /y}}
            - {match: {prefix: /g, methods: [GET, FETCH]}, route: {upstream: a}}
            - {route: {upstream: a}}
        """);
    assertThat(result.problems()).extracting(Problem::field, Problem::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.routes[0].match", Reasons.CONFLICTING_MATCHER),
        org.assertj.core.groups.Tuple.tuple("spec.routes[1].match.headers[0]", Reasons.EMPTY_MATCHER),
        org.assertj.core.groups.Tuple.tuple("spec.routes[2].match.headers[0]", Reasons.CONFLICTING_MATCHER),
        org.assertj.core.groups.Tuple.tuple("spec.routes[3]", Reasons.CONFLICTING_FIELDS),
        org.assertj.core.groups.Tuple.tuple("spec.routes[4]", Reasons.MISSING_FIELD),
        org.assertj.core.groups.Tuple.tuple("spec.routes[5].redirect", Reasons.CONFLICTING_FIELDS),
        org.assertj.core.groups.Tuple.tuple("spec.routes[6].match.methods[1]", Reasons.INVALID_VALUE),
        org.assertj.core.groups.Tuple.tuple("spec.routes[7].match", Reasons.MISSING_FIELD));
  }

  @Test
  void upstreamNeedsExactlyOneTarget() {
    assertThat(invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo}
        spec: {static: {hosts: []}, kube: {name: a, port: 1}}
        """).problems()).extracting(Problem::reason).containsExactly(Reasons.CONFLICTING_FIELDS);
    assertThat(invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo}
        spec: {http2: true}
        """).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec", Reasons.MISSING_FIELD));
  }

  @Test
  void gatewayCannotHaveBothSelections() {
    assertThat(invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: g}
        spec: {port: 80, virtualServices: [{name: a}], selector: {matchLabels: {}}}
        """).problems()).extracting(Problem::reason).containsExactly(Reasons.CONFLICTING_FIELDS);
  }

  @Test
  void foreignApiVersionsAndKindsKeepTheirKey() {
    ParseResult.Invalid version = invalid("""
        apiVersion: gateway.holdfast.io/v2
        kind: Upstream
        metadata: {name: echo}
        spec: {whatever: 1}
        """);
    assertThat(version.key()).contains(ResourceKey.upstream("default", "echo"));
    assertThat(version.problems()).extracting(Problem::reason).containsExactly(Reasons.UNSUPPORTED_API_VERSION);
    ParseResult.Invalid kind = invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: ConfigMap
        metadata: {name: x}
        """);
    assertThat(kind.key()).contains(new ResourceKey("ConfigMap", "default", "x"));
    assertThat(kind.problems()).extracting(Problem::reason).containsExactly(Reasons.UNSUPPORTED_KIND);
  }

  @Test
  void documentWithoutNameHasNoKey() {
    ParseResult.Invalid result = invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {namespace: x}
        spec: {port: 80}
        """);
    assertThat(result.key()).isEmpty();
    assertThat(result.toUnparsed()).isEmpty();
    assertThat(result.problems()).containsExactly(
        new Problem("metadata.name", Reasons.MISSING_FIELD, "required field is missing"));
  }

  @Test
  void unknownTopLevelAndMetadataFields() {
    ParseResult.Invalid result = invalid("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: g, nmespace: x}
        spec: {port: 80}
        extra: 1
        """);
    assertThat(result.problems()).extracting(Problem::field)
        .containsExactlyInAnyOrder("extra", "metadata.nmespace");
    assertThat(result.toUnparsed()).map(UnparsedResource::key).contains(ResourceKey.gateway("default", "g"));
  }
}
