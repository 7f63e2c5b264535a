package io.holdfast.election;

import java.time.Duration;
import java.util.Map;
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

  public static final String ENV_DISABLE = "DISABLE_LEADER_ELECTION";
  public static final String ENV_LEASE_DURATION = "LEADER_ELECTION_LEASE_DURATION";
  /** Gloo's name; it sets the renew deadline. */
  public static final String ENV_RENEW_DEADLINE = "LEADER_ELECTION_RENEW_PERIOD";
  public static final String ENV_RETRY_PERIOD = "LEADER_ELECTION_RETRY_PERIOD";
  public static final String ENV_MAX_RECOVERY = "MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER";
  public static final String ENV_POD_NAME = "POD_NAME";
  public static final String ENV_POD_NAMESPACE = "POD_NAMESPACE";

  public ElectionSettings {
    Objects.requireNonNull(recovery, "recovery");
    requireText("identity", identity);
    requireText("leaseNamespace", leaseNamespace);
    requireText("leaseName", leaseName);
    requirePositive("leaseDuration", leaseDuration);
    requirePositive("renewDeadline", renewDeadline);
    requirePositive("retryPeriod", retryPeriod);
    requirePositive("lockTimeout", lockTimeout);
    requirePositive("leaderRequestTimeout", leaderRequestTimeout);
    requirePositive("fenceSlack", fenceSlack);
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

  /**
   * Applies the Gloo-compatible environment variables on top of {@code base}. An unparsable value is an
   * error naming the variable and the value, never a silent default.
   */
  public static Builder fromEnvironment(Map<String, String> env, Builder base) {
    Optional.ofNullable(env.get(ENV_DISABLE)).map(String::trim).filter(v -> !v.isEmpty()).ifPresent(v -> {
      if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
        throw new IllegalArgumentException(ENV_DISABLE + ": '" + v + "' is not a boolean; use true or false");
      }
      base.enabled(!Boolean.parseBoolean(v));
    });
    durationFrom(env, ENV_LEASE_DURATION).ifPresent(base::leaseDuration);
    durationFrom(env, ENV_RENEW_DEADLINE).ifPresent(base::renewDeadline);
    durationFrom(env, ENV_RETRY_PERIOD).ifPresent(base::retryPeriod);
    durationFrom(env, ENV_MAX_RECOVERY).ifPresent(d -> {
      if (d.isZero()) {
        throw new IllegalArgumentException(ENV_MAX_RECOVERY + ": '" + env.get(ENV_MAX_RECOVERY) + "' must be greater than 0");
      }
      base.recovery(RecoveryPolicy.recoverWithin(d));
    });
    Optional.ofNullable(env.get(ENV_POD_NAME)).filter(v -> !v.isBlank()).ifPresent(base::identity);
    Optional.ofNullable(env.get(ENV_POD_NAMESPACE)).filter(v -> !v.isBlank()).ifPresent(base::leaseNamespace);
    return base;
  }

  private static Optional<Duration> durationFrom(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Durations.parse(name, value));
  }

  private static void requireText(String name, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be greater than 0, was "
          + (value == null ? "unset" : Durations.format(value)));
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
