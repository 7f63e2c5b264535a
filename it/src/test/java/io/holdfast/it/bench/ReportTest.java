package io.holdfast.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {

  @TempDir
  Path root;

  @Test
  void keptSectionRunsToTheNextSectionWithItsSubsections() {
    String doc = "# Title\n\nintro\n\n## " + Report.ELECTION + "\n\nelection figures\n\n### Goals\n\nmet\n\n## "
        + Report.XDS + "\n\nxds figures\n";

    assertThat(Section.kept(doc, Report.ELECTION)).hasValue("## " + Report.ELECTION
        + "\n\nelection figures\n\n### Goals\n\nmet\n");
    assertThat(Section.kept(doc, Report.XDS)).hasValue("## " + Report.XDS + "\n\nxds figures\n");
    assertThat(Section.kept(doc, Report.STARTUP)).isEmpty();
  }

  @Test
  void aSectionMeasuredNowReplacesItsOldFiguresAndTheOthersAreKept() throws Exception {
    Path results = root.resolve("it/target/bench-results");
    Files.createDirectories(root.resolve("docs"));
    Files.writeString(root.resolve("docs/BENCHMARKS.md"), "# Holdfast benchmarks\n\n## " + Report.ELECTION
        + "\n\nold election figures\n\n## " + Report.XDS + "\n\nold xds figures\n\n## " + Report.TRANSLATION
        + "\n\nold translation figures\n\n## " + Report.STARTUP + "\n\nold start-up figures\n");
    new Section("xds", Report.XDS, "new xds figures\n").save(results);

    Report.write(root, results, root.resolve("docs/BENCHMARKS.md"), "it/bench.sh xds");

    String doc = Files.readString(root.resolve("docs/BENCHMARKS.md"));
    assertThat(doc).contains("old election figures", "new xds figures", "old translation figures",
        "old start-up figures").doesNotContain("old xds figures");
    assertThat(doc.indexOf("old election figures")).isLessThan(doc.indexOf("new xds figures"));
    assertThat(doc.indexOf("new xds figures")).isLessThan(doc.indexOf("old translation figures"));
    assertThat(doc.indexOf("old translation figures")).isLessThan(doc.indexOf("old start-up figures"));
  }
}
