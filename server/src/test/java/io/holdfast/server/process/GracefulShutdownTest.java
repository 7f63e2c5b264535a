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

  @Test
  void sigtermStopsTheServerAndExitsZero() throws Exception {
    Path log = dir.resolve("holdfast.log");
    Files.writeString(dir.resolve("empty.yaml"), "");
    Process p = new ProcessBuilder(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        "io.holdfast.server.cli.HoldfastCli", "serve", "--config-dir", dir.toString(),
        "--xds-port", "0", "--admin-port", "0"))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
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
