package io.holdfast.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DebounceTest {
  private static final long MS = 1_000_000L;
  private final Debounce debounce = new Debounce(Debounce.Timing.DEFAULT);

  @Test
  void defaultIsAHundredMillisecondsHoldOffCappedAtFiveHundred() {
    assertThat(Debounce.Timing.DEFAULT).isEqualTo(new Debounce.Timing(Duration.ofMillis(100), Duration.ofMillis(500)));
  }

  @Test
  void nothingIsDueWithoutEvents() {
    assertThat(debounce.pending()).isFalse();
    assertThat(debounce.isDue(10_000 * MS)).isFalse();
  }

  @Test
  void dueOnceQuietForTheHoldOff() {
    debounce.eventAt(0);
    debounce.eventAt(60 * MS);

    assertThat(debounce.isDue(160 * MS - 1)).isFalse();
    assertThat(debounce.dueAt()).isEqualTo(160 * MS);
    assertThat(debounce.isDue(160 * MS)).isTrue();
  }

  @Test
  void steadyEventsAreCappedAfterTheFirstOne() {
    for (long t = 0; t <= 480; t += 40) {
      debounce.eventAt(t * MS);
      assertThat(debounce.isDue(t * MS)).as("at %d ms", t).isFalse();
    }
    debounce.eventAt(499 * MS);

    assertThat(debounce.dueAt()).isEqualTo(500 * MS);
    assertThat(debounce.isDue(500 * MS)).isTrue();
  }

  @Test
  void aTimelineSteppingBackMakesItDueInsteadOfStalling() {
    debounce.eventAt(1_000 * MS);

    assertThat(debounce.isDue(1_050 * MS)).isFalse();
    assertThat(debounce.isDue(0)).isTrue();
  }

  @Test
  void aTickerThatWrapsAroundStillComputesTheEarlierDeadline() {
    long start = Long.MAX_VALUE - 50 * MS;
    debounce.eventAt(start);

    assertThat(debounce.dueAt()).isEqualTo(start + 100 * MS); // wrapped to a negative long, still the hold-off
    assertThat(debounce.isDue(start + 99 * MS)).isFalse();
    assertThat(debounce.isDue(start + 100 * MS)).isTrue();
  }

  @Test
  void zeroTimingIsDueAtOnce() {
    Debounce now = new Debounce(new Debounce.Timing(Duration.ZERO, Duration.ZERO));
    now.eventAt(5);
    assertThat(now.isDue(5)).isTrue();
  }

  @Test
  void clearEndsTheBurstAndTheNextEventStartsANewOne() {
    debounce.eventAt(0);
    debounce.clear();

    assertThat(debounce.pending()).isFalse();
    assertThat(debounce.isDue(1_000 * MS)).isFalse();
    debounce.eventAt(2_000 * MS);
    assertThat(debounce.dueAt()).isEqualTo(2_100 * MS);
  }

  @Test
  void badTimingIsRefusedNamingBothSettings() {
    assertThatThrownBy(() -> new Debounce.Timing(Duration.ofMillis(200), Duration.ofMillis(100)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("debounce timing: need 0 <= holdOff <= cap <= 24h, got holdOff=200ms cap=100ms");
    assertThatThrownBy(() -> new Debounce.Timing(Duration.ofMillis(-1), Duration.ofMillis(100)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Debounce.Timing(Duration.ZERO, Duration.ofDays(2)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
