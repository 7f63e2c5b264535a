package io.holdfast.api;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * One non-empty YAML document of a manifest.
 *
 * @param index 0-based position among the source's non-empty documents
 * @param line  1-based line where the document starts in the source
 * @param tree  always a JSON object
 */
public record ManifestDocument(String source, int index, int line, JsonNode tree) {

  public ManifestDocument {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(tree, "tree");
  }

  /** {@code source:line}, for messages. */
  public String location() {
    return source + ":" + line;
  }
}
