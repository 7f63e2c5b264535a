package io.holdfast.it.outage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Collects each scenario's measured figures into a run report under {@code it/target/reliability/}: one section
 * file per scenario, assembled in scenario order after every section, so a partial run still leaves a consistent
 * report of what it measured. The tracked {@code docs/RELIABILITY.md} is refreshed only on request
 * ({@code -Dreliability.update=true}), so a test run never dirties the tree.
 */
final class Reliability {
  static final String UPDATE_PROPERTY = "reliability.update";
  private static final Pattern SECTION_HEADING = Pattern.compile("(?m)^## ([0-9]+[a-z]?)\\. ");
  private static final Pattern SCENARIO_ID = Pattern.compile("([0-9]+)([a-z]*)");
  private static final String HEADER = """
      # Reliability: the original outage, end to end

      Written by the outage suite (`it/`, package `io.holdfast.it.outage`, run by `mvn -B verify`): real
      processes (the emulated Kubernetes API, Holdfast replicas from `server/target/holdfast.jar`, grpc-java xDS
      clients), each replica reaching the API through its own fault proxy. Election timings, unless a section
      says otherwise: lease 2 s, renew deadline 1.5 s, retry 300 ms, lock timeout 500 ms, leader request timeout
      300 ms, fence slack 150 ms. Times are measured on the API's write record (when it received each write) and
      by polling each replica's `/state` every 100 ms.
      Status writes are audited against the Lease holder timeline read off the same write record: a violation
      is a status write the API received while its writer did not hold the Lease (released, or held by another).
      The whole suite: `mvn -B verify` (or `mvn -B verify -pl it -am`); each section names the command for its
      scenario alone. `-Doutage.seed=N` repeats a flapping run. Two scenarios run at once (two failsafe JVMs,
      each its own world of processes and ports); `-Dit.forks=1` runs them one after another.

      Every run writes its figures to `it/target/reliability/RELIABILITY.md` and leaves this file alone; add
      `-Dreliability.update=true` to refresh it (sections of the scenarios that ran replace theirs, the others
      are kept).

      """;

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

    /**
     * Writes this section under {@code it/target/reliability/sections/} and re-assembles the run's report,
     * {@code it/target/reliability/RELIABILITY.md}; with {@code -Dreliability.update=true} also refreshes the
     * tracked {@code docs/RELIABILITY.md}. Never fails the test for it.
     */
    void write() {
      try {
        Path dir = Files.createDirectories(Launcher.workDir().getParent().resolve("reliability"));
        Path sections = Files.createDirectories(dir.resolve("sections"));
        Path report = dir.resolve("RELIABILITY.md");
        // Scenarios run in parallel test JVMs (failsafe forks): one writer at a time, so no section is read
        // half-written and no assembled report is overwritten by one assembled from fewer sections.
        synchronized (Reliability.class) {
          try (FileChannel lockFile = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE,
              StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
            writeAtomically(sections.resolve(id + ".md"), render());
            assemble(sections, report, Optional.empty());
            if (Boolean.getBoolean(UPDATE_PROPERTY)) {
              Path doc = Launcher.repoRoot().resolve("docs/RELIABILITY.md");
              assemble(sections, doc, Optional.of(doc));
              System.out.println("reliability: " + doc + " refreshed with section " + id);
              return;
            }
          }
        }
        System.out.println("reliability: section " + id + " written to " + report
            + " (docs/RELIABILITY.md is refreshed only with -D" + UPDATE_PROPERTY + "=true)");
      } catch (IOException | RuntimeException e) {
        System.err.println("reliability report not written: " + e);
      }
    }
  }

  /**
   * Writes {@code doc}: the header, then one section per scenario in scenario order (1, 2, ..., 7a, 7b, ..., 10).
   * Sections come from {@code sections} (this run's); those of scenarios this run did not reach are kept from
   * {@code previous}, if given, so refreshing the document after one scenario keeps the others.
   */
  static void assemble(Path sections, Path doc, Optional<Path> previous) throws IOException {
    Map<String, String> byId = new TreeMap<>(Reliability::scenarioOrder);
    if (previous.isPresent() && Files.exists(previous.get())) {
      byId.putAll(sectionsOf(Files.readString(previous.get())));
    }
    try (Stream<Path> files = Files.list(sections)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".md")).toList()) {
        String name = p.getFileName().toString();
        byId.put(name.substring(0, name.length() - ".md".length()), Files.readString(p));
      }
    }
    StringBuilder b = new StringBuilder(HEADER);
    byId.values().forEach(b::append);
    Files.createDirectories(doc.toAbsolutePath().getParent());
    writeAtomically(doc, b.toString());
  }

  /** Writes {@code text} to a temporary file beside {@code target}, then moves it into place in one step. */
  static void writeAtomically(Path target, String text) throws IOException {
    Path tmp = Files.createTempFile(target.toAbsolutePath().getParent(), target.getFileName() + ".", ".tmp");
    try {
      Files.writeString(tmp, text);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The sections of an assembled document by id: each runs from its {@code ## ID. } heading to the next. */
  static Map<String, String> sectionsOf(String document) {
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = SECTION_HEADING.matcher(document);
    List<Integer> starts = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    while (m.find()) {
      starts.add(m.start());
      ids.add(m.group(1));
    }
    for (int i = 0; i < ids.size(); i++) {
      int to = i + 1 < ids.size() ? starts.get(i + 1) : document.length();
      out.put(ids.get(i), document.substring(starts.get(i), to));
    }
    return out;
  }

  /** Scenario ids in reading order: by number, then by suffix (7a, 7b, then 8, ..., 10). */
  static int scenarioOrder(String a, String b) {
    Matcher ma = SCENARIO_ID.matcher(a);
    Matcher mb = SCENARIO_ID.matcher(b);
    if (ma.matches() && mb.matches()) {
      int byNumber = Integer.compare(Integer.parseInt(ma.group(1)), Integer.parseInt(mb.group(1)));
      return byNumber != 0 ? byNumber : ma.group(2).compareTo(mb.group(2));
    }
    return a.compareTo(b);
  }

  static String seconds(long millis) {
    return String.format("%.2f s", millis / 1000.0);
  }
}
