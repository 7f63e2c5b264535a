package io.holdfast.ir;

import io.holdfast.common.Messages;
import java.util.Objects;

/**
 * One thing found about an object, at a field.
 *
 * @param field  JSON path inside the object, e.g. {@code spec.routes[2].match.regex}; empty for the whole object
 * @param reason stable CamelCase code
 */
public record Finding(Severity severity, String field, String reason, String message) {

  /** In the order findings are listed. */
  public enum Severity {
    /** The object is not served. */
    ERROR,
    /** Served, with something worth knowing. */
    WARNING,
    /** Context for the other findings, e.g. that an older version is still served. */
    NOTE
  }

  public Finding {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(reason, "reason");
    // A hostile value quoted in a message stays a few kilobytes.
    message = Messages.cut(Objects.requireNonNull(message, "message"));
  }

  /** {@code field: message (Reason)}. */
  @Override
  public String toString() {
    return (field.isEmpty() ? "" : field + ": ") + message + " (" + reason + ")";
  }
}
