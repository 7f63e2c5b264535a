package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code optionsConfigRefs}: VirtualHostOption and RouteOption objects merged as Gloo merges them. */
class GlooOptionObjectsTest {

  private static final String OPTIONS = """
      apiVersion: gateway.solo.io/v1
      kind: RouteOption
      metadata: {name: slow, namespace: gloo-system}
      spec:
        options:
          timeout: 30s
          prefixRewrite: /from-option
      ---
      apiVersion: gateway.solo.io/v1
      kind: RouteOption
      metadata: {name: fast, namespace: gloo-system}
      spec:
        options:
          timeout: 1s
          idleTimeout: 5s
      ---
      apiVersion: gateway.solo.io/v1
      kind: VirtualHostOption
      metadata: {name: headers, namespace: gloo-system}
      spec:
        options:
          headerManipulation:
            responseHeadersToRemove: [server]
      ---
      apiVersion: gateway.solo.io/v1
      kind: RouteOption
      metadata: {name: lambda, namespace: gloo-system}
      spec:
        options:
          transformations: {}
      ---
      """;

  private static String vs(String routeRefs, String routeOptions) {
    return """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: petstore, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.10, port: 8080}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            optionsConfigRefs: {delegateOptions: [{name: headers, namespace: gloo-system}]}
            routes:
            - matchers: [{prefix: /}]
              optionsConfigRefs: {delegateOptions: [%s]}
              options: %s
              routeAction: {single: {upstream: {name: petstore}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec: {bindPort: 8080, httpGateway: {}}
        """.formatted(routeRefs, routeOptions);
  }

  private static Route route(IrBuilder.Result result) {
    return result.ir().listeners().get(0).virtualHosts().get(0).routes().get(0);
  }

  @Test
  void ownOptionsWinThenReferencesInOrder() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(OPTIONS + vs(
        "{name: fast, namespace: gloo-system}, {name: slow, namespace: gloo-system}", "{prefixRewrite: /own}")));
    ObjectStatus vs = GlooFixtures.virtualService(result, "gloo-system", "default");
    assertThat(vs.isAccepted()).as("%s", vs.findings()).isTrue();
    RouteAction.ForwardPolicy policy = ((RouteAction.Forward) route(result).action()).policy();
    assertThat(policy.prefixRewrite()).contains("/own");
    assertThat(policy.timeout()).contains(Duration.ofSeconds(1)); // fast is referenced first
    assertThat(policy.idleTimeout()).contains(Duration.ofSeconds(5));
    assertThat(route(result).headers().responseRemove())
        .contains("server"); // the VirtualHostOption's header removal reaches the route
    assertThat(GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, "RouteOption", "gloo-system", "slow")
        .isAccepted()).isTrue();
  }

  @Test
  void aMissingOptionObjectIsAWarningAndARejectedOneAnError() {
    IrBuilder.Result missing = GlooFixtures.build(GlooFixtures.load(OPTIONS + vs("{name: nowhere}", "{}")));
    ObjectStatus served = GlooFixtures.virtualService(missing, "gloo-system", "default");
    assertThat(served.isAccepted()).isTrue();
    assertThat(served.findings()).extracting(Finding::reason).contains("OptionsNotFound");

    IrBuilder.Result rejected = GlooFixtures.build(GlooFixtures.load(OPTIONS + vs("{name: lambda}", "{}")));
    assertThat(GlooFixtures.status(rejected, GlooKinds.GATEWAY_GROUP, "RouteOption", "gloo-system", "lambda")
        .findings()).extracting(Finding::field).contains("spec.options.transformations");
    ObjectStatus referrer = GlooFixtures.virtualService(rejected, "gloo-system", "default");
    assertThat(referrer.isAccepted()).isFalse();
    assertThat(referrer.findings()).extracting(Finding::reason).contains("OptionsRejected");
  }

  @Test
  void optionObjectsOfADelegatingRouteAreMergedIntoItsOptionsAndHandedDownToTheDelegatedRoutes() {
    String yaml = OPTIONS + """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: petstore, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.10, port: 8080}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: parent, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - matchers: [{prefix: /api}]
              optionsConfigRefs: {delegateOptions: [{name: fast}, {name: slow}]}
              options: {timeout: 5s}
              delegateAction: {ref: {name: child}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: child, namespace: gloo-system}
        spec:
          routes:
          - matchers: [{prefix: /api/pets}]
            options: {prefixRewrite: /pets}
            routeAction: {single: {upstream: {name: petstore}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec: {bindPort: 8080, httpGateway: {}}
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    ObjectStatus status = GlooFixtures.virtualService(result, "gloo-system", "parent");
    assertThat(status.isAccepted()).as("%s", status.findings()).isTrue();
    RouteAction.ForwardPolicy policy = ((RouteAction.Forward) route(result).action()).policy();
    assertThat(policy.timeout()).as("the delegating route's own").contains(Duration.ofSeconds(5));
    assertThat(policy.idleTimeout()).as("from its first option object").contains(Duration.ofSeconds(5));
    assertThat(policy.prefixRewrite()).as("the delegated route's own, over the option object's").contains("/pets");
  }
}
