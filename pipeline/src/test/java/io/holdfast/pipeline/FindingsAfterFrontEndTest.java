package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.ir.Condition;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.SectionStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A finding added to a Gateway API object after its front end computed its status (the IR losing it a port, a
 * front end failing so its last good build stands in) keeps the conditions the front end wrote: the Gateway's
 * Programmed and listener conditions, the GatewayClass's SupportedVersion, the route's per-parent ResolvedRefs.
 * Regression: {@code ObjectStatus.with(Finding)} rebuilt Accepted alone, and the status writer removed the rest.
 */
class FindingsAfterFrontEndTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final String G = "gateway.networking.k8s.io";
  private static final ResourceKey CLASS = new ResourceKey(G, "GatewayClass", "", "ours");
  private static final ResourceKey EDGE = new ResourceKey(G, "Gateway", "shop", "edge");
  private static final ResourceKey ROUTE = new ResourceKey(G, "HTTPRoute", "shop", "web");
  private static final String GATEWAY_API = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: ours}
      spec: {controllerName: holdfast.test/gw}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: shop, generation: 2, creationTimestamp: '2025-06-01T00:00:00Z'}
      spec: {gatewayClassName: ours, listeners: [{name: http, port: 10090, protocol: HTTP}]}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: web, namespace: shop}
      spec: {parentRefs: [{name: edge}], rules: [{}]}
      """;

  private static GatewayConfig load(String docs) {
    return new ConfigLoader().load(List.of(new ConfigLoader.Source("gw.yaml", docs)), Map.of()).config();
  }

  /** {@code inner}, throwing while {@code fail} holds. */
  private static FrontEnd<GatewayConfig> failing(FrontEnd<GatewayConfig> inner, AtomicBoolean fail) {
    return (config, builder) -> {
      if (fail.get()) {
        throw new IllegalStateException("injected front end bug");
      }
      inner.lower(config, builder);
    };
  }

  @Test
  void aLastGoodBuildStandingInKeepsEveryConditionOfTheGatewayApiObjects() {
    AtomicBoolean fail = new AtomicBoolean();
    List<FrontEnd<GatewayConfig>> standard = ConfigCheck.frontEnds(new PipelineSettings("holdfast.test/gw"));
    assertThat(standard.get(1)).isInstanceOf(GatewayApiFrontEnd.class);
    ConfigCheck check = ConfigCheck.of(List.of(standard.get(0), failing(standard.get(1), fail), standard.get(2)));
    GatewayConfig config = load(GATEWAY_API);
    Map<ResourceKey, ObjectStatus> good = check.run(config).gatewayApiStatuses();
    assertThat(good.get(EDGE).conditions()).extracting(Condition::type).contains(Condition.PROGRAMMED);

    fail.set(true);
    Map<ResourceKey, ObjectStatus> standIn = check.run(config).gatewayApiStatuses();

    for (ResourceKey key : List.of(CLASS, EDGE, ROUTE)) {
      assertThat(standIn.get(key).findings()).as("%s", key).extracting(f -> f.reason())
          .contains(ConfigCheck.FRONT_END_FAILED);
      assertThat(standIn.get(key).conditions()).as("%s", key).isEqualTo(good.get(key).conditions());
      assertThat(standIn.get(key).parents()).as("%s", key).isEqualTo(good.get(key).parents());
      assertThat(standIn.get(key).sections()).as("%s", key).isEqualTo(good.get(key).sections());
    }
    assertThat(standIn.get(CLASS).conditions()).extracting(Condition::type).hasSize(2);
    assertThat(standIn.get(ROUTE).parents().get(0).conditions()).extracting(Condition::type)
        .contains("ResolvedRefs");
  }

  /**
   * Gloo Edge's front end lowers after the Gateway API's, so an older Gloo Gateway on the same port is settled by the
   * IR: the Gateway API Gateway is not accepted and, with no port left, not programmed; its listener section stays.
   */
  @Test
  void aGatewayLosingItsOnlyPortToAnOlderGlooGatewayIsNotProgrammedOnTheBoard() {
    StatusBoard board = new StatusBoard();
    ConfigPipeline pipeline = new ConfigPipeline(snapshot -> true, board, Clock.fixed(NOW, ZoneOffset.UTC),
        new SimpleMeterRegistry(), translation -> { }, new ConfigCheck("holdfast.test/gw"));
    String gloo = """
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: petstore, namespace: gloo-system, creationTimestamp: '2025-01-01T00:00:00Z'}
        spec: {static: {hosts: [{addr: 192.0.2.10, port: 8080}]}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system, creationTimestamp: '2025-01-01T00:00:00Z'}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: petstore, namespace: gloo-system}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system, creationTimestamp: '2025-01-01T00:00:00Z'}
        spec: {bindAddress: '::', bindPort: 10090, httpGateway: {}}
        """;

    pipeline.apply(load(GATEWAY_API + gloo), List.of());

    ObjectStatus edge = board.current().orElseThrow().objectStatuses().get(EDGE);
    assertThat(edge.condition(Condition.ACCEPTED).reason()).as("%s", edge).isEqualTo(IrBuilder.DUPLICATE_LISTENER);
    Condition programmed = edge.condition(Condition.PROGRAMMED);
    assertThat(programmed.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(programmed.reason()).isEqualTo(IrBuilder.DUPLICATE_LISTENER);
    assertThat(programmed.observedGeneration()).isEqualTo(2);
    assertThat(edge.sections()).extracting(SectionStatus::name).containsExactly("http");
  }
}
