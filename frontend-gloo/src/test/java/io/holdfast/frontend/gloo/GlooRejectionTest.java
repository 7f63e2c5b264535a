package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import org.junit.jupiter.api.Test;

/** Never silent: what Holdfast cannot honour rejects its object, naming the field and why. */
class GlooRejectionTest {

  private static ObjectStatus virtualService(String routeOptions, String hostOptions) {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: gloo-system}
        spec:
          virtualHost:
            options: %s
            routes:
            - options: %s
              directResponseAction: {status: 200}
        """.formatted(hostOptions, routeOptions);
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    return GlooFixtures.virtualService(result, "gloo-system", "web");
  }

  private static Finding onlyError(ObjectStatus status) {
    assertThat(status.isAccepted()).isFalse();
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).findFirst().orElseThrow();
  }

  private static java.util.List<Finding> onlyErrors(ObjectStatus status) {
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  @Test
  void soloEnvoyFeaturesRejectTheirObjectNamingTheField() {
    Finding finding = onlyError(virtualService("{}", "{transformations: {clearRouteCache: true}}"));
    assertThat(finding.reason()).isEqualTo("UnsupportedGlooFeature");
    assertThat(finding.field()).isEqualTo("spec.virtualHost.options.transformations");
    assertThat(finding.message()).contains("Solo's own Envoy build");

    Finding waf = onlyError(virtualService("{waf: {disabled: false}}", "{}"));
    assertThat(waf.field()).isEqualTo("spec.virtualHost.routes[0].options.waf");
    assertThat(waf.message()).contains("Solo's own Envoy build");
  }

  @Test
  void edgePoliciesAreRejectedUntilHoldfastReadsThem() {
    Finding early = onlyError(virtualService("{}", "{ratelimitEarly: {rateLimits: []}}"));
    assertThat(early.field()).isEqualTo("spec.virtualHost.options.ratelimitEarly");
    assertThat(early.message()).contains("edge policy");
    // jwt and rbac are read (GlooSecurityOptionsTest); an rbac without policies is still refused.
    for (String policy : new String[] {"rbac: {}"}) {
      assertThat(onlyError(virtualService("{" + policy + "}", "{}")).reason()).isEqualTo("UnsupportedGlooFeature");
    }
  }

  @Test
  void unknownFieldsRejectTheirObject() {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: typo, namespace: default}
        spec:
          virtualHoost:
            domains: ['*']
        """;
    ObjectStatus status = GlooFixtures.virtualService(GlooFixtures.build(GlooFixtures.load(yaml)), "default", "typo");
    assertThat(onlyError(status).field()).isEqualTo("spec.virtualHoost");
  }

  @Test
  void gatewayListenerOptionsHoldfastLacksAreNotDropped() {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindPort: 8080
          httpGateway:
            options: {waf: {disabled: true}}
          options:
            socketOptions: [{level: 1, name: 9, intValue: 1}]
            accessLoggingService:
              accessLog: [{fileSink: {path: /dev/stdout}, filter: {notHealthCheckFilter: {}}}]
        """;
    ObjectStatus status = GlooFixtures.gateway(GlooFixtures.build(GlooFixtures.load(yaml)), "gloo-system", "gw");
    assertThat(status.isAccepted()).isFalse();
    assertThat(onlyErrors(status)).extracting(Finding::field).containsExactlyInAnyOrder(
        "spec.httpGateway.options.waf", "spec.options.socketOptions",
        "spec.options.accessLoggingService.accessLog[0].filter.notHealthCheckFilter");
  }

  @Test
  void otherGlooKindsAreRejectedByKind() {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: MatchableHttpGateway
        metadata: {name: m, namespace: gloo-system}
        spec: {}
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    ObjectStatus status = GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, "MatchableHttpGateway", "gloo-system",
        "m");
    assertThat(onlyError(status).field()).isEqualTo("kind");
  }

  @Test
  void aRejectedVirtualServiceLeavesItsGatewayServingTheOthers() {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: bad, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [bad.example.test]
            options: {waf: {}}
            routes: [{directResponseAction: {status: 200}}]
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: good, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [good.example.test]
            routes: [{directResponseAction: {status: 200}}]
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec: {bindPort: 8080, httpGateway: {}}
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.gateway(result, "gloo-system", "gw").isAccepted()).isTrue();
    assertThat(result.ir().listeners().stream().filter(l -> l instanceof io.holdfast.ir.Listener.Socket)
        .flatMap(l -> l.virtualHosts().stream())
        .map(h -> h.origin().object().name())).containsExactly("good");
  }

  @Test
  void aKeyThatIsNoFieldNameIsOneGlooRefusesToo() {
    // The access-logging guide indents with no-break spaces (U+00A0), so YAML reads them as part of the key.
    Finding nbsp = onlyError(virtualService("{}", "{\u00a0\u00a0cors: {}}"));
    assertThat(nbsp.message()).startsWith(GlooFeatures.NOT_A_GLOO_FIELD).contains("\\u00a0\\u00a0cors");
  }
}
