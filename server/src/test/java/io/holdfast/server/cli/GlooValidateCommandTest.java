package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code holdfast validate} reads Gloo Edge's own kinds (issue 27), through the real command line. */
class GlooValidateCommandTest {

  @TempDir
  Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return new HoldfastCli(settings -> {
      throw new AssertionError("validate must not serve");
    }).execute(() -> new ByteArrayInputStream(new byte[0]), new PrintWriter(out), new PrintWriter(err), args);
  }

  @Test
  void theGlooPetstoreExampleIsAcceptedAsGloosYaml() {
    int code = run("validate", Path.of("..", "examples", "gloo").toString());

    assertThat(code).as("%s%s", out, err).isEqualTo(0);
    // The Gateway binds "::", which Holdfast serves IPv6-only (Gloo adds IPv4): a warning, never silence.
    assertThat(out.toString()).contains("3 resources: 2 accepted, 1 with warnings, 0 rejected; 0 file errors")
        .contains("Ipv6OnlyListener");
  }

  @Test
  void aGlooFeatureHoldfastCannotHonourIsARejectionNamingTheField() throws IOException {
    Files.copy(Path.of("..", "examples", "gloo", "petstore.yaml"), tmp.resolve("petstore.yaml"));
    Files.writeString(tmp.resolve("waf.yaml"), """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: waf, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [waf.example.test]
            options:
              waf: {customInterventionMessage: denied}
            routes:
            - routeAction: {single: {upstream: {name: petstore}}}
        """);

    int code = run("validate", tmp.toString());

    assertThat(code).isEqualTo(1);
    assertThat(out.toString())
        .contains("VirtualService.gateway.solo.io/gloo-system/waf")
        .contains("UnsupportedGlooFeature: spec.virtualHost.options.waf")
        .contains("4 resources: 2 accepted, 1 with warnings, 1 rejected; 0 file errors");
    assertThat(err.toString()).doesNotContain("Exception");
  }
}
