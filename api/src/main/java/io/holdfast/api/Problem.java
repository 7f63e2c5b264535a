package io.holdfast.api;

import io.holdfast.common.Messages;
import java.util.Objects;

/**
 * One thing wrong with a resource.
 *
 * @param field   JSON path inside the resource, e.g. {@code spec.routes[2].match.prefx}; empty for the whole
 *                resource
 * @param reason  stable CamelCase code from {@link Reasons}, for machines and status conditions
 * @param message human explanation; {@link #toString()} prefixes it with the field path
 */
public record Problem(String field, String reason, String message) {

  public Problem {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
    // A hostile value quoted in a message stays a few kilobytes.
    message = Messages.cut(Objects.requireNonNull(message, "message"));
  }

  /** {@code field: message (Reason)}, e.g. {@code spec.routes[2].match.prefx: unknown field (UnknownField)}. */
  @Override
  public String toString() {
    return (field.isEmpty() ? "" : field + ": ") + message + " (" + reason + ")";
  }
}
