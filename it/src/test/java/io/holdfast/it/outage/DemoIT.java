package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code holdfast demo}: runs the story to a PASS verdict in under 90 s, and says what it lacks when it cannot. */
@ExtendWith(ProcessCleanup.class)
class DemoIT {
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void theDemoTellsTheStoryAndPasses() {
    Path dir = Launcher.freshDir("demo");
    Path log = dir.resolve("demo.out");
    long start = System.currentTimeMillis();
    ManagedProcess demo = ManagedProcess.start("holdfast-demo",
        Launcher.javaMain(
        // The test class path has two logback.xml files; keep logback's notice about it out of the story.
        List.of("-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener"),
        "io.holdfast.server.cli.HoldfastCli", List.of("demo")), log);
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
    new Reliability.Section("9", "holdfast demo", getClass())
        .figure("wall time", Reliability.seconds(tookMs)).figure("verdict line", "`" + verdict + "`").passed()
        .write();
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void theShippedJarListsTheDemoAndNamesWhatItNeeds() {
    Path jar = Path.of(System.getProperty("holdfast.jar",
        Launcher.repoRoot().resolve("server/target/holdfast.jar").toString()));
    assertThat(jar).as("built by mvn verify before the ITs").isRegularFile();
    Path dir = Launcher.freshDir("demo-jar");
    ManagedProcess help = ManagedProcess.start("holdfast-help",
        List.of(Launcher.java(), "-jar", jar.toString(), "--help"), dir.resolve("help.out"));
    assertThat(help.awaitExit(Duration.ofSeconds(30))).contains(0);
    assertThat(help.logText()).contains("demo", "serve");

    ManagedProcess demo = ManagedProcess.start("holdfast-demo-jar",
        List.of(Launcher.java(), "-jar", jar.toString(), "demo"), dir.resolve("demo.out"));
    Optional<Integer> status = demo.awaitExit(Duration.ofSeconds(120));
    if (status.equals(Optional.of(2))) {
      assertThat(demo.logText()).contains("holdfast demo: needs", "it/demo.sh");
    } else {
      // The jar carries the emulated API and grpc-xds (the lead added them): then it must simply pass.
      assertThat(status).as(demo.logText()).contains(0);
    }
  }
}
