package io.holdfast.it.outage;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The election timings every replica of a scenario runs with (short, so a scenario takes seconds). The leader
 * request timeout and fence slack, when given, are passed as {@code --leader-request-timeout} and
 * {@code --fence-slack}; the fence's guarantee assumes a leader-only request reaches the API within their sum of
 * being sent.
 */
record ClusterTimings(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, Duration lockTimeout,
    Optional<Duration> leaderRequestTimeout, Optional<Duration> fenceSlack) {
  /** The outage scenarios' timings; status writes get 300 ms (+ 150 ms of slack) within the 500 ms margin. */
  static final ClusterTimings FAST = new ClusterTimings(Duration.ofSeconds(2), Duration.ofMillis(1500),
      Duration.ofMillis(300), Duration.ofMillis(500), Optional.of(Duration.ofMillis(300)),
      Optional.of(Duration.ofMillis(150)));
  /**
   * For a scenario whose policy ends a replica on any lease loss ({@code --on-lease-loss exit}): a renew
   * deadline of 3 s, so a cold replica's first renewals on a loaded machine (class loading, JIT) are not
   * themselves a loss.
   */
  static final ClusterTimings TOLERANT = new ClusterTimings(Duration.ofSeconds(4), Duration.ofSeconds(3),
      Duration.ofMillis(500), Duration.ofSeconds(1), Optional.of(Duration.ofMillis(500)),
      Optional.of(Duration.ofMillis(300)));
  /**
   * The fencing scenarios' timings: a 2 s margin between the renew deadline and the lease, of which a leader-only
   * request may take 1 s plus 0.5 s of slack to reach the API.
   */
  static final ClusterTimings FENCED = new ClusterTimings(Duration.ofSeconds(4), Duration.ofSeconds(2),
      Duration.ofMillis(300), Duration.ofMillis(500), Optional.of(Duration.ofSeconds(1)),
      Optional.of(Duration.ofMillis(500)));

  ClusterTimings {
    if (leaseDuration.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException("the lease duration is whole seconds in a Lease: " + leaseDuration);
    }
    if (!(leaseDuration.compareTo(renewDeadline) > 0 && renewDeadline.compareTo(retryPeriod) > 0)) {
      throw new IllegalArgumentException("need lease > renew deadline > retry period");
    }
    if (leaderRequestTimeout.isPresent() != fenceSlack.isPresent()) {
      throw new IllegalArgumentException("give the leader request timeout and the fence slack together");
    }
    if (leaderRequestTimeout.isPresent() && leaseDuration.minus(renewDeadline)
        .compareTo(leaderRequestTimeout.get().plus(fenceSlack.get())) <= 0) {
      throw new IllegalArgumentException("need lease - renew deadline > leader request timeout + fence slack");
    }
    if (lockTimeout.plus(retryPeriod).compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException("need lock timeout + retry period < renew deadline");
    }
  }

  /** For a report: every timing, as the flags name them. */
  String describe() {
    return "lease " + leaseFlag() + ", renew deadline " + renewDeadline.toMillis() + " ms, retry "
        + retryPeriod.toMillis() + " ms, lock timeout " + lockTimeout.toMillis() + " ms"
        + leaderRequestTimeout.map(t -> ", leader request timeout " + t.toMillis() + " ms, fence slack "
            + fenceSlack.orElseThrow().toMillis() + " ms").orElse("");
  }

  String leaseFlag() {
    return leaseDuration.toSeconds() + "s";
  }

  /** The longest a leader-only request may take to reach the API under the fence's assumption. */
  Optional<Duration> deliveryBound() {
    return leaderRequestTimeout.map(t -> t.plus(fenceSlack.orElseThrow()));
  }

  List<String> fenceFlags() {
    if (leaderRequestTimeout.isEmpty()) {
      return List.of();
    }
    return List.of("--leader-request-timeout", leaderRequestTimeout.get().toMillis() + "ms",
        "--fence-slack", fenceSlack.orElseThrow().toMillis() + "ms");
  }
}
