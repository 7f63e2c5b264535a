package io.holdfast.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StatsTest {

  @Test
  void nearestRankPercentiles() {
    Stats s = Stats.of(IntStream.rangeClosed(1, 20).boxed().toList());
    assertThat(s.n()).isEqualTo(20);
    assertThat(s.p50()).isEqualTo(10);
    assertThat(s.p90()).isEqualTo(18);
    assertThat(s.p99()).isEqualTo(20);
    assertThat(s.min()).isEqualTo(1);
    assertThat(s.max()).isEqualTo(20);
  }

  @Test
  void orderOfInputDoesNotMatterAndSmallSamplesWork() {
    assertThat(Stats.of(List.of(5.0, 1.0, 3.0)).p50()).isEqualTo(3.0);
    assertThat(Stats.of(List.of(7)).p99()).isEqualTo(7.0);
    assertThat(Stats.of(List.of()).n()).isZero();
  }

  @Test
  void formatsMillisWithSensibleUnits() {
    assertThat(Stats.millis(12.34)).isEqualTo("12.3 ms");
    assertThat(Stats.millis(1234)).isEqualTo("1234 ms");
    assertThat(Stats.millis(20_260)).isEqualTo("20.3 s");
    assertThat(Stats.millis(Double.NaN)).isEqualTo("-");
  }
}
