package io.holdfast.api;

import java.util.List;
import java.util.Objects;

/**
 * A document that names a resource (kind, namespace, name) but could not be parsed into the model. It is kept
 * in the config so that validation reports it as rejected and cascades to whatever references it.
 */
public record UnparsedResource(ResourceKey key, long generation, List<Problem> problems) {

  public UnparsedResource {
    Objects.requireNonNull(key, "key");
    problems = List.copyOf(problems);
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("an unparsed resource needs at least one problem: " + key);
    }
  }
}
