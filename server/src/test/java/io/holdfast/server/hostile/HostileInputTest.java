package io.holdfast.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input corpus ({@link HostileCorpus}) through {@code holdfast validate} in a child JVM with 256 MiB of
 * heap, and through a running file-mode server: each input gets its named reason, with no stack trace, within its
 * time, and the server applies an unrelated edit within 2 s after each. (The webhook leg is
 * {@code HostileAdmissionTest}.) Time is judged on the CPU time of the command's thread, since this machine's
 * wall clock is shared; the wall clock is bounded loosely.
 */
class HostileInputTest {

  private static final Pattern PROBE = Pattern.compile("PROBE (\\S+) elapsedMs=(\\d+) cpuMs=(\\d+) peakHeapMiB=(\\d+)");
  private static final Duration EDIT_APPLIED = Duration.ofSeconds(2);

  @TempDir
  Path dir;

  @Test
  void validateGivesEachItsNamedReasonWithin5sOfCpuAnd256MiB() throws Exception {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> table = new ArrayList<>();
    for (HostileCorpus.Input input : HostileCorpus.inputs()) {
      Path file = dir.resolve(input.name() + ".yaml");
      Files.writeString(file, HostileCorpus.BASE + input.yaml());
      Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-cp", classPath, ValidateProbe.class.getName(), file.toString())
          .redirectErrorStream(true).start();
      byte[] output = process.getInputStream().readAllBytes();
      assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(input.name()).isTrue();
      String text = new String(output, StandardCharsets.UTF_8);
      Matcher probe = PROBE.matcher(text);
      assertThat(probe.find()).as(input.name() + ": " + tail(text)).isTrue();
      table.add(String.format("%-24s %s wall=%sms cpu=%sms heap=%sMiB", input.name(), probe.group(1),
          probe.group(2), probe.group(3), probe.group(4)));
      assertThat(probe.group(1)).as(input.name()).isEqualTo("exit=1");
      assertThat(text).as(input.name()).contains(input.expected()).doesNotContain("\tat ", "Exception in");
      assertThat(Long.parseLong(probe.group(3))).as(input.name() + " cpu ms").isLessThan(5_000);
      assertThat(Long.parseLong(probe.group(2))).as(input.name() + " wall ms").isLessThan(60_000);
      // A line per finding, each message cut: 2,000 RouteTables' notes are ~300 KB, a 2 MB value is not echoed.
      assertThat(output.length).as(input.name() + ": output size").isLessThan(1 << 20);
    }
    table.forEach(System.out::println);
  }

  @Test
  void aRunningServerReportsEachAndStillAppliesTheNextEdit() throws Exception {
    Path config = Files.createDirectories(dir.resolve("config"));
    Files.writeString(config.resolve("base.yaml"), HostileCorpus.BASE);
    try (HoldfastServer server = HoldfastServer.start(new ServeSettings(config, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
      await().atMost(Duration.ofSeconds(30)).until(() -> server.statusBoard().current().isPresent());
      int edit = 0;
      for (HostileCorpus.Input input : HostileCorpus.inputs()) {
        Path hostile = config.resolve("hostile.yaml");
        Files.writeString(hostile, input.yaml());
        await(input.name()).atMost(Duration.ofSeconds(10)).until(() -> reported(server, input));
        String name = "edit-" + ++edit;
        Files.writeString(config.resolve(name + ".yaml"), """
            apiVersion: gateway.holdfast.io/v1
            kind: VirtualService
            metadata: {name: %s, namespace: default}
            spec:
              domains: [%s.example]
              routes: [{match: {prefix: /}, route: {upstream: up}}]
            """.formatted(name, name));
        ResourceKey key = new ResourceKey("VirtualService", "default", name);
        await("the edit after " + input.name()).atMost(EDIT_APPLIED).until(() -> server.statusBoard()
            .statusOf(key).map(s -> s.state() != ResourceStatus.State.REJECTED).orElse(false));
        Files.delete(hostile);
      }
    }
  }

  /** Whether the server's latest build shows the input's reason, on its object or as a file error. */
  private static boolean reported(HoldfastServer server, HostileCorpus.Input input) {
    if (input.object().isEmpty()) {
      return server.statusBoard().current().map(b -> b.manifestErrors().toString().contains(input.expected()))
          .orElse(false);
    }
    String[] parts = input.object().split("/");
    return server.statusBoard().statusOf(new ResourceKey(parts[0], parts[1], parts[2]))
        .map(s -> s.problems().toString().contains(input.expected())).orElse(false);
  }

  private static String tail(String text) {
    return text.length() < 2000 ? text : text.substring(text.length() - 2000);
  }

}
