package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.IrBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Containment: whatever the Gloo objects hold (wrong types anywhere, deep delegation chains, cycles), the front end
 * returns and every object gets a status.
 */
class GlooHostileInputTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Mutations tried; a fixed seed keeps failures reproducible. */
  private static final int ROUNDS = 300;

  @Test
  void mutatedCorpusObjectsNeverThrowAndAllGetAStatus() throws Exception {
    GatewayConfig base = GlooFixtures.load(HelloWorldTest.PETSTORE + "---\n" + """
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: rt, namespace: gloo-system}
        spec:
          routes:
          - matchers: [{prefix: /a, headers: [{name: x, value: y, regex: true}]}]
            options: {retries: {retryOn: 5xx, numRetries: 2}, faults: {abort: {percentage: 1, httpStatus: 503}}}
            routeAction: {multi: {destinations: [{destination: {upstream: {name: petstore}}, weight: 1}]}}
        """);
    Random random = new Random(27);
    GlooFrontEnd frontEnd = new GlooFrontEnd();
    for (int round = 0; round < ROUNDS; round++) {
      List<ApiObject> mutated = new ArrayList<>();
      for (ApiObject object : base.apiObjects()) {
        ObjectNode body = object.bodyCopy();
        mutate(body, random);
        mutated.add(new ApiObject(object.key(), object.generation(), body));
      }
      GatewayConfig.Builder config = GatewayConfig.builder();
      mutated.forEach(config::add);
      IrBuilder builder = new IrBuilder();
      frontEnd.lower(config.build(), builder);
      IrBuilder.Result result = builder.build();
      for (ApiObject object : mutated) {
        assertThat(result.statuses()).containsKey(object.key());
      }
    }
  }

  /** Replaces one random node inside {@code spec} by a value of another type. */
  static void mutate(ObjectNode body, Random random) {
    List<JsonNode> containers = new ArrayList<>();
    collect(body.path("spec"), containers);
    if (containers.isEmpty()) {
      return;
    }
    JsonNode target = containers.get(random.nextInt(containers.size()));
    JsonNode replacement = switch (random.nextInt(6)) {
      case 0 -> NODES.stringNode("\u0000weird");
      case 1 -> NODES.numberNode(-1);
      case 2 -> NODES.arrayNode().add(NODES.objectNode());
      case 3 -> NODES.objectNode().put("unexpected", true);
      case 4 -> NODES.nullNode();
      default -> NODES.numberNode(Long.MAX_VALUE);
    };
    if (target instanceof ObjectNode object && !object.isEmpty()) {
      List<String> names = new ArrayList<>(object.propertyNames());
      object.set(names.get(random.nextInt(names.size())), replacement);
    } else if (target instanceof ArrayNode array && !array.isEmpty()) {
      array.set(random.nextInt(array.size()), replacement);
    }
  }

  private static void collect(JsonNode node, List<JsonNode> out) {
    if (node.isObject() || node.isArray()) {
      out.add(node);
      node.values().forEach(child -> collect(child, out));
    }
  }

  @Test
  void delegationCyclesAndDeepChainsAreRejectedNotFollowedForever() {
    StringBuilder yaml = new StringBuilder("""
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: root, namespace: default}
        spec:
          virtualHost:
            routes: [{matchers: [{prefix: /}], delegateAction: {ref: {name: rt-0}}}]
        """);
    int depth = 200;
    for (int i = 0; i < depth; i++) {
      yaml.append("""
          ---
          apiVersion: gateway.solo.io/v1
          kind: RouteTable
          metadata: {name: rt-%d, namespace: default}
          spec:
            routes: [{matchers: [{prefix: /}], delegateAction: {ref: {name: rt-%d}}}]
          """.formatted(i, (i + 1) % depth)); // the last one closes a cycle back to rt-0
    }
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml.toString()));
    assertThat(result.statuses().get(new ResourceKey(GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE, "default",
        "rt-0"))).isNotNull();
    assertThat(result.statuses().values()).anySatisfy(s -> assertThat(s.isAccepted()).isFalse());
  }
}
