package io.holdfast.server.fleet;

import static io.holdfast.server.fleet.StateFixtures.V1;
import static io.holdfast.server.fleet.StateFixtures.answer;
import static io.holdfast.server.fleet.StateFixtures.kube;
import static io.holdfast.server.fleet.StateFixtures.proxy;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FleetRenderingTest {
  private static final FleetReport OUTAGE = FleetReport.of(List.of(
      answer("h1:9091", kube("r1", "follower", "r1", false, "[" + proxy("envoy-a", V1, "null") + "]")),
      answer("h2:9091", kube("r2", "follower", "r1", false, "[]")),
      ReplicaAnswer.failed("h3:9091", "connection refused")));

  @Test
  void textLeadsWithTheVerdictThenLeaderThenOneRowPerReplicaAndPerProxy() {
    String text = FleetText.render(OUTAGE);

    List<String> lines = text.lines().toList();
    assertThat(lines.get(0)).isEqualTo("Fleet: AT RISK");
    assertThat(text).contains("  [at risk] h3:9091: does not answer: connection refused\n",
        "Leader: r1 (lease holder last seen; no replica leads now; replicas agree)\n",
        "Current version: " + V1 + "\n");
    assertThat(lines).anySatisfy(l -> assertThat(l).matches(
        "r1\\s+h1:9091\\s+follower\\s+r1\\s+" + V1 + "\\s+5m ago\\s+1m\\s+down\\s+1\\s+0"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches(
        "\\?\\s+h3:9091\\s+unreachable.*"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches(
        "r1\\s+envoy-a\\s+1\\s+in sync\\s+none"));
  }

  @Test
  void jsonHasTheVerdictExitCodeLeadershipAndEveryReplica() {
    Map<String, Object> json = FleetJson.toMap(OUTAGE);

    assertThat(json).containsEntry("verdict", "at risk").containsEntry("exitCode", 1)
        .containsEntry("currentVersion", V1);
    assertThat(map(json.get("leadership"))).containsEntry("leader", "r1").containsEntry("agreed", true)
        .containsEntry("claimedBy", List.of());
    List<?> replicas = (List<?>) json.get("replicas");
    assertThat(replicas).hasSize(3);
    Map<String, Object> r1 = map(replicas.get(0));
    assertThat(r1).containsEntry("identity", "r1").containsEntry("apiAnswered", false)
        .containsEntry("staleForSeconds", 60.0).containsEntry("leaseHolder", "r1");
    assertThat((List<?>) r1.get("proxies")).singleElement()
        .satisfies(p -> assertThat(map(p)).containsEntry("nodeId", "envoy-a").containsEntry("inSync", true));
    assertThat(map(replicas.get(2))).containsEntry("reachable", false)
        .containsEntry("error", "connection refused");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return (Map<String, Object>) value;
  }
}
