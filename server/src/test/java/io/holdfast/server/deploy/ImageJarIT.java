package io.holdfast.server.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * After {@code mvn package} (failsafe runs in {@code verify}, after it), the jar the Dockerfile copies is there
 * and starts: {@code java -jar server/target/holdfast.jar --help}, as the image's entry point runs it.
 */
class ImageJarIT {

  @Test
  void theJarTheDockerfileCopiesExistsAndRuns() throws Exception {
    Path jar = Path.of("target", "holdfast.jar");
    assertThat(Files.readString(Path.of("..", "Dockerfile"))).contains("server/" + jar.toString().replace('\\', '/'));
    assertThat(jar).isRegularFile();
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        jar.toString(), "--help").redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains("serve");
  }
}
