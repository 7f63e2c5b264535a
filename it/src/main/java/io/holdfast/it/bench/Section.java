package io.holdfast.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/**
 * One measured section of the report, kept under {@code it/target/bench-results/<name>.md} so a run of one
 * section leaves the others' latest figures in the assembled document.
 */
record Section(String name, String title, String body) {

  static Section measured(String name, String title, String command, String mode, Instant started,
      Duration took, double loadBefore, double loadAfter, String body) {
    String header = String.format(Locale.ROOT,
        "Run %s UTC, `%s` (%s), %s, load average %.2f before / %.2f after.%n%n",
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC).format(started), command, mode,
        took.toMinutes() > 0 ? took.toMinutes() + " min " + took.toSecondsPart() + " s" : took.toSeconds() + " s",
        loadBefore, loadAfter);
    return new Section(name, title, header + body);
  }

  void save(Path dir) {
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name + ".md"), "## " + title + "\n\n" + body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The section titled {@code title} in an assembled document ({@code doc}), up to the next section, with its
   * sub-sections; empty if it has none.
   */
  static Optional<String> kept(String doc, String title) {
    String heading = "## " + title + "\n";
    int start = doc.startsWith(heading) ? 0 : doc.indexOf("\n" + heading);
    if (start < 0) {
      return Optional.empty();
    }
    start = doc.charAt(start) == '\n' ? start + 1 : start;
    int end = doc.indexOf("\n## ", start + heading.length());
    String section = end < 0 ? doc.substring(start) : doc.substring(start, end + 1);
    return Optional.of(section.stripTrailing() + "\n");
  }

  static Optional<String> load(Path dir, String name) {
    Path p = dir.resolve(name + ".md");
    try {
      return Files.exists(p) ? Optional.of(Files.readString(p)) : Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
