package io.holdfast.it.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Assembles docs/BENCHMARKS.md from the latest saved sections and the JMH translation results. */
final class Report {
  private Report() {
  }

  static void write(Path root, Path results, String command) {
    StringBuilder doc = new StringBuilder();
    doc.append("# Holdfast benchmarks\n\n");
    doc.append("Side-by-side measurements of Holdfast against the libraries it replaces, run on demand and never by\n");
    doc.append("`mvn test` or `mvn verify`:\n\n");
    doc.append("```\nit/bench.sh [election|xds|startup|all] [--quick] [--reps N] [--streams N,N] [--changes N]   # this document\n");
    doc.append("it/bench-translation.sh                     # JMH translation benchmark only (`all` runs it first)\n```\n\n");
    doc.append("`--quick` (under 3 minutes) runs only the fast election profile, 3 repetitions, and xDS fan-out at 1,000\n");
    doc.append("streams (SotW and delta, 20 measured changes each); the full run adds 10,000 streams, 2 repetitions of 50\n");
    doc.append("changes per configuration. `--streams`/`--reps`/`--changes` override the xDS stream counts, repetitions and\n");
    doc.append("measured changes (e.g. a 2,000-stream sanity loop). Server JVM flags: BENCH_JAVA_OPTS (e.g. a JFR recording). Every\n");
    doc.append("loop is bounded in count and time; all traffic is on loopback. Each section states its own run (date, exact\n");
    doc.append("command, mode, duration, load average).\n\n");
    doc.append("**Machine:** ").append(Machine.describe()).append(".\n\n");
    doc.append("**The machine was shared with other sessions (builds and test suites of three other worktrees) while these\n");
    doc.append("figures were taken.** Absolute times and CPU figures are therefore noisy and pessimistic; the ratios, measured\n");
    doc.append("side by side in the same run under the same conditions, are the robust part.\n\n");
    doc.append("Document assembled ").append(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC)
        .format(Instant.now())).append(" UTC by `").append(command).append("`.\n\n");
    Section.load(results, "election").ifPresent(s -> doc.append(s).append('\n'));
    Section.load(results, "xds").ifPresent(s -> doc.append(s).append('\n'));
    translation(root, doc);
    Section.load(results, "startup").ifPresent(s -> doc.append('\n').append(s).append(notes("startup-profile")));
    try {
      Files.createDirectories(root.resolve("docs"));
      Files.writeString(root.resolve("docs/BENCHMARKS.md"), doc.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The hand-written notes on a section's profile and goals ({@code bench/NAME.md} on the class path), or "". */
  private static String notes(String name) {
    try (var in = Report.class.getResourceAsStream("/bench/" + name + ".md")) {
      return in == null ? "" : "\n" + new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip() + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void translation(Path root, StringBuilder doc) {
    Path jmh = root.resolve("it/target/bench-translation.txt");
    doc.append("## Translation (JMH)\n\n");
    if (!Files.exists(jmh)) {
      doc.append("Not run yet: `it/bench-translation.sh` writes `it/target/bench-translation.txt`.\n");
      return;
    }
    try {
      doc.append("`io.holdfast.it.bench.TranslationBenchmark` via `it/bench-translation.sh` (5 warm-up and 3 measured 2 s\n");
      doc.append("iterations, one fork, -Xmx1g), results file of ").append(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
          .withZone(ZoneOffset.UTC).format(Files.getLastModifiedTime(jmh).toInstant())).append(" UTC. One full rebuild =\n");
      doc.append("validate + lower + translate with a fresh translator, including the snapshot's content hash;\n");
      doc.append("`incrementalEdit*`: re-translation after one route and one upstream changed (see the class comment);\n");
      doc.append("average time per operation:\n\n```\n");
      doc.append(Files.readString(jmh).strip()).append("\n```\n");
      Path cpu = root.resolve("it/target/bench-translation-cpu.txt");
      if (Files.exists(cpu)) {
        doc.append("\n`io.holdfast.it.bench.TranslationCpuTime` (same script), of ").append(DateTimeFormatter
            .ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC).format(Files.getLastModifiedTime(cpu).toInstant()))
            .append(" UTC. ").append(Files.readString(cpu).strip()).append('\n');
      }
      doc.append(notes("translation-profile"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
