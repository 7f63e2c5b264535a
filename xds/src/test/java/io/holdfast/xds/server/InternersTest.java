package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tables that share what many streams ask ({@link SotwQuestion}, {@link Names}) share while someone holds the
 * shared instance and let it go afterwards (issue 22: they never evicted, and stopped sharing once full).
 */
class InternersTest {

  private static final Duration COLLECTED_WITHIN = Duration.ofSeconds(20);

  @Test
  void equalQuestionsShareOneInstanceWhileHeld() {
    SotwQuestion first = SotwQuestion.of(Fixtures.CDS, new ArrayList<>(List.of("a", "b")));
    SotwQuestion second = SotwQuestion.of(Fixtures.CDS, List.of("a", "b"));
    assertThat(second).isSameAs(first);
    assertThat(SotwQuestion.of(Fixtures.CDS, List.of("b", "a"))).isNotSameAs(first);
  }

  /** Past the old table's 4,096 entries, new questions were no longer shared at all. */
  @Test
  void sharingGoesOnPastTheOldTableSize() {
    List<SotwQuestion> held = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      held.add(SotwQuestion.of(Fixtures.CDS, List.of("q-" + i)));
    }
    assertThat(SotwQuestion.of(Fixtures.CDS, List.of("q-4999"))).isSameAs(held.get(4_999));
  }

  @Test
  void aQuestionNoOneHoldsIsCollected() {
    WeakReference<SotwQuestion> question = new WeakReference<>(
        SotwQuestion.of(Fixtures.CDS, List.of("only-asked-once-" + System.nanoTime())));
    await().atMost(COLLECTED_WITHIN).until(() -> {
      System.gc();
      return question.get() == null;
    });
  }

  @Test
  void namesShareWhileHeldAndAreCollectedAfterwards() {
    String name = Names.shared(new String("cluster-" + System.nanoTime()));
    assertThat(Names.shared(new String(name))).isSameAs(name);
    WeakReference<String> ref = new WeakReference<>(name);
    name = null;
    await().atMost(COLLECTED_WITHIN).until(() -> {
      System.gc();
      return ref.get() == null;
    });
  }
}
