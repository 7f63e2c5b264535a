package io.holdfast.election;

import io.holdfast.common.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a replica does after it loses the lease.
 *
 * <ul>
 *   <li>{@link OnLoss#RECOVER} (default): become follower at once and campaign again; never exit.
 *   <li>{@link OnLoss#EXIT}: the legacy behaviour of Gloo and fabric8: exit on the first loss.
 * </ul>
 *
 * <p>{@code maxRecovery} (with RECOVER) bounds how long a replica that lost the lease may go without one
 * successful read of the lease; past it the process exits, after one last read of the lease (an API that
 * answers then has recovered). Any successful read, whoever holds the lease, counts as recovery. Followers
 * that never led do not exit because the API is unreachable. At most {@link #MAX_RECOVERY}.
 */
public record RecoveryPolicy(OnLoss onLoss, Optional<Duration> maxRecovery) {

  public enum OnLoss { RECOVER, EXIT }

  /** Upper bound on maxRecovery: an API away for longer than a day is not helped by waiting longer. */
  public static final Duration MAX_RECOVERY = Duration.ofHours(24);

  public static final RecoveryPolicy RECOVER = new RecoveryPolicy(OnLoss.RECOVER, Optional.empty());
  public static final RecoveryPolicy EXIT = new RecoveryPolicy(OnLoss.EXIT, Optional.empty());

  public RecoveryPolicy {
    Objects.requireNonNull(onLoss, "onLoss");
    Objects.requireNonNull(maxRecovery, "maxRecovery");
    maxRecovery.ifPresent(d -> {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("maxRecovery must be > 0, was " + Durations.format(d));
      }
      if (d.compareTo(MAX_RECOVERY) > 0) {
        throw new IllegalArgumentException("maxRecovery must be at most 24h, was " + Durations.format(d));
      }
    });
    if (onLoss == OnLoss.EXIT && maxRecovery.isPresent()) {
      throw new IllegalArgumentException("maxRecovery only applies to onLoss=RECOVER; with EXIT the process exits at once");
    }
  }

  public static RecoveryPolicy recoverWithin(Duration maxRecovery) {
    return new RecoveryPolicy(OnLoss.RECOVER, Optional.of(maxRecovery));
  }
}
