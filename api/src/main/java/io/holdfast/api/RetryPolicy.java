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
 */
public record RetryPolicy(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn) {

  public RetryPolicy {
    Objects.requireNonNull(perTryTimeout, "perTryTimeout");
    retryOn = List.copyOf(retryOn);
  }
}
