package io.holdfast.kube.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ManifestDocument;
import io.holdfast.api.ManifestReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The CRD schemas accept the traffic options the parser accepts (the golden case {@code traffic-options}, which
 * uses every field), and refuse a misspelt one as the parser does.
 */
class TrafficCrdSchemaTest {

  private static final Path INPUT = Path.of("../xds/src/test/resources/golden/traffic-options/input.yaml");

  @Test
  void everyTrafficOptionConformsToItsSchema() throws IOException {
    List<ManifestDocument> documents = new ManifestReader().read(INPUT.toString(), Files.readString(INPUT))
        .documents();
    assertThat(documents).extracting(d -> d.tree().get("kind").stringValue())
        .contains("Gateway", "VirtualService");
    for (ManifestDocument document : documents) {
      String kind = document.tree().get("kind").stringValue();
      assertThat(SchemaCheck.violations(document.tree(), schema(kind))).as(document.location()).isEmpty();
    }
  }

  @Test
  void aMisspeltOptionIsRefused() {
    JsonNode doc = SchemaFixtures.tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: a, namespace: demo}
        spec: {port: 8080, options: {accessLog: [{stdout: {}}]}}
        """);
    assertThat(SchemaCheck.violations(doc, schema("Gateway"))).isNotEmpty();
  }

  private static io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps schema(String kind) {
    return CrdSchemaTest.load(kind).getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
  }
}
