package io.holdfast.server.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs {@code holdfast certs} through the real command line, as a user would, keeping its output. */
final class CertsFixture {
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  int run(Path outputDir, String... args) {
    List<String> all = new ArrayList<>(List.of("certs", "--output-dir", outputDir.toString()));
    all.addAll(List.of(args));
    return new HoldfastCli(settings -> {
      throw new AssertionError("certs must not serve");
    }).execute(new PrintWriter(out), new PrintWriter(err), all.toArray(String[]::new));
  }
}
