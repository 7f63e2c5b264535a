package io.holdfast.ir;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A group of endpoints that routes forward to. Its identity is the object it was lowered from
 * ({@code origin.object()}): routes refer to it by that key, and the translator names it per kind.
 *
 * @param endpoints in the order they are sent (front ends sort discovered endpoints; written ones keep their order)
 */
public record Cluster(Origin origin, Duration connectTimeout, LbPolicy lbPolicy, boolean http2,
    List<WeightedEndpoint> endpoints) {

  public Cluster {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(lbPolicy, "lbPolicy");
    endpoints = List.copyOf(endpoints);
    if (connectTimeout.isZero() || connectTimeout.isNegative()) {
      throw new IllegalArgumentException(origin + ": connectTimeout must be greater than 0, got " + connectTimeout);
    }
  }

  /** How requests are spread over the endpoints. */
  public enum LbPolicy {
    ROUND_ROBIN, LEAST_REQUEST, RING_HASH, RANDOM
  }

  /** One IP endpoint; {@code weight} 1-128 is relative to the cluster's other endpoints. */
  public record WeightedEndpoint(String address, int port, int weight) {
    public WeightedEndpoint {
      Objects.requireNonNull(address, "address");
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("endpoint " + address + ": port " + port + " is out of range 1-65535");
      }
      if (weight < 1 || weight > 128) {
        throw new IllegalArgumentException("endpoint " + address + ": weight " + weight + " is out of range 1-128");
      }
    }
  }
}
