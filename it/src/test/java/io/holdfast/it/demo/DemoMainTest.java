package io.holdfast.it.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemoMainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) throws IOException {
    return DemoMain.run(List.of(args), new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void helpSaysHowToRunItAndExitsZero() throws IOException {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("Usage: it/demo.sh", "verdict");
  }

  @Test
  void argumentsAreAUsageErrorNamingThem() throws IOException {
    assertThat(run("--fast")).isEqualTo(DemoMain.EXIT_USAGE);
    assertThat(err.toString()).contains("takes no arguments", "--fast");
  }

  @Test
  void theTestClassPathHasWhatTheDemoNeeds() {
    assertThat(DemoWorld.missing()).isEmpty();
  }
}
