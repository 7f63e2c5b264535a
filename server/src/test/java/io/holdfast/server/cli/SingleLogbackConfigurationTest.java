package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 26: logback printed its own status lines at start, about a duplicate logback.xml on the class path. */
class SingleLogbackConfigurationTest {
  @TempDir
  Path tmp;

  @Test
  void theRuntimeClassPathHoldsOneLogbackXmlTheServers() throws Exception {
    List<URL> found = Collections.list(getClass().getClassLoader().getResources("logback.xml"));
    assertThat(found).singleElement().satisfies(url -> assertThat(url.toString())
        .matches(".*server/target/(classes/|holdfast[^/]*\\.jar!/)logback\\.xml"));
  }

  /** The command line on the server's runtime class path (no test classes or test jars) prints no status line. */
  @Test
  void theCommandLinePrintsNoLogbackStatusLines() throws Exception {
    String runtime = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.contains("test-classes") && !entry.endsWith("-tests.jar"))
        .collect(Collectors.joining(File.pathSeparator));
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m", "-cp", runtime, HoldfastCli.class.getName(), "validate", empty.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(output).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(output).doesNotContain("|-INFO", "|-WARN", "logback")
        .contains("holdfast: warning: '" + empty + "' has no *.yaml or *.yml files");
  }
}
