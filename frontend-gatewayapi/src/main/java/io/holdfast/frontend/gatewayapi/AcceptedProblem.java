package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Origin;
import java.util.Objects;

/**
 * A field of a route Holdfast cannot honour (an unsupported filter type, an invalid regular expression): the
 * route's parents get Accepted=False with {@code reason}; the rule holding it answers 500 rather than skip it.
 *
 * @param reason condition reason: {@code UnsupportedValue}
 */
public record AcceptedProblem(String reason, String message, Origin origin) {

  public static final String UNSUPPORTED_VALUE = "UnsupportedValue";

  public AcceptedProblem {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(origin, "origin");
  }
}
