package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** The demo ({@code it/demo.sh}): runs the story to a PASS verdict in under 90 s; the product jar does not carry it. */
@ExtendWith(ProcessCleanup.class)
class DemoIT {
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void theDemoTellsTheStoryAndPasses() {
    Path dir = Launcher.freshDir("demo");
    Path log = dir.resolve("demo.out");
    long start = System.currentTimeMillis();
    ManagedProcess demo = ManagedProcess.start("holdfast-demo",
        Launcher.javaMain("io.holdfast.it.demo.DemoMain", List.of()), log);
    Optional<Integer> status = demo.awaitExit(Duration.ofSeconds(120));
    long tookMs = System.currentTimeMillis() - start;
    String out = demo.logText();

    assertThat(status).as("demo ended; output:%n%s", out).contains(0);
    assertThat(tookMs).isLessThan(90_000 + 10_000); // the demo's own bound plus JVM start and teardown
    assertThat(out).contains("== act 1: the leader", "== act 2: every replica loses the Kubernetes API",
        "== act 3: the API comes back", "(cut off from the API, still serving xDS)",
        "now answered by v2: the change made during the outage is served", "Accepted=True, written by r");
    String verdict = out.lines().filter(l -> l.startsWith("verdict: ")).findFirst().orElseThrow();
    assertThat(verdict).startsWith("verdict: PASS").contains(" 0 failed;", "replica processes exited: 0",
        "leaders now: 1");
    assertThat(out).doesNotContain("logs kept in");
    new Reliability.Section("9", "the demo (it/demo.sh)", getClass())
        .figure("wall time", Reliability.seconds(tookMs)).figure("verdict line", "`" + verdict + "`").passed()
        .write();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void theShippedJarCarriesNoDemo() throws IOException {
    Path jar = Path.of(System.getProperty("holdfast.jar",
        Launcher.repoRoot().resolve("server/target/holdfast.jar").toString()));
    assertThat(jar).as("built by mvn verify before the ITs").isRegularFile();
    try (JarFile contents = new JarFile(jar.toFile())) {
      assertThat(contents.stream().map(JarEntry::getName).filter(n -> n.contains("/demo/")))
          .as("demo classes in the product jar").isEmpty();
    }
    Path dir = Launcher.freshDir("demo-jar");
    ManagedProcess help = ManagedProcess.start("holdfast-help",
        List.of(Launcher.java(), "-jar", jar.toString(), "--help"), dir.resolve("help.out"));
    assertThat(help.awaitExit(Duration.ofSeconds(30))).contains(0);
    assertThat(help.logText()).contains("serve").doesNotContain("demo");
  }
}
