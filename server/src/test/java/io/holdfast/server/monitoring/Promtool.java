package io.holdfast.server.monitoring;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' own rule checker, {@code promtool}, run as a process: the monitoring assets are held to the real
 * PromQL parser and rule evaluator, not to one written for the tests. Debian's {@code prometheus} package ships it
 * (.ci/run installs it). A missing promtool fails the test that needs it, naming the package: a skipped check would
 * look like a passing one.
 */
final class Promtool {
  /** Debian's package that ships promtool. */
  static final String PACKAGE = "prometheus";
  /** promtool checks a few files in well under a second; far past that it hangs. */
  private static final long TIMEOUT_SECONDS = 60;

  private Promtool() {
  }

  /** The outcome of one run: exit code and the merged stdout/stderr. */
  record Run(int exitCode, String output) {
  }

  /** Runs {@code promtool args...} in {@code dir}; fails the test if promtool is not installed. */
  static Run run(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(binary().toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("promtool " + String.join(" ", args) + " did not finish within " + TIMEOUT_SECONDS + " s");
    }
    return new Run(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  private static Path binary() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, "promtool");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return fail("promtool is not on the PATH (" + path + "): install Debian's '" + PACKAGE
        + "' package (apt-get install " + PACKAGE + "), as .ci/run does");
  }
}
