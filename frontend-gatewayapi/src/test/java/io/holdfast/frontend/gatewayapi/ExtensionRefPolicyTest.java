package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.options.SecurityOptionsLowering;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteTraffic;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HTTPRoute {@code ExtensionRef} filters naming a SecurityPolicy or TrafficPolicy: the policy applies to that rule
 * only and before the policies attached by targetRefs (most specific wins); a policy named so needs no targetRefs and
 * lists the route as an ancestor; a reference that cannot be resolved is ResolvedRefs=False and the rule answers 500.
 */
class ExtensionRefPolicyTest {

  private static final String GATEWAY = Fixtures.gateway("web", "edge", "- {name: http, port: 8080, protocol: HTTP}");
  private static final String GATEWAY_POLICY = """
      apiVersion: gateway.holdfast.io/v1
      kind: SecurityPolicy
      metadata: {name: gateway-wide, namespace: web}
      spec:
        targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
        rbac: {action: Deny, rules: [{clientIp: [192.0.2.0/24]}]}
      """;
  private static final String RULE_POLICY = """
      apiVersion: gateway.holdfast.io/v1
      kind: SecurityPolicy
      metadata: {name: admins, namespace: web}
      spec:
        rbac: {rules: [{directClientIp: [198.51.100.0/24]}]}
      """;
  private static final String LIMIT = """
      apiVersion: gateway.holdfast.io/v1
      kind: TrafficPolicy
      metadata: {name: slow, namespace: web}
      spec:
        rateLimit: {local: {maxTokens: 5, fillInterval: 1s}}
      """;

