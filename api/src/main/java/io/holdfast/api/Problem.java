package io.holdfast.api;

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

  /**
   * The longest message kept: messages quote the values they are about, and a hostile value (a 2 MB domain) must
   * not turn into megabytes of status, log line and validate output.
   */
  public static final int MAX_MESSAGE = 2048;

  public Problem {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
    message = cut(Objects.requireNonNull(message, "message"));
  }

  /** {@code message}, cut to {@link #MAX_MESSAGE} characters with a note of how long it was. */
  public static String cut(String message) {
    return message.length() <= MAX_MESSAGE ? message
        : message.substring(0, MAX_MESSAGE) + "... (message cut, " + message.length() + " characters)";
  }

  /** {@code field: message (Reason)}, e.g. {@code spec.routes[2].match.prefx: unknown field (UnknownField)}. */
  @Override
  public String toString() {
    return (field.isEmpty() ? "" : field + ": ") + message + " (" + reason + ")";
  }
}
