package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.server.HoldfastServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code holdfast xds-dump} against a replica serving examples/config over mutual TLS with proxy-identity
 * authorisation (the files {@code holdfast certs} writes): asked with a proxy's certificate it gets exactly what
 * {@code holdfast translate --proxy} says that proxy is served; without a client certificate it is refused and
 * says so.
 */
class XdsDumpCommandTest {
  private static final String EXAMPLES = Path.of("..", "examples", "config").toString();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir
  Path tmp;
  private final AtomicReference<HoldfastServer> server = new AtomicReference<>();

  @BeforeEach
  void serveOverMutualTls() {
    assertThat(new CertsFixture().run(tmp, "--loopback", "--proxy", "gateway-proxy")).isZero();
    int code = new HoldfastCli(settings -> {
      server.set(HoldfastServer.start(settings, Clock.systemUTC()));
      return 0;
    }).execute(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "serve",
        "--config-dir", EXAMPLES, "--xds-address", "127.0.0.1", "--xds-port", "0", "--admin-port", "0",
        "--xds-tls-cert", tmp.resolve("server.crt").toString(), "--xds-tls-key", tmp.resolve("server.key").toString(),
        "--xds-tls-client-ca", tmp.resolve("ca.crt").toString());
    assertThat(code).isZero();
    await().atMost(Duration.ofSeconds(30)).until(() -> server.get().cache().currentSnapshot().isPresent());
  }

  @AfterEach
  void stop() {
    if (server.get() != null) {
      server.get().close();
    }
  }

  private record Run(int code, String out, String err) {
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = new HoldfastCli(settings -> 0).execute(new PrintWriter(out), new PrintWriter(err), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void withAProxysCertificateItGetsExactlyWhatTranslateSaysThatProxyIsServed() {
    Run served = run("xds-dump", "--xds", "127.0.0.1:" + server.get().xdsPort(), "--node", "gateway-proxy",
        "--ca", tmp.resolve("ca.crt").toString(), "--cert", tmp.resolve("proxy-gateway-proxy.crt").toString(),
        "--key", tmp.resolve("proxy-gateway-proxy.key").toString(), "-o", "json", "--timeout", "20s");
    Run translated = run("translate", EXAMPLES, "--proxy", "gateway-proxy", "-o", "json");

    assertThat(served.code()).as(served.err()).isZero();
    assertThat(translated.code()).as(translated.err()).isZero();
    JsonNode a = JSON.readTree(served.out());
    JsonNode b = JSON.readTree(translated.out());
    for (String section : io.holdfast.server.dump.ConfigDump.SECTIONS.values()) {
      assertThat(a.path(section)).as(section).isEqualTo(b.path(section));
    }
    assertThat(a.path("listeners").size()).isPositive();
    assertThat(a.path("node").asString()).isEqualTo("gateway-proxy");
    // Under proxy-identity every type is answered from the proxy's own view, versioned by its content.
    java.util.Set<String> versions = new java.util.HashSet<>();
    a.path("versions").forEach(v -> versions.add(v.asString()));
    assertThat(versions).hasSize(1).doesNotContain(b.path("version").asString(), "");
    assertThat(served.out()).doesNotContain("PRIVATE KEY");
  }

  @Test
  void withoutAClientCertificateTheStreamIsRefusedAndTheCommandSaysSo() {
    Run served = run("xds-dump", "--xds", "127.0.0.1:" + server.get().xdsPort(), "--node", "anyone",
        "--ca", tmp.resolve("ca.crt").toString(), "--timeout", "10s");

    assertThat(served.code()).isEqualTo(HoldfastCli.EXIT_FAILURE);
    assertThat(served.err()).contains("the xDS stream failed: UNAVAILABLE");
  }

  @Test
  void flagsAreChecked() {
    assertThat(run("xds-dump", "--node", "n").code()).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(run("xds-dump", "--xds", "127.0.0.1", "--node", "n").code()).isEqualTo(HoldfastCli.EXIT_USAGE);
    Run keyWithoutCa = run("xds-dump", "--xds", "127.0.0.1:1", "--node", "n", "--cert", "a", "--key", "b");
    assertThat(keyWithoutCa.code()).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(keyWithoutCa.err()).contains("--cert and --key need --ca");
  }
}
