package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {

  @Test
  void loadsEveryUsableResourceAndReportsTheRest() {
    String first = TestManifests.upstream("a", 9101) + "---\n" + TestManifests.upstream("b", 9102) + """
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: c}
        spec: {static: {hostz: []}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        spec: {port: 80}
        """;
    String second = "kind: [\n";
    ConfigLoader.Loaded loaded = new ConfigLoader().load(
        List.of(new ConfigLoader.Source("one.yaml", first), new ConfigLoader.Source("two.yaml", second)),
        Map.of(new ServiceRef("default", "svc", 80), List.of(new Endpoint("127.0.0.1", 8080))));
    GatewayConfig config = loaded.config();
    assertThat(config.upstreams()).extracting(Upstream::key)
        .containsExactly(ResourceKey.upstream("default", "a"), ResourceKey.upstream("default", "b"));
    assertThat(config.unparsed()).singleElement().satisfies(u -> {
      assertThat(u.key()).isEqualTo(ResourceKey.upstream("default", "c"));
      assertThat(u.problems()).extracting(Problem::field).containsExactly("spec.static.hostz", "spec.static.hosts");
    });
    assertThat(config.endpointsOf(new ServiceRef("default", "svc", 80))).hasSize(1);
    assertThat(loaded.errors()).extracting(ManifestError::source, ManifestError::line).containsExactly(
        org.assertj.core.groups.Tuple.tuple("one.yaml", 20),
        org.assertj.core.groups.Tuple.tuple("two.yaml", 2));
    assertThat(loaded.errors().get(0).reason())
        .isEqualTo("document 3 is not a usable resource: metadata: required field is missing (MissingField)");
  }

  @Test
  void configIsIndependentOfInputOrder() {
    GatewayConfig forward = TestManifests.config(TestManifests.upstream("a", 1), TestManifests.upstream("b", 2));
    GatewayConfig backward = TestManifests.config(TestManifests.upstream("b", 2), TestManifests.upstream("a", 1));
    assertThat(forward).isEqualTo(backward);
  }
}
