package io.holdfast.server.source;

import java.util.Objects;
import java.nio.file.Path;

/**
 * A config file that matched but could not be used as text.
 *
 * @param path   absolute path of the file
 * @param reason short human-readable cause, e.g. {@code not valid UTF-8}
 */
public record FileProblem(Path path, String reason) {
  public FileProblem {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(reason, "reason");
  }
}
