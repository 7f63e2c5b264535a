package io.holdfast.api;

import java.util.Objects;

/**
 * A problem that belongs to a place in a source rather than to a resource: malformed YAML, a document that is
 * not a mapping, or a document that does not say which resource it is.
 *
 * @param line   1-based
 * @param column 1-based
 */
public record ManifestError(String source, int line, int column, String reason) {

  public ManifestError {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(reason, "reason");
  }

  /** {@code source:line:column: reason}, the form editors and compilers use. */
  @Override
  public String toString() {
    return source + ":" + line + ":" + column + ": " + reason;
  }
}
