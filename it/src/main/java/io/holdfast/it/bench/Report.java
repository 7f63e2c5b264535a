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
  static final String ELECTION = "Leader election: Holdfast vs fabric8";
  static final String XDS = "xDS fan-out and NACK handling: Holdfast vs java-control-plane";
  static final String TRANSLATION = "Translation (JMH)";
  static final String STARTUP = "Start-up with a last-known snapshot";

  private Report() {
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path root, Path results, Path target, String command) {
    // A section not measured on this machine (no results file) keeps its figures from the committed document,
    // so running one section never drops the others.
    String kept = read(target);
    StringBuilder doc = new StringBuilder();
    doc.append("# Holdfast benchmarks\n\n");
    doc.append("Side-by-side measurements of Holdfast against the libraries it replaces, run on demand and never by\n");
    doc.append("`mvn test` or `mvn verify`:\n\n");
    doc.append("```\nit/bench.sh [election|xds|startup|all|report] [--quick] [--reps N] [--streams N,N] [--changes N]   # this document\n");
    doc.append("it/bench-translation.sh                     # JMH translation benchmark only (`all` runs it first)\n```\n\n");
    doc.append("`--quick` (under 3 minutes, a sanity check) runs one repetition of the fast election profile with a\n");
    doc.append("10 s steady-state window, xDS fan-out at 1,000 streams (SotW and delta, 10 measured changes each, 2 s NACK\n");
    doc.append("windows) and one start per JVM variant, skips the JMH translation benchmark, and writes\n");
    doc.append("`it/target/BENCHMARKS-quick.md`, never this document. The full run adds the default election profile,\n");
    doc.append("10,000 streams, 2 repetitions of 50 changes per configuration and 7 starts per variant.\n");
    doc.append("`--streams`/`--reps`/`--changes` override the xDS stream counts, repetitions and\n");
    doc.append("measured changes (e.g. a 2,000-stream sanity loop). Server JVM flags: BENCH_JAVA_OPTS (e.g. a JFR recording). Every\n");
    doc.append("loop is bounded in count and time; all traffic is on loopback. Each section states its own run (date, exact\n");
    doc.append("command, mode, duration, load average).\n\n");
    doc.append("**Machine:** ").append(Machine.describe()).append(".\n\n");
    doc.append("**Load:** every section states the machine's load average before and after its run. On this 2-core\n");
    doc.append("machine a load average above about 2 means other work shared the CPUs: wall-clock figures are then inflated\n");
    doc.append("(CPU-time figures less so). The ratios, measured side by side in the same run, are the robust part.\n\n");
    doc.append("Document assembled ").append(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC)
        .format(Instant.now())).append(" UTC by `").append(command).append("`.\n\n");
    Section.load(results, "election").or(() -> Section.kept(kept, ELECTION)).ifPresent(s -> doc.append(s).append('\n'));
    Section.load(results, "xds").map(s -> s + notes("xds-profile")).or(() -> Section.kept(kept, XDS))
        .ifPresent(s -> doc.append(s).append('\n'));
    if (Files.exists(root.resolve("it/target/bench-translation.txt"))) {
      translation(root, doc);
    } else {
      Section.kept(kept, TRANSLATION).ifPresentOrElse(doc::append, () -> doc.append("## " + TRANSLATION
          + "\n\nNot run yet: `it/bench-translation.sh` writes `it/target/bench-translation.txt`.\n"));
    }
    Section.load(results, "startup").map(s -> '\n' + s + notes("startup-profile")).or(() -> Section.kept(kept, STARTUP)
        .map(s -> '\n' + s)).ifPresent(doc::append);
    try {
      Files.createDirectories(target.getParent());
      Files.writeString(target, doc.toString());
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
    doc.append("## ").append(TRANSLATION).append("\n\n");
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
