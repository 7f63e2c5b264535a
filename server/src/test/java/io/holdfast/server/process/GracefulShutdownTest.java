package io.holdfast.server.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code holdfast serve} as a real process: SIGTERM stops it cleanly with exit status 0, within its bound. */
class GracefulShutdownTest {
  @TempDir
  Path dir;

  private Process serve(Path log, String... extra) throws java.io.IOException {
    Files.writeString(dir.resolve("empty.yaml"), "");
    List<String> cmd = new java.util.ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        // Start-up is most of this test's time: C1 only and the serial collector start the server in about half
        // the wall-clock time on two shared cores; how it shuts down does not depend on either.
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"),
        "io.holdfast.server.cli.HoldfastCli", "serve", "--config-dir", dir.toString(),
        "--xds-port", "0", "--admin-port", "0"));
    cmd.addAll(List.of(extra));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  @Test
  void jsonLogFormatWritesOneJsonObjectPerLine() throws Exception {
    Path log = dir.resolve("json.log");
    Process p = serve(log, "--log-format", "json");
    try {
      await().atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(Files.readString(log)).contains("holdfast serving"));
      p.destroy();
      assertThat(p.waitFor(25, TimeUnit.SECONDS)).isTrue();
      List<String> lines = Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
      tools.jackson.databind.ObjectMapper json = new tools.jackson.databind.ObjectMapper();
      List<String> after = lines.subList(lines.indexOf(lines.stream().filter(l -> l.contains("holdfast serving"))
          .findFirst().orElseThrow()), lines.size());
      for (String line : after) {
        tools.jackson.databind.JsonNode event;
        try {
          event = json.readTree(line);
        } catch (RuntimeException e) {
          throw new AssertionError("not a JSON line: " + line + "\nwhole log:\n" + String.join("\n", lines), e);
        }
        assertThat(event.has("level") && event.has("loggerName")).as(line).isTrue();
      }
      assertThat(after).anyMatch(l -> l.contains("received SIGTERM"));
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  void sigtermStopsTheServerAndExitsZero() throws Exception {
    Path log = dir.resolve("holdfast.log");
    Process p = serve(log);
    try {
      Pattern adminPort = Pattern.compile("admin=127\\.0\\.0\\.1:(\\d+)");
      int port = await().atMost(Duration.ofSeconds(30)).until(() -> {
        Matcher m = adminPort.matcher(Files.readString(log));
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
      }, v -> v > 0);
      HttpResponse<String> health = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);

      p.destroy(); // SIGTERM
      assertThat(p.waitFor(25, TimeUnit.SECONDS)).as("exited within the shutdown bound").isTrue();
      assertThat(p.exitValue()).as(Files.readString(log)).isZero();
      assertThat(Files.readString(log)).contains("received SIGTERM, shutting down").contains("stopped");
    } finally {
      p.destroyForcibly();
    }
  }
}
