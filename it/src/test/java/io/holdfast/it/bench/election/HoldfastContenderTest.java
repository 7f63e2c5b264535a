package io.holdfast.it.bench.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.election.ElectionSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HoldfastContenderTest {

  @Test
  void everyProfileIsAcceptedWithItsLeaseTimingsUnchanged() {
    for (Timings timings : new Timings[] {Timings.FAST, Timings.DEFAULT}) {
      ElectionSettings settings = HoldfastContender.settings("bench", "lease", "r0", timings);

      assertThat(settings.leaseDuration()).isEqualTo(timings.leaseDuration());
      assertThat(settings.renewDeadline()).isEqualTo(timings.renewDeadline());
      assertThat(settings.retryPeriod()).isEqualTo(timings.retryPeriod());
    }
  }

  @Test
  void theDefaultProfileKeepsTheDefaultWriteBounds() {
    ElectionSettings settings = HoldfastContender.settings("bench", "lease", "r0", Timings.DEFAULT);

    assertThat(settings.leaderRequestTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(settings.fenceSlack()).isEqualTo(Duration.ofSeconds(1));
  }
}
