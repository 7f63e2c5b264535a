package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Origin;
import java.util.Objects;

/**
 * A reference of a route that did not resolve: the route's parents get ResolvedRefs=False with {@code reason}
 * (the first problem's reason when there are several).
 *
 * @param reason condition reason, e.g. {@code BackendNotFound}
 * @param origin  the reference's field in the route
 * @param finding the reason of the finding that reports it: {@code reason}, or {@link Findings#MISSING_FIELD}
 */
public record ResolvedRefsProblem(String reason, String message, Origin origin, String finding) {

  public ResolvedRefsProblem {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(finding, "finding");
  }

  public ResolvedRefsProblem(String reason, String message, Origin origin) {
    this(reason, message, origin, reason);
  }
}
