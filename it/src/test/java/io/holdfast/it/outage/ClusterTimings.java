package io.holdfast.it.outage;

import java.time.Duration;

/** The election timings every replica of a scenario runs with (short, so a scenario takes seconds). */
record ClusterTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, Duration lockTimeout) {
  static final ClusterTimings FAST = new ClusterTimings(Duration.ofSeconds(2), Duration.ofMillis(1500),
      Duration.ofMillis(300), Duration.ofMillis(500));

  ClusterTimings {
    if (leaseDuration.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException("the lease duration is whole seconds in a Lease: " + leaseDuration);
    }
    if (!(leaseDuration.compareTo(renewDeadline) > 0 && renewDeadline.compareTo(retryPeriod) > 0)) {
      throw new IllegalArgumentException("need lease > renew deadline > retry period");
    }
  }

  String leaseFlag() {
    return leaseDuration.toSeconds() + "s";
  }
}
