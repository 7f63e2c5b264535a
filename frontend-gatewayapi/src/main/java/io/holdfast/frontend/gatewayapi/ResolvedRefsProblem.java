package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Origin;
import java.util.Objects;

/**
 * A reference of a route that did not resolve: the route's parents get ResolvedRefs=False with {@code reason}
 * (the first problem's reason when there are several).
 *
 * @param reason condition reason, e.g. {@code BackendNotFound}
 * @param origin the reference's field in the route
 */
public record ResolvedRefsProblem(String reason, String message, Origin origin) {

  public ResolvedRefsProblem {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(origin, "origin");
  }
}
