package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** TLSRoutes and TCPRoutes get their status as HTTPRoutes do: parent entries merged with other controllers'. */
class GatewayApiStatusDocumentTest {

  private static final String G = "gateway.networking.k8s.io";
  private static final String OURS = "holdfast.io/gateway-controller";

  @ParameterizedTest
  @ValueSource(strings = {"TLSRoute", "TCPRoute"})
  @SuppressWarnings("unchecked")
  void streamRouteParentsAreMergedWithAForeignControllersEntry(String kind) {
    ResourceKey route = new ResourceKey(G, kind, "apps", "r");
    Condition accepted = new Condition(Condition.ACCEPTED, Condition.Status.TRUE, "Accepted", "attached", 3);
    ObjectStatus desired = new ObjectStatus(route, 3, List.of(accepted), List.of(), List.of(new ParentStatus(
        new ResourceKey(G, "Gateway", "infra", "edge"), Optional.of("tls"), Optional.empty(), List.of(accepted))));
    Map<String, Object> foreign = Map.of("controllerName", "example.test/other",
        "parentRef", Map.of("name", "theirs"), "conditions", List.of());
    Map<String, Object> status = GatewayApiStatusDocument.compute(desired, Map.of("parents", List.of(foreign)),
        OURS, Instant.parse("2026-12-03T00:00:00Z"));
    assertThat(status).doesNotContainKey("conditions");
    List<?> parents = (List<?>) status.get("parents");
    assertThat(parents).hasSize(2).first().isEqualTo(foreign);
    Map<String, Object> ours = (Map<String, Object>) parents.get(1);
    assertThat(ours.get("controllerName")).isEqualTo(OURS);
    assertThat((Map<String, Object>) ours.get("parentRef")).containsEntry("name", "edge").containsEntry("sectionName", "tls");
    assertThat((List<?>) ours.get("conditions")).singleElement()
        .satisfies(c -> assertThat((Map<String, Object>) c).containsEntry("type", "Accepted").containsEntry("status", "True")
            .containsEntry("observedGeneration", 3L));
  }
}
