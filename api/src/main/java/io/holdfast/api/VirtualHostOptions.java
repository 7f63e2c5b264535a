package io.holdfast.api;

import java.util.Objects;
import java.util.Optional;

/**
 * A VirtualService's {@code spec.options}: defaults for all its routes. A route's own retries or CORS policy
 * replace the default; its header manipulation is added to the default's, winning for a header both add.
 */
public record VirtualHostOptions(Optional<RouteOptions.HeaderManipulation> headerManipulation,
    Optional<RouteOptions.Cors> cors, Optional<RetryPolicy> retries, TrafficOptions.Route traffic) {

  public static final VirtualHostOptions NONE =
      new VirtualHostOptions(Optional.empty(), Optional.empty(), Optional.empty());

  /** Without traffic options. */
  public VirtualHostOptions(Optional<RouteOptions.HeaderManipulation> headerManipulation,
      Optional<RouteOptions.Cors> cors, Optional<RetryPolicy> retries) {
    this(headerManipulation, cors, retries, TrafficOptions.Route.NONE);
  }

  public VirtualHostOptions {
    Objects.requireNonNull(headerManipulation, "headerManipulation");
    Objects.requireNonNull(cors, "cors");
    Objects.requireNonNull(retries, "retries");
    Objects.requireNonNull(traffic, "traffic");
  }
}
