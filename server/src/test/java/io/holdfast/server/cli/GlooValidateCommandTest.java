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

  @Test
  void aKubeSelectorIsCheckedAgainstThePodsOfTheDirectory() throws IOException {
    Files.writeString(tmp.resolve("cluster.yaml"), """
        apiVersion: v1
        kind: Service
        metadata: {name: petstore, namespace: default}
        spec: {ports: [{name: http, port: 8080}]}
        ---
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: petstore-1, namespace: default, labels: {kubernetes.io/service-name: petstore}}
        addressType: IPv4
        ports: [{name: http, port: 8080}]
        endpoints: [{addresses: [192.0.2.20], targetRef: {kind: Pod, name: petstore-v2}}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: petstore-v2, namespace: default, labels: {app: petstore, version: v2}}
        """);
    Files.writeString(tmp.resolve("upstream.yaml"), """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: default-petstore-8080, namespace: gloo-system}
        spec:
          kube: {serviceName: petstore, serviceNamespace: default, servicePort: 8080, selector: {version: v2}}
        """);

    int code = run("validate", tmp.toString());

    assertThat(code).as("%s%s", out, err).isEqualTo(0);
    assertThat(out.toString()).doesNotContain("UnsupportedKind").doesNotContain("UnsupportedGlooFeature")
        .contains("0 rejected; 0 file errors");
  }
}
