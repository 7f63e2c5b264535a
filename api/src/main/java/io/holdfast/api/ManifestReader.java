package io.holdfast.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Splits a multi-document YAML (or JSON) text into document trees.
 *
 * <p>Jackson's YAML parser cannot continue after a syntax error, so the text is first cut at document markers
 * ({@code ---} and {@code ...} at the start of a line; YAML forbids those lines inside any scalar, so the cut is
 * exact) and each document is parsed alone. A malformed document therefore costs only itself: it becomes one
 * {@link ManifestError} with the absolute line and column of the problem as the YAML parser (snakeyaml-engine,
 * under Jackson) marks it, and the other documents are still returned. Duplicate keys and aliases are errors. Directives ({@code %YAML}) are ignored. Thread-safe.
 */
public final class ManifestReader {

  /**
   * The largest document, in code points: as large as a whole file may be (8 MiB, the file sources' limit; a byte
   * is at most one code point). snakeyaml-engine's own default stops at 3 MiB, which refused a single large
   * document of a file the file limit allows, with a parser message that named no limit of Holdfast's.
   */
  public static final int MAX_DOCUMENT_CODE_POINTS = 8 * 1024 * 1024;

  private final YAMLMapper mapper = YAMLMapper.builder(YAMLFactory.builder()
          .loadSettings(LoadSettings.builder().setCodePointLimit(MAX_DOCUMENT_CODE_POINTS).build())
          .build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  /** The documents and errors of one source, each list in source order. */
  public record Result(List<ManifestDocument> documents, List<ManifestError> errors) {
    public Result {
      documents = List.copyOf(documents);
      errors = List.copyOf(errors);
    }
  }

  /**
   * The latest results of each source, reused while its text is unchanged: YAML parses at a few MB/s, so a large
   * file (up to 8 MiB) re-parsed on every unrelated edit would hold up every rebuild by seconds. Per source, the
   * {@link #REMEMBERED_VERSIONS} texts read last: a file with errors is read in its broken version and then served
   * in its last good one on every build, and with one version remembered each read would push out the other and
   * re-parse it. Bounded by {@link #REMEMBERED_SOURCES} names, least recently read first out, and by the caller's
   * {@link #retainOnly}: a source that is gone (a deleted file) must not keep its parse in memory until 4,096 other
   * names have been read. Trees are never modified after reading, so sharing them is safe.
   */
  private final Map<String, List<Remembered>> latest = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, List<Remembered>> eldest) {
      return size() > REMEMBERED_SOURCES;
    }
  };
  static final int REMEMBERED_SOURCES = 4096;
  /** The broken version of a file and its last good one, which a file-mode build reads both of (see above). */
  static final int REMEMBERED_VERSIONS = 2;

  private record Remembered(String text, Result result) {
  }

  public Result read(String source, String text) {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(text, "text");
    synchronized (latest) {
      for (Remembered known : latest.getOrDefault(source, List.of())) {
        if (known.text().equals(text)) {
          return known.result();
        }
      }
    }
    Result result = parse(source, text);
    synchronized (latest) {
      List<Remembered> versions = new ArrayList<>(REMEMBERED_VERSIONS);
      versions.add(new Remembered(text, result));
      for (Remembered older : latest.getOrDefault(source, List.of())) {
        if (versions.size() < REMEMBERED_VERSIONS && !older.text().equals(text)) {
          versions.add(older);
        }
      }
      latest.put(source, List.copyOf(versions));
    }
    return result;
  }

  /** Forgets the remembered results of every source not in {@code sources} (the ones that still exist). */
  public void retainOnly(Collection<String> sources) {
    Set<String> keep = Set.copyOf(sources);
    synchronized (latest) {
      latest.keySet().retainAll(keep);
    }
  }

  private Result parse(String source, String text) {
    List<ManifestDocument> documents = new ArrayList<>();
    List<ManifestError> errors = new ArrayList<>();
    for (Chunk chunk : split(text)) {
      if (chunk.isBlank()) {
        continue;
      }
      int index = documents.size() + errors.size();
      Optional<ManifestError> alias = alias(source, chunk);
      if (alias.isPresent()) {
        errors.add(alias.get());
        continue;
      }
      try {
        JsonNode tree = mapper.readTree(chunk.text());
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
          continue;
        }
        if (!tree.isObject()) {
          errors.add(new ManifestError(source, chunk.firstContentLine(), 1,
              "document " + index + " is " + Fields.describe(tree) + ", expected a mapping (a resource)"));
          continue;
        }
        int line = chunk.firstContentLine();
        documents.add(new ManifestDocument(source, index, line, tree, new FieldPositions(text, chunk.from(),
            chunk.to(), chunk.startLine(), new FieldPositions.Position(line, 1))));
      } catch (JacksonException e) {
        errors.add(error(source, chunk, e));
      }
    }
    return new Result(documents, errors);
  }

  /**
   * The first alias ({@code *name}) of a document, as an error. Jackson does not resolve aliases: it reads
   * {@code timeout: *t} as the string "t", silently. Rather than expand them (an alias bomb expands
   * exponentially), Holdfast refuses them. Only documents with a {@code *} are scanned again for them; a document
   * the scan cannot read is left to the parser, which reports why.
   */
  private static Optional<ManifestError> alias(String source, Chunk chunk) {
    if (chunk.text().indexOf('*') < 0) {
      return Optional.empty();
    }
    try {
      LoadSettings settings = LoadSettings.builder().setCodePointLimit(MAX_DOCUMENT_CODE_POINTS).build();
      Parser events = new ParserImpl(settings, new StreamReader(settings, chunk.text()));
      while (events.hasNext()) {
        Event event = events.next();
        if (event instanceof AliasEvent alias) {
          Optional<Mark> at = alias.getStartMark();
          return Optional.of(new ManifestError(source, chunk.startLine() + at.map(Mark::getLine).orElse(0),
              at.map(m -> m.getColumn() + 1).orElse(1), "YAML aliases are not supported: *" + alias.getAlias().getValue()
              + " would be read as the text \"" + alias.getAlias().getValue() + "\"; write the value out"));
        }
      }
    } catch (RuntimeException e) {
      // Unreadable YAML: the parser that follows reports where and why.
    }
    return Optional.empty();
  }

  /**
   * A document's text and the 1-based source line of its first line; {@code from} and {@code to} are where its
   * lines are in the source, for {@link FieldPositions}.
   */
  private record Chunk(String text, int startLine, int from, int to) {
    boolean isBlank() {
      return text.lines().map(String::strip).allMatch(l -> l.isEmpty() || l.startsWith("#"));
    }

    int firstContentLine() {
      List<String> lines = text.lines().toList();
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i).strip();
        if (!l.isEmpty() && !l.startsWith("#")) {
          return startLine + i;
        }
      }
      return startLine;
    }
  }

  /** Cuts {@code text} before every document marker line; the marker line starts the chunk that follows it. */
  private static List<Chunk> split(String text) {
    List<Chunk> chunks = new ArrayList<>();
    int from = 0;
    int start = 1;
    int line = 1;
    int at = 0;
    while (at < text.length()) {
      int end = text.indexOf('\n', at);
      end = end < 0 ? text.length() : end;
      String content = text.substring(at, end);
      if (at > from && (isMarker(content, "---") || isMarker(content, "..."))) {
        chunks.add(new Chunk(chunkText(text.substring(from, at)), start, from, at));
        from = at;
        start = line;
      }
      at = end + 1;
      line++;
    }
    int to = Math.min(at, text.length());
    chunks.add(new Chunk(chunkText(text.substring(from, to)), start, from, to));
    return chunks;
  }

  /**
   * What the parser is given of a document's lines: its marker line blanked (keeping what follows {@code ---} on
   * the same line, a comment or flow content, at its original column) and directives ({@code %YAML}) blanked, so
   * the parser's line numbers stay the source's.
   */
  static String chunkText(String lines) {
    StringBuilder out = new StringBuilder(lines.length() + 4);
    // split drops the empty string after a final newline, so a document ends where its text does.
    for (String line : lines.split("\n")) {
      if (isMarker(line, "---")) {
        out.append("   ").append(line.substring(3));
      } else if (!isMarker(line, "...") && !line.startsWith("%")) {
        out.append(line);
      }
      out.append('\n');
    }
    return out.toString();
  }

  static boolean isMarker(String line, String marker) {
    return line.startsWith(marker)
        && (line.length() == marker.length() || Character.isWhitespace(line.charAt(marker.length())));
  }

  /**
   * Prefers the YAML scanner's own problem mark (where the offending character is) over Jackson's token
   * location (where the last good token started, often a line earlier).
   */
  private static ManifestError error(String source, Chunk chunk, JacksonException e) {
    if (e.getCause() instanceof MarkedYamlEngineException yaml && yaml.getProblemMark().isPresent()) {
      Mark mark = yaml.getProblemMark().get();
      String reason = yaml.getContext() == null ? yaml.getProblem() : yaml.getContext() + "; " + yaml.getProblem();
      return new ManifestError(source, chunk.startLine() + mark.getLine(), mark.getColumn() + 1,
          "invalid YAML: " + reason.strip());
    }
    TokenStreamLocation at = e.getLocation();
    int line = at != null && at.getLineNr() > 0 ? chunk.startLine() + at.getLineNr() - 1 : chunk.startLine();
    int column = at != null && at.getColumnNr() > 0 ? at.getColumnNr() : 1;
    String reason = e.getOriginalMessage() == null ? "unreadable document" : e.getOriginalMessage().strip();
    return new ManifestError(source, line, column, "invalid YAML: " + reason);
  }
}
