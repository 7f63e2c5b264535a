package io.holdfast.it.bench.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.holdfast.testkit.FaultProxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/** The sampler's three figures, with replicas whose belief is a function of time since t0. */
class LeaderSamplerTest {

  private static final long MS = 1_000_000L;

  /** A clock the sampler's pause moves on by one 10 ms sample: the figures do not depend on the machine's load. */
  private final AtomicLong clock = new AtomicLong(1_000 * MS);
  private final Runnable sample = () -> clock.addAndGet(10 * MS);

  @Test
  void measuresStopTakeoverAndOverlap() {
    long t0 = clock.get();
    // The other replica leads from 100 ms, the old one stops at 250 ms: 150 ms with two leaders.
    LeaderSampler.Track track = new LeaderSampler.Track(Implementation.HOLDFAST,
        new Timed("old", at -> at - t0 < 250 * MS), new Timed("other", at -> at - t0 >= 100 * MS));
    LeaderSampler.run(List.of(track), t0, Duration.ofSeconds(5), clock::get, sample);
    assertThat(track.stoppedMs(t0)).isCloseTo(250, within(10.0));
    assertThat(track.takeoverMs(t0)).isCloseTo(100, within(10.0));
    assertThat(track.dualMs()).isCloseTo(150, within(10.0));
  }

  @Test
  void reportsNothingWhenTheEventsDoNotHappenWithinTheBound() {
    long t0 = clock.get();
    LeaderSampler.Track track = new LeaderSampler.Track(Implementation.FABRIC8, new Timed("old", at -> true),
        new Timed("other", at -> false));
    LeaderSampler.run(List.of(track), t0, Duration.ofMillis(100), clock::get, sample);
    assertThat(track.stoppedMs(t0)).isNaN();
    assertThat(track.takeoverMs(t0)).isNaN();
    assertThat(track.dualMs()).isZero();
  }

  /** A replica that leads whenever {@code leads} holds for the current nanoTime; no proxy, no API. */
  private final class Timed implements Contender {
    private final String identity;
    private final LongPredicate leadsAt;

    Timed(String identity, LongPredicate leadsAt) {
      this.identity = identity;
      this.leadsAt = leadsAt;
    }

    @Override
    public String identity() {
      return identity;
    }

    @Override
    public FaultProxy proxy() {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean leads() {
      return leadsAt.test(clock.get());
    }

    @Override
    public Optional<String> observedLeader() {
      return Optional.empty();
    }

    @Override
    public boolean settled() {
      return true;
    }

    @Override
    public boolean finished() {
      return false;
    }

    @Override
    public void stopGracefully() {
    }

    @Override
    public void close() {
    }
  }
}
