package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** {@code holdfast translate} through the CLI: outputs, scoping by proxy, exit status, standard output clean. */
class TranslateCommandTest {
  private static final String EXAMPLES = Path.of("..", "examples", "config").toString();

  @TempDir
  Path tmp;

  private record Run(int code, String out, String err) {
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = new HoldfastCli(settings -> 0, java.util.Map.of()).execute(new PrintWriter(out),
        new PrintWriter(err), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void yamlByDefaultIsOneDocumentWithEverySectionAndTheProxiesNamed() {
    Run r = run("translate", EXAMPLES);

    assertThat(r.code()).as(r.err()).isZero();
    JsonNode doc = YAMLMapper.builder().build().readTree(r.out());
    assertThat(doc.propertyNames()).containsExactly("version", "proxies", "listeners", "routes", "clusters",
        "endpoints", "secrets");
    assertThat(doc.path("proxies").get(0).asString()).isEqualTo("gateway-proxy");
    assertThat(r.out()).doesNotContain("PRIVATE KEY", " INFO ");
  }

  @Test
  void anUnknownProxyIsAUsageErrorNamingTheKnownOnes() {
    Run r = run("translate", EXAMPLES, "--proxy", "nobody");

    assertThat(r.code()).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(r.err()).contains("no Gateway of this config is served by proxy 'nobody'", "gateway-proxy");
  }

  @Test
  void rejectedResourcesAreLeftOutListedOnStderrAndExitOne() throws IOException {
    Files.writeString(tmp.resolve("bad.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: typo, namespace: demo}
        spec: {static: {hosts: [{address: 192.0.2.1, prot: 9102}]}}
        """);

    Run r = run("translate", tmp.toString(), "-o", "json");

    assertThat(r.code()).isEqualTo(HoldfastCli.EXIT_FAILURE);
    assertThat(r.err()).contains("rejected, left out: Upstream/demo/typo");
    assertThat(r.out()).startsWith("{");
    assertThat(run("translate", tmp.resolve("absent").toString()).code()).isEqualTo(HoldfastCli.EXIT_USAGE);
  }
}
