package io.holdfast.election;

import io.holdfast.common.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Everything an elector needs to know, validated once. Defaults follow client-go and Gloo Edge:
 * lease 15 s, renew deadline 10 s, retry period 2 s, and a 1 s timeout on every lock call.
 *
 * @param enabled        false means single-replica mode: always leader, no lock is touched
 * @param identity       this replica's holder identity, fixed for the life of the process
 * @param leaseNamespace namespace of the Lease object
 * @param leaseName      name of the Lease object
 * @param leaseDuration  how long candidates wait, on their own clock, for an unchanged record before taking
 *                       over; a whole number of seconds because the Lease stores seconds
 * @param renewDeadline  how long a leader keeps acting without a successful renewal; also the fence
 * @param retryPeriod    interval between acquire and renew attempts (jittered)
 * @param lockTimeout    bound on each lock call, so a hung API cannot stretch a renewal past its deadline
 * @param leaderRequestTimeout bound on each leader-only request (status writes); also capped at the time left
 *                       on the fence
 * @param fenceSlack     the stated bound on how much later than its timeout a leader-only request may still
 *                       reach the API server (network delay plus clock-rate difference between replicas)
 * @param recovery       what to do after losing the lease
 *
 * <p>Rules, each refused with a message naming the settings: every timing is greater than 0 and at most
 * {@link #MAX_TIMING} (1 h; longer leases only delay fail-over, and the Lease stores an int of seconds);
 * the lease is a whole number of seconds; {@code leaseDuration > renewDeadline};
 * {@code renewDeadline > 1.2 x retryPeriod} (room for jitter); {@code lockTimeout < renewDeadline};
 * {@code leaseDuration - renewDeadline > leaderRequestTimeout + fenceSlack} (a leader-only request sent just
 * before the fence closes lands before any successor can take the lease); and
 * {@code lockTimeout + retryPeriod < renewDeadline} (a renewal that times out leaves time for another one
 * before the fence closes).
 */
public record ElectionSettings(
    boolean enabled,
    String identity,
    String leaseNamespace,
    String leaseName,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod,
    Duration lockTimeout,
    Duration leaderRequestTimeout,
    Duration fenceSlack,
    RecoveryPolicy recovery) {

  /** Jitter added to each retry wait, as a fraction of it; the timing rule below leaves room for it. */
  public static final double JITTER_FACTOR = 0.2;

  /** Upper bound on every timing setting: keeps all arithmetic far from overflow and the lease in an int. */
  public static final Duration MAX_TIMING = Duration.ofHours(1);

  /** Scheduling margin in {@link #maxCloseTime()}: the elector thread's own hand-offs, and draining listeners. */
  private static final Duration CLOSE_MARGIN = Duration.ofSeconds(2);

  public ElectionSettings {
    Objects.requireNonNull(recovery, "recovery");
    requireText("identity", identity);
    requireText("leaseNamespace", leaseNamespace);
    requireText("leaseName", leaseName);
    requireTiming("leaseDuration", leaseDuration);
    requireTiming("renewDeadline", renewDeadline);
    requireTiming("retryPeriod", retryPeriod);
    requireTiming("lockTimeout", lockTimeout);
    requireTiming("leaderRequestTimeout", leaderRequestTimeout);
    requireTiming("fenceSlack", fenceSlack);
    if (leaseDuration.toNanos() % 1_000_000_000L != 0) {
      throw new IllegalArgumentException("leaseDuration must be a whole number of seconds (the Lease stores seconds), was "
          + Durations.format(leaseDuration));
    }
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException("leaseDuration (" + Durations.format(leaseDuration)
          + ") must be greater than renewDeadline (" + Durations.format(renewDeadline) + ")");
    }
    if (renewDeadline.toNanos() <= (long) (retryPeriod.toNanos() * (1 + JITTER_FACTOR))) {
      throw new IllegalArgumentException("renewDeadline (" + Durations.format(renewDeadline)
          + ") must be greater than 1.2 x retryPeriod (" + Durations.format(retryPeriod) + ")");
    }
    if (lockTimeout.compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException("lockTimeout (" + Durations.format(lockTimeout)
          + ") must be less than renewDeadline (" + Durations.format(renewDeadline) + ")");
    }
    // The fence is check-then-act: a request that passed Fence.check() just before the fence closed is
    // still on its way for up to leaderRequestTimeout (its timeout, capped at the fence) plus fenceSlack
    // (bytes abandoned on the wire, clock-rate difference). A successor waits leaseDuration after the
    // last renewal, the fence closes renewDeadline after it: the gap must cover that request.
    if (leaseDuration.minus(renewDeadline).compareTo(leaderRequestTimeout.plus(fenceSlack)) <= 0) {
      throw new IllegalArgumentException("leaseDuration (" + Durations.format(leaseDuration) + ") - renewDeadline ("
          + Durations.format(renewDeadline) + ") must be greater than leaderRequestTimeout ("
          + Durations.format(leaderRequestTimeout) + ") + fenceSlack (" + Durations.format(fenceSlack)
          + "): a leader-only write sent just before the fence expires must land before a successor can take the lease");
    }
    // A renewal abandoned at its lock timeout must leave room for one more attempt before the fence closes,
    // or one slow call demotes a healthy leader.
    if (lockTimeout.plus(retryPeriod).compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException("lockTimeout (" + Durations.format(lockTimeout) + ") + retryPeriod ("
          + Durations.format(retryPeriod) + ") must be less than renewDeadline (" + Durations.format(renewDeadline)
          + "): a renewal that times out must leave time for another attempt before the fence closes");
    }
  }

  /**
   * The longest {@link LeaderElector#close()} takes with these settings:
   * {@code renewDeadline + fenceSlack + 2 x lockTimeout + 2 s} (defaults: 15 s). Worst case: the elector
   * thread is in a lock call (at most lockTimeout; it starts no other once closing) while leader-only work
   * gets until the fence's end plus fenceSlack (the time left on the fence is at most renewDeadline, and
   * lockTimeout is less, so the two waits overlap); then the release reads (if its view went stale) and
   * writes, at most lockTimeout each; 2 s cover scheduling and the listeners' last callbacks.
   */
  public Duration maxCloseTime() {
    return renewDeadline.plus(fenceSlack).plus(lockTimeout.multipliedBy(2)).plus(CLOSE_MARGIN);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().enabled(enabled).identity(identity).leaseNamespace(leaseNamespace).leaseName(leaseName)
        .leaseDuration(leaseDuration).renewDeadline(renewDeadline).retryPeriod(retryPeriod)
        .lockTimeout(lockTimeout).leaderRequestTimeout(leaderRequestTimeout).fenceSlack(fenceSlack)
        .recovery(recovery);
  }

  private static void requireText(String name, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }

  private static void requireTiming(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be greater than 0, was "
          + (value == null ? "unset" : Durations.format(value)));
    }
    if (value.compareTo(MAX_TIMING) > 0) {
      throw new IllegalArgumentException(name + " must be at most 1h, was " + Durations.format(value));
    }
  }

  /** Mutable builder; {@link #build()} validates. */
  public static final class Builder {
    private boolean enabled = true;
    private String identity = defaultIdentity();
    private String leaseNamespace = "holdfast-system";
    private String leaseName = "holdfast";
    private Duration leaseDuration = Duration.ofSeconds(15);
    private Duration renewDeadline = Duration.ofSeconds(10);
    private Duration retryPeriod = Duration.ofSeconds(2);
    private Duration lockTimeout = Duration.ofSeconds(1);
    private Duration leaderRequestTimeout = Duration.ofSeconds(2);
    private Duration fenceSlack = Duration.ofSeconds(1);
    private RecoveryPolicy recovery = RecoveryPolicy.RECOVER;

    private Builder() {}

    public Builder enabled(boolean v) { enabled = v; return this; }
    public Builder identity(String v) { identity = v; return this; }
    public Builder leaseNamespace(String v) { leaseNamespace = v; return this; }
    public Builder leaseName(String v) { leaseName = v; return this; }
    public Builder leaseDuration(Duration v) { leaseDuration = v; return this; }
    public Builder renewDeadline(Duration v) { renewDeadline = v; return this; }
    public Builder retryPeriod(Duration v) { retryPeriod = v; return this; }
    public Builder lockTimeout(Duration v) { lockTimeout = v; return this; }
    public Builder leaderRequestTimeout(Duration v) { leaderRequestTimeout = v; return this; }
    public Builder fenceSlack(Duration v) { fenceSlack = v; return this; }
    public Builder recovery(RecoveryPolicy v) { recovery = v; return this; }

    public ElectionSettings build() {
      return new ElectionSettings(enabled, identity, leaseNamespace, leaseName, leaseDuration, renewDeadline,
          retryPeriod, lockTimeout, leaderRequestTimeout, fenceSlack, recovery);
    }

    /** {@code <hostname>_<random>}, fixed per process, as Gloo does: unique even across pod restarts. */
    private static String defaultIdentity() {
      String host = Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElse("holdfast");
      return host + "_" + UUID.randomUUID().toString().substring(0, 8);
    }
  }
}
