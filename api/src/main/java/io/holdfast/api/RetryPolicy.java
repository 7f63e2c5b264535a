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
 * @param retriableStatusCodes HTTP statuses retried under the {@code retriable-status-codes} condition
 * @param rateLimitedBackoff   the wait an upstream asks for in a header of its answer, used instead of
 *                             {@code backoff} when one of the headers is there (Envoy's
 *                             {@code rate_limited_retry_back_off}; gRPC clients ignore it)
 */
public record RetryPolicy(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn,
    Optional<Backoff> backoff, List<Integer> retriableStatusCodes, Optional<RateLimitedBackoff> rateLimitedBackoff) {

  public RetryPolicy {
    Objects.requireNonNull(perTryTimeout, "perTryTimeout");
    retryOn = List.copyOf(retryOn);
    Objects.requireNonNull(backoff, "backoff");
    retriableStatusCodes = List.copyOf(retriableStatusCodes);
    Objects.requireNonNull(rateLimitedBackoff, "rateLimitedBackoff");
  }

  /** A retry policy with the default backoff. */
  public RetryPolicy(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn) {
    this(attempts, perTryTimeout, retryOn, Optional.empty());
  }

  /** A retry policy without status codes or a rate-limited backoff. */
  public RetryPolicy(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn,
      Optional<Backoff> backoff) {
    this(attempts, perTryTimeout, retryOn, backoff, List.of(), Optional.empty());
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

  /**
   * The wait read from the upstream's answer: the first of {@code resetHeaders} present gives it, capped at
   * {@code maxInterval} (default 300 s, Envoy's).
   */
  public record RateLimitedBackoff(List<ResetHeader> resetHeaders, Optional<Duration> maxInterval) {
    public RateLimitedBackoff {
      resetHeaders = List.copyOf(resetHeaders);
      Objects.requireNonNull(maxInterval, "maxInterval");
    }
  }

  /** A response header holding the wait, as a number of seconds or as the Unix time to wait until. */
  public record ResetHeader(String name, ResetFormat format) {
    public ResetHeader {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(format, "format");
    }
  }

  public enum ResetFormat {
    SECONDS, UNIX_TIMESTAMP
  }
}
