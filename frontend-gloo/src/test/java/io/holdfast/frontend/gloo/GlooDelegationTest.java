package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Delegation by selector with {@code expressions} (Kubernetes label-selector semantics), in weight order. */
class GlooDelegationTest {

  private static String table(String name, String labels, int weight, String prefix) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: %s, namespace: apps, labels: {%s}}
        spec:
          weight: %d
          routes:
          - matchers: [{prefix: %s}]
            directResponseAction: {status: 200, body: %s}
        ---
        """.formatted(name, labels, weight, prefix, name);
  }

  private static final String PARENT = """
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: parent, namespace: gloo-system}
      spec:
        virtualHost:
          routes:
          - matchers: [{prefix: /api}]
            delegateAction:
              selector:
                namespaces: [apps]
                labels: {domain: api}
                expressions:
                - {key: stage, operator: In, values: [prod, canary]}
                - {key: deprecated, operator: DoesNotExist}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gw, namespace: gloo-system}
      spec: {bindPort: 8080, httpGateway: {}}
      """;

  @Test
  void expressionsPickTablesAndTheirRoutesAreServedInWeightOrder() {
    String yaml = table("late", "domain: api, stage: prod", 20, "/api/late")
        + table("early", "domain: api, stage: canary", 5, "/api/early")
        + table("old", "domain: api, stage: prod, deprecated: 'yes'", 1, "/api/old")
        + table("dev", "domain: api, stage: dev", 0, "/api/dev")
        + table("other", "domain: web, stage: prod", 0, "/api/other")
        + PARENT;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "parent").isAccepted())
        .as("%s", result.statuses()).isTrue();
    Listener socket = result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket).findFirst()
        .orElseThrow();
    List<String> tables = socket.virtualHosts().get(0).routes().stream().map(r -> r.origin().object().name())
        .toList();
    assertThat(tables).containsExactly("early", "late");
  }

  @Test
  void theOptionsOfASelectorWithExpressionsReachEveryPickedTablesRoutes() {
    String yaml = table("late", "domain: api, stage: prod", 20, "/api/late")
        + table("early", "domain: api, stage: canary", 5, "/api/early")
        + PARENT.replace("    - matchers: [{prefix: /api}]\n", "    - matchers: [{prefix: /api}]\n"
            + "      options: {headerManipulation: {responseHeadersToAdd: [{header: {key: x-api, value: v1}}]}}\n");
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "parent").isAccepted())
        .as("%s", result.statuses()).isTrue();
    Listener socket = result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket).findFirst()
        .orElseThrow();
    assertThat(socket.virtualHosts().get(0).routes()).hasSize(2).allSatisfy(r -> assertThat(r.headers()
        .responseAdd()).extracting(h -> h.name()).containsExactly("x-api"));
  }
}
