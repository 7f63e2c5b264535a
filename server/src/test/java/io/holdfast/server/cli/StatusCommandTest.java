package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.json.JsonMapper;

/** {@code holdfast status} through the CLI: flags, the exit status by verdict, the outputs. */
class StatusCommandTest {
  /** Captured from a file-mode server on examples/config: one replica, safe. */
  private static final Path CAPTURED = Path.of("src/test/resources/fleet/file-mode-state.json");
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private int run(String... args) {
    return new HoldfastCli(settings -> 0, Map.of()).execute(new PrintWriter(out), new PrintWriter(err), args);
  }

  private String replica(String body) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/state", exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream o = exchange.getResponseBody()) {
        o.write(bytes);
      }
    });
    server.start();
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private static String closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return "127.0.0.1:" + s.getLocalPort();
    }
  }

  @Test
  void aSafeReplicaExitsZeroAndAnUnreachableOneMakesTheFleetAtRisk() throws IOException {
    String up = replica(Files.readString(CAPTURED));

    assertThat(run("status", "--replica", up)).isZero();
    assertThat(out.toString()).startsWith("Fleet: SAFE\n").contains("holdfast", "2b6c06e617a01501");

    out.getBuffer().setLength(0);
    assertThat(run("status", "--replica", up, "--replica", closedPort(), "--timeout", "2s")).isEqualTo(1);
    assertThat(out.toString()).startsWith("Fleet: AT RISK\n").contains("does not answer");
  }

  @Test
  void noReplicaAnsweringExitsThreeAndSaysSo() throws IOException {
    assertThat(run("status", "--replica", closedPort(), "--timeout", "2s")).isEqualTo(3);
    assertThat(err.toString()).contains("no replica answered");
    assertThat(out.toString()).startsWith("Fleet: UNKNOWN (no replica answered)");
  }

  @Test
  void jsonOutputCarriesTheVerdictAndExitCode() throws IOException {
    String up = replica(Files.readString(CAPTURED));

    assertThat(run("status", "--replica", up, "-o", "json")).isZero();
    @SuppressWarnings("unchecked")
    Map<String, Object> json = JsonMapper.builder().build().readValue(out.toString(), Map.class);
    assertThat(json).containsEntry("verdict", "safe").containsEntry("exitCode", 0)
        .containsEntry("currentVersion", "2b6c06e617a01501");
  }

  @Test
  void replicasComeFromFlagsOrAServiceNeverBothNorNeither() {
    assertThat(run("status")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--replica HOST:PORT (repeated) or --service NAME");
    assertThat(run("status", "--replica", "a:1", "--service", "holdfast-admin")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(run("status", "--replica", "no-port")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(run("status", "--replica", "a:1", "--timeout", "soon")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(run("status", "--replica", "a:1", "-o", "xml")).isEqualTo(HoldfastCli.EXIT_USAGE);
  }

  @Test
  void aServiceNameIsResolvedToEveryReplicaWithTheAdminPort() throws IOException {
    String up = replica(Files.readString(CAPTURED));
    int port = Integer.parseInt(up.substring(up.lastIndexOf(':') + 1));
    StringWriter text = new StringWriter();
    CommandLine line = new CommandLine(new StatusCommand(name -> new InetAddress[] {
        InetAddress.getByName("127.0.0.1")}));
    line.setOut(new PrintWriter(text));

    int code = line.execute("--service", "holdfast-admin.holdfast-system.svc", "--admin-port",
        Integer.toString(port));

    assertThat(code).isZero();
    assertThat(text.toString()).contains("127.0.0.1:" + port);
  }
}
