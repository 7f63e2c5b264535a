package io.holdfast.it.bench.election;

import java.time.Duration;

/**
 * One timing profile, applied identically to both electors.
 *
 * @param name          label in the report
 * @param leaseDuration lease duration
 * @param renewDeadline renew deadline
 * @param retryPeriod   retry period
 */
public record Timings(String name, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

  /** client-go and Gloo defaults. */
  public static final Timings DEFAULT = new Timings("default 15/10/2 s", Duration.ofSeconds(15),
      Duration.ofSeconds(10), Duration.ofSeconds(2));
  /** A fast profile for quicker runs. */
  public static final Timings FAST = new Timings("fast 4/3/1 s", Duration.ofSeconds(4), Duration.ofSeconds(3),
      Duration.ofSeconds(1));

  public Timings {
    if (leaseDuration.compareTo(renewDeadline) <= 0 || renewDeadline.toMillis() <= retryPeriod.toMillis() * 1.2) {
      throw new IllegalArgumentException("need lease > renew deadline > 1.2 x retry, got " + this);
    }
  }

  /** How long a scenario may take before it is reported as not finished. */
  Duration scenarioBound() {
    return leaseDuration.multipliedBy(3).plus(renewDeadline).plusSeconds(30);
  }

  /** How long a re-connected or released replica gets to react (covers Holdfast's back-off of 4 retries). */
  Duration reactionBound() {
    return retryPeriod.multipliedBy(6).plusSeconds(2);
  }

  /** Steady-state window for counting API requests. */
  Duration steadyWindow() {
    return leaseDuration.compareTo(Duration.ofSeconds(10)) > 0 ? Duration.ofSeconds(60) : Duration.ofSeconds(30);
  }
}
