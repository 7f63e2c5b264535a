package io.holdfast.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The outcome of {@link ModelParser#parse}: a model resource, or the problems that prevented one. */
public sealed interface ParseResult {

  record Parsed(GatewayResource resource) implements ParseResult {
    public Parsed {
      Objects.requireNonNull(resource, "resource");
    }
  }

  /**
   * @param key        the resource's identity if the document names one (kind and metadata.name readable)
   * @param generation metadata.generation if readable, else 0
   */
  record Invalid(Optional<ResourceKey> key, long generation, List<Problem> problems) implements ParseResult {
    public Invalid {
      Objects.requireNonNull(key, "key");
      problems = List.copyOf(problems);
    }

    /** This failure as an {@link UnparsedResource}, if the document said which resource it is. */
    public Optional<UnparsedResource> toUnparsed() {
      return key.map(k -> new UnparsedResource(k, generation, problems));
    }
  }
}
