package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Gloo Edge's own example objects ({@code src/test/resources/gloo-corpus}, each file naming its source in
 * solo-io/gloo), each file read on its own as file mode reads a directory. Counts how many objects are read as they
 * are, and checks that every rejection names its field and reason.
 *
 * <p>Two verdicts per object: <em>read</em> (Holdfast reads the Gloo YAML: every field is one it honours), and
 * <em>served</em> (also valid once lowered: its references resolve within its file). Many examples name Upstreams
 * that Gloo's discovery creates, or Secrets made by a command in the guide, which a file on its own lacks; the
 * read verdict is the one about Gloo compatibility.
 */
class GlooCorpusTest {

  private static final Path CORPUS = Path.of("src/test/resources/gloo-corpus");

  record Verdict(ResourceKey key, Path file, ObjectStatus status, boolean read) {
  }

  static List<Verdict> verdicts() throws IOException {
    List<Verdict> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(CORPUS)) {
      for (Path file : files.sorted().toList()) {
        for (String round : rounds(Files.readString(file))) {
          GatewayConfig config = GlooFixtures.load(round);
          IrBuilder builder = new IrBuilder();
          new GlooFrontEnd().lower(config, builder);
          builder.build().statuses().forEach((key, status) -> out.add(new Verdict(key, file, status,
              status.findings().stream().noneMatch(GlooCorpusTest::isReadingError))));
        }
      }
    }
    return out;
  }

  /**
   * A guide often shows one object several times (before and after a step): each version is judged, in its own
   * round, beside the first version of the file's other objects, as a user applying the guide step by step has.
   */
  static List<String> rounds(String text) {
    String[] documents = text.split("(?m)^---$");
    Map<String, List<String>> byName = new java.util.LinkedHashMap<>();
    for (String document : documents) {
      java.util.regex.Matcher kind = java.util.regex.Pattern.compile("(?m)^kind: *(\\S+)").matcher(document);
      java.util.regex.Matcher name = java.util.regex.Pattern.compile("(?m)^  name: *(\\S+)").matcher(document);
      java.util.regex.Matcher ns = java.util.regex.Pattern.compile("(?m)^  namespace: *(\\S+)").matcher(document);
      String id = (kind.find() ? kind.group(1) : "") + "/" + (ns.find() ? ns.group(1) : "") + "/"
          + (name.find() ? name.group(1) : document.hashCode());
      byName.computeIfAbsent(id, k -> new ArrayList<>()).add(document);
    }
    int rounds = byName.values().stream().mapToInt(List::size).max().orElse(0);
    List<String> out = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      StringBuilder round = new StringBuilder();
      for (List<String> versions : byName.values()) {
        round.append(versions.get(Math.min(r, versions.size() - 1))).append("\n---\n");
      }
      out.add(round.toString());
    }
    return out;
  }

  /** Errors of the reading stage: a Gloo field or value Holdfast does not honour, or malformed Gloo YAML. */
  static boolean isReadingError(Finding finding) {
    return finding.reason().equals(GlooFeatures.UNSUPPORTED) || finding.reason().equals("WrongType")
        || finding.reason().equals("UnsupportedApiVersion") || finding.reason().equals("InternalError");
  }

  @Test
  void mostOfGlooExamplesAreReadAsTheyAreAndEveryRejectionSaysWhy() throws IOException {
    List<Verdict> verdicts = verdicts();
    long read = verdicts.stream().filter(Verdict::read).count();
    long served = verdicts.stream().filter(v -> v.status().isAccepted()).count();
    Map<String, Integer> reasons = new TreeMap<>();
    for (Verdict v : verdicts) {
      for (Finding f : v.status().findings()) {
        if (f.severity() == Finding.Severity.ERROR) {
          reasons.merge(f.reason() + (f.reason().equals(GlooFeatures.UNSUPPORTED) ? " " + lastField(f.field()) : ""),
              1, Integer::sum);
        }
      }
    }
    System.out.printf("Gloo corpus: %d objects, %d read as they are (%.1f %%), %d served within their file;"
        + " rejection reasons: %s%n", verdicts.size(), read, 100.0 * read / verdicts.size(), served, reasons);
    verdicts.stream().filter(v -> !v.read()).forEach(v -> System.out.println("  not read: " + v.key() + " ("
        + v.file().getFileName() + "): " + v.status().findings().stream().filter(GlooCorpusTest::isReadingError)
        .map(Finding::toString).toList()));
    assertThat(verdicts.size()).isGreaterThanOrEqualTo(150);
    for (Verdict v : verdicts) {
      if (!v.status().isAccepted()) {
        assertThat(v.status().findings()).as("%s", v.key())
            .anySatisfy(f -> assertThat(f.reason()).isNotBlank());
      }
      v.status().findings().stream().filter(f -> f.reason().equals(GlooFeatures.UNSUPPORTED))
          .forEach(f -> assertThat(f.field()).as("%s names the field", v.key()).isNotBlank());
    }
  }

  private static String lastField(String path) {
    String[] parts = path.replaceAll("\\[\\d+]", "").split("\\.");
    return parts[parts.length - 1];
  }
}
