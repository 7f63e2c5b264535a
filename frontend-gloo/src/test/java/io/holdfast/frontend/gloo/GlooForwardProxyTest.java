package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Reasons;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gloo's dynamic forward proxy is read field by field (so a malformed one is reported as such) and then refused
 * with {@code ForwardProxyNotPermitted}: the Gateway enabling the filter and the VirtualService routing through it
 * are rejected, never served as an open proxy that could reach denied networks.
 */
class GlooForwardProxyTest {

  private static final String UPSTREAM = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: backend, namespace: gloo-system}
      spec:
        static: {hosts: [{addr: 192.0.2.10, port: 8080}]}
      ---
      """;

  private static String gateway(String dfp) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          httpGateway:
            options:
              dynamicForwardProxy:
        %s
        ---
        """.formatted(dfp.indent(8).stripTrailing());
  }

  private static String virtualService(String action) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: vs, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['foo']
            routes:
            - matchers: [{prefix: /api}]
              routeAction:
                single: {upstream: {name: backend, namespace: gloo-system}}
            - matchers: [{prefix: /}]
              routeAction:
        %s
        """.formatted(action.indent(8).stripTrailing());
  }

  private static List<Finding> errors(ObjectStatus status) {
    assertThat(status.isAccepted()).as("%s", status.findings()).isFalse();
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  private static List<Finding> vsErrors(String action) {
    return errors(GlooFixtures.virtualService(GlooFixtures.build(GlooFixtures.load(UPSTREAM + virtualService(
        action))), "gloo-system", "vs"));
  }

  private static List<Finding> gatewayErrors(String dfp) {
    return errors(GlooFixtures.gateway(GlooFixtures.build(GlooFixtures.load(gateway(dfp))), "gloo-system", "gw"));
  }

  @Test
  void theGuidesRouteIsReadAndRefusedByPolicyNotAsAnUnknownField() {
    List<Finding> errors = vsErrors("""
        dynamicForwardProxy:
          autoHostRewriteHeader: "x-rewrite-me"
        """);
    assertThat(errors).extracting(Finding::reason).containsExactly(GlooForwardProxy.NOT_PERMITTED);
    assertThat(errors.get(0).field()).endsWith("routeAction.dynamicForwardProxy");
    assertThat(errors.get(0).message()).contains("169.254.169.254", "rejected");
  }

  @Test
  void aLiteralHostRewriteIsRefusedToo() {
    assertThat(vsErrors("dynamicForwardProxy: {hostRewrite: example.org}")).extracting(Finding::reason)
        .containsExactly(GlooForwardProxy.NOT_PERMITTED);
  }

  @Test
  void malformedRouteConfigsAreNamedBesideTheRefusal() {
    assertThat(vsErrors("dynamicForwardProxy: {}")).extracting(Finding::reason)
        .containsExactlyInAnyOrder(Reasons.MISSING_FIELD, GlooForwardProxy.NOT_PERMITTED);
    assertThat(vsErrors("dynamicForwardProxy: {hostRewrite: a.example, autoHostRewriteHeader: x-h}"))
        .extracting(Finding::reason).contains(Reasons.CONFLICTING_FIELDS);
    assertThat(vsErrors("dynamicForwardProxy: {autoHostRewriteHeader: 'bad header'}"))
        .extracting(Finding::reason).contains(Reasons.INVALID_VALUE);
    assertThat(vsErrors("dynamicForwardProxy: {hostRewrite: a.example, unknownField: 1}"))
        .extracting(Finding::reason).contains(GlooFeatures.UNSUPPORTED);
  }

  @Test
  void theGatewayEnablingTheFilterIsRefused() {
    assertThat(gatewayErrors("{}")).extracting(Finding::reason).containsExactly(GlooForwardProxy.NOT_PERMITTED);
    assertThat(gatewayErrors("""
        dnsCacheConfig:
          dnsLookupFamily: V4_ONLY
          dnsRefreshRate: 60s
          hostTtl: 300s
          maxHosts: 1024
          dnsQueryTimeout: 5s
          dnsFailureRefreshRate: {baseInterval: 2s, maxInterval: 10s}
          dnsCacheCircuitBreaker: {maxPendingRequests: 100}
        saveUpstreamAddress: true
        """)).extracting(Finding::reason).containsExactly(GlooForwardProxy.NOT_PERMITTED);
  }

  @Test
  void malformedDnsCachesAreNamed() {
    assertThat(gatewayErrors("dnsCacheConfig: {dnsLookupFamily: V5_ONLY}")).extracting(Finding::reason)
        .contains(Reasons.INVALID_VALUE, GlooForwardProxy.NOT_PERMITTED);
    assertThat(gatewayErrors("dnsCacheConfig: {maxHosts: 0}")).extracting(Finding::reason)
        .contains(Reasons.INVALID_VALUE);
    assertThat(gatewayErrors("dnsCacheConfig: {dnsRefreshRate: 0s}")).extracting(Finding::reason)
        .contains(Reasons.INVALID_DURATION);
    assertThat(gatewayErrors("dnsCacheConfig: {dnsFailureRefreshRate: {maxInterval: 1s}}"))
        .extracting(Finding::reason).contains(Reasons.MISSING_FIELD);
    // Resolvers Holdfast does not read are named as unsupported rather than dropped.
    assertThat(gatewayErrors("dnsCacheConfig: {appleDns: {}}")).extracting(Finding::reason)
        .contains(GlooFeatures.UNSUPPORTED);
  }
}
