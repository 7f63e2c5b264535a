package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A test run writes its figures under target/ and leaves the tracked document alone unless asked. */
class ReliabilityTest {
  private static final String OLD_DOC = """
      # Reliability

      ## 1. All replicas cut off

      old figures of 1

      ## 7b. Legacy max recovery

      old figures of 7b

      """;

  @TempDir
  Path repo;
  private String savedRoot;
  private String savedWork;

  @BeforeEach
  void pointTheSuiteAtAScratchRepository() throws Exception {
    Files.createDirectories(repo.resolve("docs"));
    Files.writeString(repo.resolve("docs/RELIABILITY.md"), OLD_DOC);
    savedRoot = System.getProperty("holdfast.root");
    savedWork = System.getProperty("holdfast.it.work");
    System.setProperty("holdfast.root", repo.toString());
    System.setProperty("holdfast.it.work", repo.resolve("it/target/outage").toString());
  }

  @AfterEach
  void restore() {
    restore("holdfast.root", savedRoot);
    restore("holdfast.it.work", savedWork);
    System.clearProperty(Reliability.UPDATE_PROPERTY);
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  @Test
  void aRunWritesItsReportUnderTargetAndLeavesTheTrackedDocumentAlone() throws Exception {
    new Reliability.Section("7b", "Legacy max recovery", ReliabilityTest.class).figure("exit", "12 ms").passed()
        .write();

    assertThat(Files.readString(repo.resolve("docs/RELIABILITY.md"))).isEqualTo(OLD_DOC);
    String report = Files.readString(repo.resolve("it/target/reliability/RELIABILITY.md"));
    assertThat(report).contains("## 7b. Legacy max recovery", "| exit | 12 ms |", "-Dreliability.update=true")
        .doesNotContain("old figures");
  }

  @Test
  void onRequestTheDocumentIsRefreshedKeepingTheScenariosThatDidNotRun() throws Exception {
    System.setProperty(Reliability.UPDATE_PROPERTY, "true");
    new Reliability.Section("10", "SIGTERM with writes in flight", ReliabilityTest.class).passed().write();
    new Reliability.Section("7b", "Legacy max recovery", ReliabilityTest.class).figure("exit", "12 ms").passed()
        .write();

    String doc = Files.readString(repo.resolve("docs/RELIABILITY.md"));
    assertThat(doc).contains("old figures of 1", "| exit | 12 ms |").doesNotContain("old figures of 7b");
    assertThat(doc.indexOf("## 1. ")).isLessThan(doc.indexOf("## 7b. "));
    assertThat(doc.indexOf("## 7b. ")).isLessThan(doc.indexOf("## 10. "));
  }

  @Test
  void sectionsAreOrderedByScenarioNumberThenSuffix() throws Exception {
    Path sections = Files.createDirectories(repo.resolve("sections"));
    for (String id : new String[] {"10", "2", "7b", "7a", "9"}) {
      Files.writeString(sections.resolve(id + ".md"), "## " + id + ". x\n\n");
    }
    Path out = repo.resolve("out.md");
    Reliability.assemble(sections, out, Optional.empty());

    assertThat(Reliability.sectionsOf(Files.readString(out)).keySet()).containsExactly("2", "7a", "7b", "9", "10");
  }
}
