package io.holdfast.api;

import java.util.Objects;
import java.util.Optional;

/**
 * A VirtualService's {@code spec.options}: defaults for all its routes. A route's own retries or CORS policy
 * replace the default; its header manipulation is added to the default's, winning for a header both add. Its
 * {@code security} defines JWT providers and the default {@code jwt} and {@code rbac} ({@link SecurityOptions}).
 */
public record VirtualHostOptions(Optional<RouteOptions.HeaderManipulation> headerManipulation,
    Optional<RouteOptions.Cors> cors, Optional<RetryPolicy> retries, SecurityOptions security,
    TrafficOptions.Route traffic) {

  public static final VirtualHostOptions NONE =
      new VirtualHostOptions(Optional.empty(), Optional.empty(), Optional.empty());

  public VirtualHostOptions {
    Objects.requireNonNull(headerManipulation, "headerManipulation");
    Objects.requireNonNull(cors, "cors");
    Objects.requireNonNull(retries, "retries");
    Objects.requireNonNull(security, "security");
    Objects.requireNonNull(traffic, "traffic");
  }

  /** Options without {@code security} or traffic options. */
  public VirtualHostOptions(Optional<RouteOptions.HeaderManipulation> headerManipulation,
      Optional<RouteOptions.Cors> cors, Optional<RetryPolicy> retries) {
    this(headerManipulation, cors, retries, SecurityOptions.NONE, TrafficOptions.Route.NONE);
  }

  /** Options without traffic options. */
  public VirtualHostOptions(Optional<RouteOptions.HeaderManipulation> headerManipulation,
      Optional<RouteOptions.Cors> cors, Optional<RetryPolicy> retries, SecurityOptions security) {
    this(headerManipulation, cors, retries, security, TrafficOptions.Route.NONE);
  }

  /** Options without {@code security}. */
  public VirtualHostOptions(Optional<RouteOptions.HeaderManipulation> headerManipulation,
      Optional<RouteOptions.Cors> cors, Optional<RetryPolicy> retries, TrafficOptions.Route traffic) {
    this(headerManipulation, cors, retries, SecurityOptions.NONE, traffic);
  }
}
