package io.holdfast.it.outage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Collects each scenario's measured figures and writes {@code docs/RELIABILITY.md}: one section file per
 * scenario under {@code it/target/reliability/}, assembled in scenario order after every section, so a partial
 * run still leaves a consistent document of what it measured.
 */
final class Reliability {
  private Reliability() {
  }

  /** A scenario's section, filled by the test as it measures. */
  static final class Section {
    private final String id;
    private final String title;
    private final String testClass;
    private final Map<String, String> figures = new LinkedHashMap<>();
    private String verdict = "did not finish";
    private Timeline timeline;

    Section(String id, String title, Class<?> testClass) {
      this.id = id;
      this.title = title;
      this.testClass = testClass.getSimpleName();
    }

    Section figure(String name, Object value) {
      figures.put(name, String.valueOf(value));
      return this;
    }

    Section passed() {
      verdict = "passed";
      return this;
    }

    /** Rendered when the section is written, so events folded in at the cluster's close are included. */
    Section timeline(Timeline t) {
      timeline = t;
      return this;
    }

    String render() {
      StringBuilder b = new StringBuilder();
      b.append("## ").append(id).append(". ").append(title).append("\n\n");
      b.append("Verdict: **").append(verdict).append("** (").append(Instant.now().truncatedTo(ChronoUnit.SECONDS))
          .append(")  \nCommand: `mvn -B verify -pl it -am -Dit.test=").append(testClass).append("`\n\n");
      b.append("| figure | value |\n|---|---|\n");
      figures.forEach((k, v) -> b.append("| ").append(k).append(" | ").append(v).append(" |\n"));
      if (timeline != null) {
        b.append("\n<details><summary>timeline</summary>\n\n```\n").append(timeline.render())
            .append("```\n</details>\n");
      }
      return b.append('\n').toString();
    }

    /** Writes this section and re-assembles the document; never fails the test for it. */
    void write() {
      try {
        Path dir = Launcher.workDir().getParent().resolve("reliability");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(id + ".md"), render());
        assemble(dir, Launcher.repoRoot().resolve("docs/RELIABILITY.md"));
      } catch (IOException | RuntimeException e) {
        System.err.println("RELIABILITY.md not written: " + e);
      }
    }
  }

  static void assemble(Path sections, Path doc) throws IOException {
    List<Path> parts;
    try (Stream<Path> files = Files.list(sections)) {
      parts = files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
    }
    StringBuilder b = new StringBuilder("""
        # Reliability: the original outage, end to end

        Written by the outage suite (`it/`, package `io.holdfast.it.outage`, run by `mvn -B verify`): real
        processes (the emulated Kubernetes API, Holdfast replicas from `server/target/holdfast.jar`, grpc-java xDS
        clients), each replica reaching the API through its own fault proxy. Election timings in every scenario:
        lease 2 s, renew deadline 1.5 s, retry 300 ms, lock timeout 500 ms. Times are measured on the API's write
        record (when it received each write) and by polling each replica's `/state` every 100 ms.
        "Writes by non-leaders" counts status writes the API received from a replica after it had stopped leading.
        The whole suite: `mvn -B verify` (or `mvn -B verify -pl it -am`); each section names the command for its
        scenario alone. `-Doutage.seed=N` repeats a flapping run.

        """);
    for (Path p : parts) {
      b.append(Files.readString(p));
    }
    Files.createDirectories(doc.getParent());
    Files.writeString(doc, b.toString());
  }

  static String seconds(long millis) {
    return String.format("%.2f s", millis / 1000.0);
  }
}
