package io.holdfast.api;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Retries of a forwarding route.
 *
 * @param attempts      how many retries after the first try (Envoy {@code num_retries}, Istio semantics)
 * @param perTryTimeout timeout of each try
 * @param retryOn       Envoy retry conditions, e.g. {@code 5xx}, {@code reset}, {@code connect-failure}, or gRPC
 *                      ones ({@code unavailable}, {@code cancelled}, ...); grpc-java honours only the gRPC ones
 * @param backoff       the wait between tries; without it, Envoy's and gRPC's default (25 ms base, 250 ms max)
 */
public record RetryPolicy(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn,
    Optional<Backoff> backoff) {

  public RetryPolicy {
    Objects.requireNonNull(perTryTimeout, "perTryTimeout");
    retryOn = List.copyOf(retryOn);
    Objects.requireNonNull(backoff, "backoff");
  }

  /** A retry policy with the default backoff. */
  public RetryPolicy(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn) {
    this(attempts, perTryTimeout, retryOn, Optional.empty());
  }

  /**
   * Exponential backoff with jitter between tries.
   *
   * @param maxInterval the longest wait; default ten times {@code baseInterval}
   */
  public record Backoff(Duration baseInterval, Optional<Duration> maxInterval) {
    public Backoff {
      Objects.requireNonNull(baseInterval, "baseInterval");
      Objects.requireNonNull(maxInterval, "maxInterval");
    }
  }
}
