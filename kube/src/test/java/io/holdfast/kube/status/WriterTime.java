package io.holdfast.kube.status;

import static org.awaitility.Awaitility.await;

import io.holdfast.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ConditionFactory;

/**
 * Status writers on a {@link ManualClock}: time moves only when the test says so, every writer is told, and the
 * test waits until each has done all it will do at the new time ({@link StatusWriter#idleAt}). So a test shows
 * what happens during a backoff, a rate-limit interval or a quiet second without waiting for it, and "nothing
 * happened during d" means the writer was given d and acted on it.
 */
final class WriterTime {
  /** Bound on how long a writer may take (real time, a loaded machine) to act on a wake-up or a move. */
  private static final Duration ACT_WITHIN = Duration.ofSeconds(10);

  final ManualClock clock = new ManualClock();
  private final List<StatusWriter> writers = new CopyOnWriteArrayList<>();

  /** The builder with this clock as its ticker; {@link #add} the writer it builds. */
  StatusWriter.Builder on(StatusWriter.Builder b) {
    return b.ticker(clock);
  }

  StatusWriter add(StatusWriter w) {
    writers.add(w);
    return w;
  }

  long now() {
    return clock.nanoTime();
  }

  /** Moves the clock by {@code d}, then waits until every writer has acted on it and is idle. */
  void advance(Duration d) {
    clock.advance(d);
    writers.forEach(StatusWriter::timeMoved);
    settle();
  }

  /** Moves the clock by {@code total} in steps of {@code step}, letting the writers act at each. */
  void advance(Duration total, Duration step) {
    for (Duration done = Duration.ZERO; done.compareTo(total) < 0; done = done.plus(step)) {
      advance(step.compareTo(total.minus(done)) < 0 ? step : total.minus(done));
    }
  }

  /**
   * Moves the clock by {@code step} at a time, letting the writers act at each, until {@code done} holds; within
   * {@code within} of real time (other parties, such as real electors, may have to act too).
   */
  void advanceUntil(java.util.function.BooleanSupplier done, Duration step, Duration within) {
    await().atMost(within).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10)).until(() -> {
      if (done.getAsBoolean()) {
        return true;
      }
      advance(step);
      return done.getAsBoolean();
    });
  }

  /** An await that checks at once and then often: a writer acts on a move within milliseconds. */
  private static ConditionFactory quickly() {
    return await().atMost(ACT_WITHIN).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2));
  }

  /** Waits until every writer has done all it will do at the current time. */
  void settle() {
    long now = now();
    writers.forEach(w -> quickly().until(() -> w.idleAt(now)));
  }

  /** Waits until {@code w} waits for an API call's answer, and has looked at the clock at its current time. */
  void awaitAnswerAwaited(StatusWriter w) {
    long now = now();
    quickly().until(() -> w.awaitingAnswerAt(now));
  }

  /** Moves the clock by {@code d} while {@code w} waits for an answer; waits until it has looked at the new time. */
  void advanceWhileAwaitingAnswer(StatusWriter w, Duration d) {
    clock.advance(d);
    w.timeMoved();
    awaitAnswerAwaited(w);
  }
}
