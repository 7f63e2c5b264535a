package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link Backoff} and {@link RateLimiter} on a fake clock. */
class PacingTest {

  @Test
  void backoffDoublesFromTheInitialDelayUpToTheCap() {
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(700));
    assertThat(b.delay(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(b.delay(2)).isEqualTo(Duration.ofMillis(200));
    assertThat(b.delay(3)).isEqualTo(Duration.ofMillis(400));
    assertThat(b.delay(4)).isEqualTo(Duration.ofMillis(700));
    assertThat(b.delay(1_000_000)).isEqualTo(Duration.ofMillis(700));
    assertThatThrownBy(() -> b.delay(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theRateLimiterAllowsOneBurstThenOneTokenPerInterval() {
    AtomicLong now = new AtomicLong(1_000_000_000_000L);
    RateLimiter limiter = new RateLimiter(4, now::get); // 250 ms per token, burst 4
    for (int i = 0; i < 4; i++) {
      assertThat(limiter.tryAcquire()).isZero();
    }
    assertThat(limiter.tryAcquire()).isEqualTo(Duration.ofMillis(250).toNanos());
    now.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(limiter.tryAcquire()).isEqualTo(Duration.ofMillis(150).toNanos());
    now.addAndGet(Duration.ofMillis(150).toNanos());
    assertThat(limiter.tryAcquire()).isZero();
    assertThat(limiter.tryAcquire()).isPositive();
  }

  @Test
  void idleTimeRefillsAtMostOneBurst() {
    AtomicLong now = new AtomicLong(-5L); // the ticker may be negative, as System.nanoTime may
    RateLimiter limiter = new RateLimiter(2, now::get);
    now.addAndGet(Duration.ofHours(1).toNanos());
    assertThat(limiter.tryAcquire()).isZero();
    assertThat(limiter.tryAcquire()).isZero();
    assertThat(limiter.tryAcquire()).isEqualTo(Duration.ofMillis(500).toNanos());
    assertThatThrownBy(() -> new RateLimiter(0, now::get)).isInstanceOf(IllegalArgumentException.class);
  }
}
