package io.holdfast.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Where the fields of one manifest document are in its source, for problems that name a field
 * ({@code spec.routes[2].match.prefx}) to be reported at the field's own line.
 *
 * <p>Nothing is computed when a document is read: the server reads every document on every build and only the
 * few with problems need positions. {@link #of} parses the document again (with node marks, which Jackson's trees
 * do not keep), once for all the fields asked, and keeps nothing: the cost is one parse per document with problems
 * per call. The document's text is not copied; this holds the source text the reader was given, which its cache
 * holds anyway. Thread-safe (immutable).
 */
public final class FieldPositions {

  /** A 1-based line and column in the source. */
  public record Position(int line, int column) {
  }

  private final String sourceText;
  private final int from;
  private final int to;
  private final int firstLine;
  private final Position start;

  /**
   * @param from  offset in {@code sourceText} of the document's first line (its {@code ---} line, if any)
   * @param to    offset just past the document's last line
   * @param firstLine the 1-based source line at {@code from}
   * @param start where the document starts, the answer for fields that cannot be found
   */
  FieldPositions(String sourceText, int from, int to, int firstLine, Position start) {
    this.sourceText = sourceText;
    this.from = from;
    this.to = to;
    this.firstLine = firstLine;
    this.start = start;
  }

  /** For a document whose text is not known (built in code): every field is at {@code line}. */
  public static FieldPositions unknown(int line) {
    return new FieldPositions("", 0, 0, line, new Position(line, 1));
  }

  /** Where the document starts. */
  public Position start() {
    return start;
  }

  /**
   * The position of each of {@code fields}: the field's key (or sequence item) where the path exists, else the
   * deepest part of the path that does (a missing field is reported at its parent), else the document's start.
   * Paths are those {@link Fields} writes: {@code a.b[2]["odd.name"]}; a path in another syntax resolves as far
   * as it is understood. Never throws: a document that cannot be parsed again puts every field at its start.
   */
  public Map<String, Position> of(Collection<String> fields) {
    Map<String, Position> out = new LinkedHashMap<>();
    Optional<Node> root = Optional.empty();
    if (to > from && fields.stream().anyMatch(f -> !f.isEmpty())) {
      try {
        // The same YAML library, with the same settings (a 3 MiB code point limit), as the reader that accepted it.
        root = new Compose(LoadSettings.builder().build())
            .composeString(ManifestReader.chunkText(sourceText.substring(from, to)));
      } catch (RuntimeException | StackOverflowError e) {
        // Not expected for a document the reader accepted (same text, same YAML library); if it happens, every
        // field is reported at the document's start, as before field positions.
        root = Optional.empty();
      }
    }
    for (String field : fields) {
      out.put(field, root.isEmpty() || field.isEmpty() ? start : find(root.get(), steps(field)));
    }
    return out;
  }

  /** The position of one field; see {@link #of}. */
  public Position of(String field) {
    return of(List.of(field)).get(field);
  }

  private Position find(Node node, List<Object> steps) {
    Position found = at(node).orElse(start);
    Node current = node;
    // Bounded by the path's length, itself bounded by the document's nesting.
    for (Object step : steps) {
      Node next = null;
      Node mark = null;
      if (step instanceof String key && current instanceof MappingNode mapping) {
        for (NodeTuple tuple : mapping.getValue()) {
          if (tuple.getKeyNode() instanceof ScalarNode scalar && scalar.getValue().equals(key)) {
            next = tuple.getValueNode();
            mark = tuple.getKeyNode();
            break;
          }
        }
      } else if (step instanceof Integer i && current instanceof SequenceNode sequence
          && i < sequence.getValue().size()) {
        next = sequence.getValue().get(i);
        mark = next;
      }
      if (next == null) {
        break;
      }
      found = at(mark).orElse(found);
      current = next;
    }
    return found;
  }

  private Optional<Position> at(Node node) {
    Optional<Mark> mark = node.getStartMark();
    return mark.map(m -> new Position(firstLine + m.getLine(), m.getColumn() + 1));
  }

  /**
   * The steps of a path: names as strings, indexes as integers. Stops at the first part it does not understand,
   * so a path in another syntax resolves as far as it can.
   */
  static List<Object> steps(String path) {
    List<Object> steps = new ArrayList<>();
    int i = 0;
    int n = path.length();
    while (i < n) {
      char c = path.charAt(i);
      if (c == '.') {
        i++;
      } else if (c == '[' && i + 1 < n && path.charAt(i + 1) == '"') {
        StringBuilder name = new StringBuilder();
        int j = i + 2;
        while (j < n && path.charAt(j) != '"') {
          if (path.charAt(j) == '\\' && j + 1 < n) {
            j++;
          }
          name.append(path.charAt(j++));
        }
        if (j + 1 >= n || path.charAt(j + 1) != ']') {
          return steps;
        }
        steps.add(name.toString());
        i = j + 2;
      } else if (c == '[') {
        int close = path.indexOf(']', i);
        if (close < 0) {
          return steps;
        }
        try {
          steps.add(Integer.parseInt(path.substring(i + 1, close)));
        } catch (NumberFormatException e) {
          return steps;
        }
        i = close + 1;
      } else {
        int j = i;
        while (j < n && path.charAt(j) != '.' && path.charAt(j) != '[') {
          j++;
        }
        steps.add(path.substring(i, j));
        i = j;
      }
    }
    return steps;
  }
}
