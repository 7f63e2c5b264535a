package io.holdfast.frontend.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteTraffic;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Holdfast's traffic policies attached to Gateway API objects by targetRefs: most specific target wins, the oldest
 * of two policies on one target wins and the other is Conflicted, an absent target is TargetNotFound, a bad value
 * is Invalid and applies nowhere; each target is an ancestor in the policy's status.
 */
class TrafficPolicyTest {

  private static final String GATEWAY = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: web}
      spec:
        gatewayClassName: holdfast
        listeners:
          - {name: a, port: 8080, protocol: HTTP, hostname: a.test}
          - {name: b, port: 8080, protocol: HTTP, hostname: b.test}
      """;
  private static final String ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: %s, namespace: web}
      spec:
        parentRefs: [{name: edge}]
        hostnames: [%s]
        rules: [{backendRefs: [{name: store, port: 8080}]}]
      """;

  private static String policy(String kind, String name, String created, String targets, String fields) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: %s
        metadata: {name: %s, namespace: web%s}
        spec:
          targetRefs: %s
        %s
        """.formatted(kind, name, created.isEmpty() ? "" : ", creationTimestamp: \"" + created + "\"", targets,
        fields.indent(2));
  }

  private static String gatewayTarget(String section) {
    return "[{group: gateway.networking.k8s.io, kind: Gateway, name: edge"
        + (section.isEmpty() ? "" : ", sectionName: " + section) + "}]";
  }

  private static IrBuilder.Result lower(String... policies) {
    String[] yamls = new String[policies.length + 4];
    yamls[0] = Fixtures.CLASS;
    yamls[1] = GATEWAY;
    yamls[2] = ROUTE.formatted("ra", "a.test");
    yamls[3] = ROUTE.formatted("rb", "b.test");
    System.arraycopy(policies, 0, yamls, 4, policies.length);
    GatewayConfig config = Fixtures.config(Fixtures.services("web/store:8080"), yamls);
    return Fixtures.lower(config);
  }

  private static ResourceKey key(String kind, String name) {
    return new ResourceKey(PolicyKinds.GROUP, kind, "web", name);
  }

  private static Route route(IrBuilder.Result result, String host) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> l.virtualHosts().stream()).filter(h -> h.domains().get(0).equals(host))
        .findFirst().orElseThrow().routes().get(0);
  }

  private static Condition accepted(ObjectStatus status) {
    return status.condition(Condition.ACCEPTED);
  }

  @Test
  void theRoutePolicyBeatsTheListenerPolicyWhichBeatsTheGatewayPolicy() {
    IrBuilder.Result result = lower(
        policy("TrafficPolicy", "gateway", "", gatewayTarget(""), "compression: [gzip]"),
        policy("TrafficPolicy", "listener-b", "", gatewayTarget("b"), "maxRequestBodyBytes: 2048"),
        policy("TrafficPolicy", "route-a", "",
            "[{group: gateway.networking.k8s.io, kind: HTTPRoute, name: ra}]",
            "rateLimit: {local: {maxTokens: 3, fillInterval: 1s}}"));
    // Whole policies, not merged fields: route a has only its own policy's rate limit, b only its listener's limit.
    assertThat(route(result, "a.test").traffic()).isEqualTo(new RouteTraffic(
        Optional.of(new RouteTraffic.LocalRateLimit(3, 3, Duration.ofSeconds(1), false)), List.of(), java.util.Set.of(),
        Optional.empty(), Optional.empty()));
    assertThat(route(result, "b.test").traffic().maxRequestBodyBytes()).contains(2048);
    assertThat(route(result, "b.test").traffic().compression()).isEmpty();
    for (String name : List.of("gateway", "listener-b", "route-a")) {
      assertThat(accepted(Fixtures.status(result, key(PolicyKinds.TRAFFIC_POLICY, name))).status())
          .isEqualTo(Condition.Status.TRUE);
    }
  }

  @Test
  void theOlderOfTwoPoliciesOnOneTargetWinsAndTheOtherIsConflicted() {
    IrBuilder.Result result = lower(
        policy("ClientTrafficPolicy", "newer", "2026-05-01T00:00:00Z", gatewayTarget(""), "xffNumTrustedHops: 3"),
        policy("ClientTrafficPolicy", "older", "2026-04-01T00:00:00Z", gatewayTarget(""), "xffNumTrustedHops: 1"));
    Listener.Socket socket = (Listener.Socket) result.ir().listeners().stream()
        .filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    HttpListenerOptions options = ((Listener.FilterChain.Http) socket.filterChains().get(0)).options();
    assertThat(options.xffNumTrustedHops()).contains(1);
    ObjectStatus newer = Fixtures.status(result, key(PolicyKinds.CLIENT_TRAFFIC_POLICY, "newer"));
    assertThat(accepted(newer).reason()).isEqualTo(PolicyTargets.CONFLICTED);
    assertThat(newer.parents()).extracting(ParentStatus::parent).containsExactly(Fixtures.gatewayKey("web", "edge"));
    assertThat(accepted(newer).message()).contains("ClientTrafficPolicy/web/older");
  }

  @Test
  void aHealthCheckPolicyPutsTheHealthCheckOnTheGatewaysChains() {
    IrBuilder.Result result = lower(
        policy("ClientTrafficPolicy", "probe", "", gatewayTarget(""), "healthCheck: {path: /healthz}"));
    assertThat(accepted(Fixtures.status(result, key(PolicyKinds.CLIENT_TRAFFIC_POLICY, "probe"))).status())
        .isEqualTo(Condition.Status.TRUE);
    Listener.Socket socket = (Listener.Socket) result.ir().listeners().stream()
        .filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    assertThat(((Listener.FilterChain.Http) socket.filterChains().get(0)).options().healthCheckPath())
        .contains("/healthz");
  }

  @Test
  void aListenerPolicyOnASharedPortIsConflictedAndTheGatewayPolicyApplies() {
    IrBuilder.Result result = lower(
        policy("ClientTrafficPolicy", "gw", "", gatewayTarget(""), "idleTimeout: 1m"),
        policy("ClientTrafficPolicy", "only-a", "", gatewayTarget("a"), "proxyProtocol: true"));
    ObjectStatus onlyA = Fixtures.status(result, key(PolicyKinds.CLIENT_TRAFFIC_POLICY, "only-a"));
    assertThat(accepted(onlyA).reason()).isEqualTo(PolicyTargets.CONFLICTED);
    assertThat(accepted(onlyA).message()).contains("share port 8080");
    Listener.Socket socket = (Listener.Socket) result.ir().listeners().stream()
        .filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    assertThat(socket.socketOptions().proxyProtocol()).isFalse();
    assertThat(((Listener.FilterChain.Http) socket.filterChains().get(0)).options().idleTimeout())
        .contains(Duration.ofMinutes(1));
  }

  @Test
  void missingTargetsBadValuesAndUpstreamSinksAreReportedAndApplyNowhere() {
    IrBuilder.Result result = lower(
        policy("TrafficPolicy", "gone", "", "[{group: gateway.networking.k8s.io, kind: HTTPRoute, name: nope}]",
            "compression: [gzip]"),
        policy("TrafficPolicy", "zero", "", gatewayTarget(""), "rateLimit: {local: {maxTokens: 0, fillInterval: 1s}}"),
        policy("TrafficPolicy", "deflate", "", gatewayTarget(""), "compression: [deflate]"),
        policy("ClientTrafficPolicy", "als", "", gatewayTarget(""),
            "accessLogs: [{grpc: {upstream: als, logName: edge}}]"),
        policy("ClientTrafficPolicy", "elsewhere", "", "[{group: gateway.networking.k8s.io, kind: Gateway,"
            + " name: edge, namespace: other}]", "xffNumTrustedHops: 1"));
    assertThat(accepted(Fixtures.status(result, key(PolicyKinds.TRAFFIC_POLICY, "gone"))).reason())
        .isEqualTo(PolicyTargets.TARGET_NOT_FOUND);
    Condition zero = accepted(Fixtures.status(result, key(PolicyKinds.TRAFFIC_POLICY, "zero")));
    assertThat(zero.reason()).isEqualTo(PolicyTargets.INVALID);
    assertThat(zero.message()).contains("ZeroRate");
    assertThat(accepted(Fixtures.status(result, key(PolicyKinds.TRAFFIC_POLICY, "deflate"))).message())
        .contains("UnsupportedCompression");
    assertThat(accepted(Fixtures.status(result, key(PolicyKinds.CLIENT_TRAFFIC_POLICY, "als"))).message())
        .contains("by backendRef");
    assertThat(accepted(Fixtures.status(result, key(PolicyKinds.CLIENT_TRAFFIC_POLICY, "elsewhere"))).reason())
        .isEqualTo(PolicyTargets.INVALID);
    // The invalid "zero" policy is older than nothing else on the Gateway, yet wins nothing.
    assertThat(route(result, "a.test").traffic()).isEqualTo(RouteTraffic.NONE);
  }

  @Test
  void targetRefsAreBounded() {
    String many = "[" + "{group: gateway.networking.k8s.io, kind: Gateway, name: edge},".repeat(17) + "]";
    IrBuilder.Result result = lower(policy("TrafficPolicy", "many", "", many, "compression: [gzip]"));
    Condition condition = accepted(Fixtures.status(result, key(PolicyKinds.TRAFFIC_POLICY, "many")));
    assertThat(condition.reason()).isEqualTo(PolicyTargets.INVALID);
    assertThat(condition.message()).contains("at most 16");
  }
}