  private static String route(String rules) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: store, namespace: web}
        spec:
          parentRefs: [{name: edge}]
          hostnames: [store.test]
          rules:
        %s""".formatted(rules.indent(4));
  }

  private static IrBuilder.Result lower(String... yamls) {
    String[] all = new String[yamls.length + 2];
    all[0] = Fixtures.CLASS;
    all[1] = GATEWAY;
    System.arraycopy(yamls, 0, all, 2, yamls.length);
    return Fixtures.lower(Fixtures.config(Fixtures.services("web/store:8080", "web/other:8080"), all));
  }

  private static Route routeFor(IrBuilder.Result result, String prefix) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> l.virtualHosts().stream()).flatMap(h -> h.routes().stream())
        .filter(r -> r.match().path().value().equals(prefix)).findFirst()
        .orElseThrow(() -> new AssertionError("no route for " + prefix));
  }

  private static ResourceKey policy(String kind, String name) {
    return new ResourceKey(PolicyKinds.GROUP, kind, "web", name);
  }

  @Test
  void aRulesPolicyBeatsTheGatewaysForThatRuleOnlyAndListsTheRouteAsAncestor() {
    IrBuilder.Result result = lower(GATEWAY_POLICY, RULE_POLICY, route("""
        - matches: [{path: {type: Exact, value: /admin}}]
          filters: [{type: ExtensionRef, extensionRef: {group: gateway.holdfast.io, kind: SecurityPolicy, name: admins}}]
          backendRefs: [{name: store, port: 8080}]
        - matches: [{path: {type: Exact, value: /shop}}]
          backendRefs: [{name: store, port: 8080}]
        """));

    Route admin = routeFor(result, "/admin");
    Route shop = routeFor(result, "/shop");
    assertThat(admin.security().rbac()).hasValueSatisfying(r -> assertThat(r.toString()).contains("198.51.100.0"));
    assertThat(admin.security().rbac()).hasValueSatisfying(r -> assertThat(r.toString()).doesNotContain("192.0.2"));
    assertThat(shop.security().rbac()).hasValueSatisfying(r -> assertThat(r.toString()).contains("192.0.2.0"));

    var status = Fixtures.status(result, policy(PolicyKinds.SECURITY_POLICY, "admins"));
    assertThat(status.isAccepted()).isTrue();
    assertThat(status.findings()).isEmpty();
    assertThat(status.parents()).singleElement().satisfies(p -> {
      assertThat(p.parent()).isEqualTo(Fixtures.httpRouteKey("web", "store"));
      assertCondition(p.conditions(), Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED);
    });
    assertCondition(Fixtures.parent(result, Fixtures.httpRouteKey("web", "store"),
        Fixtures.gatewayKey("web", "edge")).conditions(), "ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs");
  }

  @Test
  void aGrpcRouteRuleNamesAPolicyToo() {
    IrBuilder.Result result = lower(RULE_POLICY, """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GRPCRoute
        metadata: {name: rpc, namespace: web}
        spec:
          parentRefs: [{name: edge}]
          hostnames: [rpc.test]
          rules:
            - filters:
                - type: ExtensionRef
                  extensionRef: {group: gateway.holdfast.io, kind: SecurityPolicy, name: admins}
              backendRefs: [{name: store, port: 8080}]
        """);

    Route rpc = result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> l.virtualHosts().stream()).filter(h -> h.domains().get(0).equals("rpc.test"))
        .flatMap(h -> h.routes().stream()).findFirst().orElseThrow();
    assertThat(rpc.security().rbac()).hasValueSatisfying(r -> assertThat(r.toString()).contains("198.51.100.0"));
    assertThat(Fixtures.status(result, policy(PolicyKinds.SECURITY_POLICY, "admins")).parents())
        .extracting(ParentStatus::parent).containsExactly(Fixtures.grpcRouteKey("web", "rpc"));
  }

  @Test
  void aTrafficPolicyNamedOnEveryBackendRefAppliesToTheRule() {
    IrBuilder.Result result = lower(LIMIT, route("""
        - matches: [{path: {type: Exact, value: /slow}}]
          backendRefs:
            - name: store
              port: 8080
              filters: [{type: ExtensionRef, extensionRef: {group: gateway.holdfast.io, kind: TrafficPolicy, name: slow}}]
        - matches: [{path: {type: Exact, value: /fast}}]
          backendRefs: [{name: store, port: 8080}]
        """));

    assertThat(routeFor(result, "/slow").traffic().localRateLimit())
        .hasValueSatisfying(l -> assertThat(l.maxTokens()).isEqualTo(5));
    assertThat(routeFor(result, "/fast").traffic()).isEqualTo(RouteTraffic.NONE);
    assertThat(Fixtures.status(result, policy(PolicyKinds.TRAFFIC_POLICY, "slow")).parents())
        .extracting(ParentStatus::parent).containsExactly(Fixtures.httpRouteKey("web", "store"));
  }

  @Test
  void backendRefsNamingDifferentPoliciesAreNotAccepted() {
    IrBuilder.Result result = lower(LIMIT, route("""
        - backendRefs:
            - name: store
              port: 8080
              filters: [{type: ExtensionRef, extensionRef: {group: gateway.holdfast.io, kind: TrafficPolicy, name: slow}}]
            - {name: other, port: 8080}
        """));

    assertCondition(Fixtures.parent(result, Fixtures.httpRouteKey("web", "store"),
        Fixtures.gatewayKey("web", "edge")).conditions(), Condition.ACCEPTED, Condition.Status.FALSE,
        "UnsupportedValue");
  }

  @Test
  void aMissingPolicyIsBackendNotFoundAndItsRuleAnswers500() {
    IrBuilder.Result result = lower(route("""
        - matches: [{path: {type: Exact, value: /admin}}]
          filters: [{type: ExtensionRef, extensionRef: {group: gateway.holdfast.io, kind: SecurityPolicy, name: gone}}]
          backendRefs: [{name: store, port: 8080}]
        - matches: [{path: {type: Exact, value: /shop}}]
          backendRefs: [{name: store, port: 8080}]
        """));

    assertThat(routeFor(result, "/admin").action()).isEqualTo(RouteRules.internalError());
    assertThat(routeFor(result, "/shop").action()).isNotEqualTo(RouteRules.internalError());
    assertCondition(Fixtures.parent(result, Fixtures.httpRouteKey("web", "store"),
        Fixtures.gatewayKey("web", "edge")).conditions(), "ResolvedRefs", Condition.Status.FALSE, "BackendNotFound");
  }

  @Test
  void anInvalidPolicyNamedByARuleFailsClosed() {
    IrBuilder.Result result = lower("""
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: admins, namespace: web}
        spec:
          rbac: {rules: [{clientIp: [not-an-address]}]}
        """, route("""
        - filters: [{type: ExtensionRef, extensionRef: {group: gateway.holdfast.io, kind: SecurityPolicy, name: admins}}]
          backendRefs: [{name: store, port: 8080}]
        """));

    assertThat(routeFor(result, "/").security()).isEqualTo(SecurityOptionsLowering.denyAll());
    var status = Fixtures.status(result, policy(PolicyKinds.SECURITY_POLICY, "admins"));
    assertThat(status.isAccepted()).isFalse();
    assertCondition(status.parents().get(0).conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "Invalid");
  }

  @Test
  void aPolicyWithNeitherTargetsNorRulesNamingItIsWarned() {
    IrBuilder.Result result = lower(RULE_POLICY, LIMIT);

    for (ResourceKey key : List.of(policy(PolicyKinds.SECURITY_POLICY, "admins"),
        policy(PolicyKinds.TRAFFIC_POLICY, "slow"))) {
      assertThat(Fixtures.status(result, key).findings()).extracting(Finding::reason)
          .as(key.toString()).containsExactly(PolicyTargets.NO_TARGETS);
      assertThat(Fixtures.status(result, key).findings()).extracting(Finding::severity)
          .containsExactly(Finding.Severity.WARNING);
    }
  }
}
