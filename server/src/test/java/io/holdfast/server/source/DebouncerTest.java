package io.holdfast.server.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DebouncerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final Debouncer debouncer =
      new Debouncer(new WatchTiming(Duration.ofMillis(100), Duration.ofMillis(500)));

  private static Instant at(long millis) {
    return T0.plusMillis(millis);
  }

  @Test
  void nothingIsDueWithoutEvents() {
    assertThat(debouncer.pending()).isFalse();
    assertThat(debouncer.isDue(at(10_000))).isFalse();
  }

  @Test
  void dueOnceQuietForTheHoldOff() {
    debouncer.eventAt(at(0));
    debouncer.eventAt(at(60));

    assertThat(debouncer.isDue(at(159))).isFalse();
    assertThat(debouncer.dueAt()).isEqualTo(at(160));
    assertThat(debouncer.isDue(at(160))).isTrue();
  }

  @Test
  void steadyEventsAreCappedAfterTheFirstOne() {
    for (long t = 0; t <= 480; t += 40) {
      debouncer.eventAt(at(t));
      assertThat(debouncer.isDue(at(t))).as("at %d ms", t).isFalse();
    }
    debouncer.eventAt(at(499));

    assertThat(debouncer.dueAt()).isEqualTo(at(500));
    assertThat(debouncer.isDue(at(500))).isTrue();
  }

  @Test
  void clockSteppingBackMakesItDueInsteadOfStalling() {
    debouncer.eventAt(at(1_000));

    assertThat(debouncer.isDue(at(1_050))).isFalse();
    assertThat(debouncer.isDue(at(0))).isTrue();
  }

  @Test
  void clearEndsTheBurst() {
    debouncer.eventAt(at(0));
    debouncer.clear();

    assertThat(debouncer.pending()).isFalse();
    assertThat(debouncer.isDue(at(1_000))).isFalse();
  }
}
