package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.it.outage.OutageCluster.RoleChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replaying polled roles: only replicas certainly leading at the same moment count as an overlap. */
class LeaderOverlapTest {
  private static RoleChange change(long answeredAt, String identity, String role, long previousAskedAt) {
    return new RoleChange(answeredAt, identity, role, "", previousAskedAt);
  }

  @Test
  void aSlowAnswerFromTheOldLeaderIsNoOverlap() {
    // r1 last said leader to a request sent at 2400; the answer saying follower came late (3500, a loaded
    // machine), after r2's first leader answer (3000). Replayed at answer times this looked like two leaders.
    List<RoleChange> changes = List.of(change(1000, "r1", "leader", 900), change(1200, "r2", "follower", 1100),
        change(3000, "r2", "leader", 2900), change(3500, "r1", "follower", 2400));

    assertThat(OutageCluster.leaderOverlap(changes, 0)).isEqualTo(1);
  }

  @Test
  void twoReplicasThatBothSaidLeaderAcrossTheSameTimeOverlap() {
    List<RoleChange> changes = List.of(change(1000, "r1", "leader", 900), change(3000, "r2", "leader", 2900),
        change(5200, "r1", "follower", 5000));

    assertThat(OutageCluster.leaderOverlap(changes, 0)).isEqualTo(2);
    assertThat(OutageCluster.leaderOverlap(changes, 5100)).as("counted from the given time on").isEqualTo(1);
  }

  @Test
  void aSingleLeaderAnswerProvesNoInterval() {
    // One sample says leader: it held the role at some instant between its request and its answer, no more.
    List<RoleChange> changes = List.of(change(1000, "r1", "leader", 900), change(2000, "r2", "leader", 1900),
        change(2100, "r2", "follower", 1950), change(4000, "r1", "follower", 3900));

    assertThat(OutageCluster.leaderOverlap(changes, 0)).isEqualTo(1);
  }
}
