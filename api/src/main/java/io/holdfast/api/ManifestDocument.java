package io.holdfast.api;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * One non-empty YAML document of a manifest.
 *
 * @param index 0-based position among the source's non-empty documents
 * @param line  1-based line where the document starts in the source
 * @param tree  always a JSON object
 * @param positions where its fields are in the source, looked up only for problems
 */
public record ManifestDocument(String source, int index, int line, JsonNode tree, FieldPositions positions) {

  public ManifestDocument {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(tree, "tree");
    Objects.requireNonNull(positions, "positions");
  }

  /** A document without its source text: every field is reported at {@code line}. */
  public ManifestDocument(String source, int index, int line, JsonNode tree) {
    this(source, index, line, tree, FieldPositions.unknown(line));
  }

  /** {@code source:line}, for messages. */
  public String location() {
    return source + ":" + line;
  }
}
