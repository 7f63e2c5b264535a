package io.holdfast.kube.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.kube.source.Staleness.Transition;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StalenessTest {

  private static final Instant T0 = Instant.parse("2026-01-31T12:00:00Z");

  @Test
  void nothingIsStaleBeforeTheFirstSync() {
    Staleness s = new Staleness();
    assertThat(s.observe(T0, false, false, false)).isEqualTo(Transition.NONE);
    assertThat(s.since()).isEmpty();
  }

  @Test
  void staleFromTheFirstBadObservationUntilAGoodOne() {
    Staleness s = new Staleness();
    assertThat(s.observe(T0, true, true, true)).isEqualTo(Transition.NONE);
    assertThat(s.observe(T0.plusSeconds(1), true, true, false)).isEqualTo(Transition.BECAME_STALE);
    assertThat(s.observe(T0.plusSeconds(2), true, false, true)).isEqualTo(Transition.NONE);
    assertThat(s.since()).contains(T0.plusSeconds(1));
    assertThat(s.observe(T0.plusSeconds(3), true, true, true)).isEqualTo(Transition.RECOVERED);
    assertThat(s.since()).isEmpty();
  }

  @Test
  void anInformerThatStopsWatchingMakesItStaleEvenIfTheApiAnswers() {
    Staleness s = new Staleness();
    assertThat(s.observe(T0, true, false, true)).isEqualTo(Transition.BECAME_STALE);
    assertThat(s.since()).contains(T0);
  }
}
