package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ElectionSmokeTest {
  @Test
  void threeElectorsElectExactlyOneLeaderAndTheOthersObserveIt() {
    try (ElectionCluster c = ElectionCluster.start(3)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> c.leaders().size() == 1);
      ElectionCluster.Replica leader = c.leaders().get(0);
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
        for (ElectionCluster.Replica r : c.replicas) {
          assertThat(r.elector.observedLeader()).contains(leader.name);
        }
      });
      assertThat(c.leaders()).containsExactly(leader);
    }
  }
}
