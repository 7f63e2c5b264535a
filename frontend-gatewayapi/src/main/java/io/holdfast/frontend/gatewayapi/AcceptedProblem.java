package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Origin;
import java.util.Objects;

/**
 * A field of a route Holdfast cannot honour (an unsupported filter type, an invalid regular expression): the
 * route's parents get Accepted=False with {@code reason}; the rule holding it answers 500 rather than skip it.
 *
 * @param reason  condition reason: {@code UnsupportedValue}
 * @param finding the reason of the finding that reports it: {@code reason}, or a more precise one
 *                ({@link Findings#INVALID_ENUM}, {@link Findings#MISSING_FIELD})
 */
public record AcceptedProblem(String reason, String message, Origin origin, String finding) {

  public static final String UNSUPPORTED_VALUE = "UnsupportedValue";

  public AcceptedProblem {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(finding, "finding");
  }

  public AcceptedProblem(String reason, String message, Origin origin) {
    this(reason, message, origin, reason);
  }
}
