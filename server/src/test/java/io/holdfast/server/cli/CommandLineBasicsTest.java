package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 26, item 5: version, help, the bare call, and a taken port, through the real command line. */
class CommandLineBasicsTest {
  @TempDir
  Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return new HoldfastCli(settings -> {
      throw new AssertionError("must not serve");
    }).execute(new PrintWriter(out), new PrintWriter(err), args);
  }

  @Test
  void versionAndTheVersionOptionPrintTheVersionCommitAndBuildTime() throws Exception {
    assertThat(run("version")).isZero();
    String version = out.toString().strip();
    assertThat(version).matches("holdfast \\S+ \\(commit \\S+, built \\S+\\)").doesNotContain("${");
    out.getBuffer().setLength(0);
    assertThat(run("--version")).isZero();
    assertThat(out.toString().strip()).isEqualTo(version);

    // Built from this work tree: the commit is its HEAD's (the build writes "unknown" outside git).
    String head = git("rev-parse", "--short", "HEAD");
    if (head != null) {
      assertThat(version).contains("(commit " + head + ",");
    } else {
      assertThat(version).contains("(commit unknown,");
    }
  }

  @Test
  void aBareCallPrintsTheUsageAndExits2() {
    assertThat(run()).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("Usage: holdfast", "serve", "validate", "version", "help")
        .contains("holdfast help COMMAND");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void helpListsTheCommandsAndHelpCommandShowsThatCommandsOptions() {
    assertThat(run("help")).isZero();
    assertThat(out.toString()).contains("Usage: holdfast", "serve", "validate", "version");
    out.getBuffer().setLength(0);
    assertThat(run("help", "validate")).isZero();
    assertThat(out.toString()).contains("Usage: holdfast validate", "--ignore-unknown-kinds");
    assertThat(run("help", "nonsense")).isEqualTo(HoldfastCli.EXIT_USAGE);
  }

  @Test
  void serveHelpIsGroupedIntoSections() {
    java.io.PrintStream stderr = System.err;
    java.io.ByteArrayOutputStream picocliWarnings = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(picocliWarnings, true, StandardCharsets.UTF_8));
    try {
      assertThat(run("serve", "--help")).isZero();
    } finally {
      System.setErr(stderr);
    }
    assertThat(picocliWarnings.toString(StandardCharsets.UTF_8)).as("every description formats").isEmpty();
    String help = out.toString().replace(System.lineSeparator(), "\n");
    String[] sections = {"Config source", "Kubernetes", "Election", "xDS", "TLS", "Admin", "Admission webhook",
        "Limits", "Tenancy", "Logging", "Help"};
    int last = -1;
    for (String section : sections) {
      int at = help.indexOf("\n" + section + ":\n");
      assertThat(at).as(section + " in\n" + help).isGreaterThan(last);
      last = at;
    }
    assertThat(help).as("every option has a section").doesNotContain("\nOther:\n");
    // Each option is under its own heading.
    assertThat(between(help, "Admin", "Admission webhook")).contains("--admin-port=PORT", "--admin-address=ADDRESS");
    assertThat(between(help, "Election", "xDS")).contains("--lease-duration=DURATION").doesNotContain("--xds-port");
    assertThat(between(help, "TLS", "Admin")).contains("--xds-tls-client-ca=FILE");
    assertThat(between(help, "Limits", "Tenancy")).contains("After this (+-10%) an xDS connection");
  }

  private static String between(String help, String section, String next) {
    return help.substring(help.indexOf("\n" + section + ":\n"), help.indexOf("\n" + next + ":\n"));
  }

  /** Issue 26: a port in use printed a 30-line stack trace naming neither the port nor the flag. */
  @Test
  void aTakenAdminPortIsOneLineNamingTheAddressThePortAndTheFlag() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      int code = HoldfastCli.withDefaultWiring().execute(new PrintWriter(out), new PrintWriter(err), "serve",
          "--config-dir", tmp.toString(), "--xds-port", "0", "--admin-address", "127.0.0.1", "--admin-port",
          Integer.toString(port));
      assertThat(code).isEqualTo(HoldfastCli.EXIT_ADDRESS_IN_USE);
      assertThat(err.toString()).isEqualTo("holdfast: --admin-address 127.0.0.1:" + port + " is in use; stop what"
          + " listens there or choose another --admin-port" + System.lineSeparator());
    }
  }

  @Test
  void aTakenXdsPortIsOneLineNamingTheAddressThePortAndTheFlag() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      int code = HoldfastCli.withDefaultWiring().execute(new PrintWriter(out), new PrintWriter(err), "serve",
          "--config-dir", tmp.toString(), "--xds-address", "127.0.0.1", "--xds-port", Integer.toString(port),
          "--admin-port", "0");
      assertThat(code).isEqualTo(HoldfastCli.EXIT_ADDRESS_IN_USE);
      assertThat(err.toString()).isEqualTo("holdfast: --xds-address 127.0.0.1:" + port + " is in use; stop what"
          + " listens there or choose another --xds-port" + System.lineSeparator());
    }
  }

  @Test
  void aTakenWebhookPortIsOneLineNamingTheAddressThePortAndTheFlag() throws Exception {
    Path certs = tmp.resolve("certs");
    assertThat(new CertsFixture().run(certs)).isZero();
    Path config = java.nio.file.Files.createDirectories(tmp.resolve("config"));
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      int code = HoldfastCli.withDefaultWiring().execute(new PrintWriter(out), new PrintWriter(err), "serve",
          "--config-dir", config.toString(), "--xds-port", "0", "--admin-port", "0", "--webhook-address",
          "127.0.0.1", "--webhook-port", Integer.toString(port), "--webhook-tls-cert",
          certs.resolve(CertsOutput.SERVER_CERT).toString(), "--webhook-tls-key",
          certs.resolve(CertsOutput.SERVER_KEY).toString());
      assertThat(code).as(err.toString()).isEqualTo(HoldfastCli.EXIT_ADDRESS_IN_USE);
      assertThat(err.toString()).isEqualTo("holdfast: --webhook-address 127.0.0.1:" + port + " is in use; stop"
          + " what listens there or choose another --webhook-port" + System.lineSeparator());
    }
  }

  /** {@code git args} in this work tree, or null without git or outside a work tree. */
  private static String git(String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = "git";
    System.arraycopy(args, 0, command, 1, args.length);
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(false).start();
    } catch (java.io.IOException e) {
      return null;
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      return null;
    }
    return output;
  }
}
