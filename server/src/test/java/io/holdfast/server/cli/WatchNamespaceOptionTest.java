package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --watch-namespace}: repeatable, comma-separated, from the environment or the settings file; checked. */
class WatchNamespaceOptionTest {
  @TempDir
  Path tmp;

  private final List<ServeSettings> served = new ArrayList<>();
  private final StringWriter err = new StringWriter();

  private int run(Map<String, String> env, String... args) {
    return new HoldfastCli(settings -> {
      served.add(settings);
      return 0;
    }, env).execute(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
  }

  private List<String> namespaces() {
    return served.get(served.size() - 1).kubernetes().orElseThrow().watchNamespaces();
  }

  @Test
  void namespacesAreRepeatableCommaSeparatedAndDistinct() {
    run(Map.of(), "serve", "--kubernetes");
    assertThat(namespaces()).as("default: all").isEmpty();

    run(Map.of(), "serve", "--kubernetes", "--watch-namespace", "team-a");
    assertThat(namespaces()).containsExactly("team-a");

    run(Map.of(), "serve", "--kubernetes", "--watch-namespace", "team-a,team-b", "--watch-namespace=team-c",
        "--watch-namespace", "team-a");
    assertThat(namespaces()).containsExactly("team-a", "team-b", "team-c");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void namespacesComeFromTheEnvironmentOrTheSettingsFile() throws IOException {
    run(Map.of("HOLDFAST_WATCH_NAMESPACE", "team-a,team-b"), "serve", "--kubernetes");
    assertThat(namespaces()).containsExactly("team-a", "team-b");

    Path file = Files.writeString(tmp.resolve("settings.yaml"), "watch-namespace: [team-c, team-d]\n");
    run(Map.of(), "serve", "--kubernetes", "--config-file", file.toString());
    assertThat(namespaces()).containsExactly("team-c", "team-d");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void aBadNameOrTooManyNamespacesIsAUsageError() {
    assertThat(run(Map.of(), "serve", "--kubernetes", "--watch-namespace", "Team_A")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--watch-namespace must be a namespace name");
    String many = IntStream.rangeClosed(1, 33).mapToObj(i -> "ns" + i).collect(Collectors.joining(","));
    assertThat(run(Map.of(), "serve", "--kubernetes", "--watch-namespace", many)).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--watch-namespace: at most 32 namespaces");
    assertThat(served).isEmpty();
  }
}
