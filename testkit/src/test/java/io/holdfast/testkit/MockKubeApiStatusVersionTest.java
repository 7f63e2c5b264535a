package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulated API answers a {@code /status} PUT carrying a stale resourceVersion with 409, as a real API server
 * does (fabric8's mock alone accepts it), in-process ({@link MockKubeApi}) and as a process ({@link MockKubeApiMain}).
 */
class MockKubeApiStatusVersionTest {
  private static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder()
      .withGroup("test.holdfast.io").withVersion("v1").withKind("Widget").withPlural("widgets").withNamespaced(true)
      .build();
  private static final String STATUS_PATH = "/apis/test.holdfast.io/v1/namespaces/ns/widgets/w/status";

  @TempDir
  Path tmp;

  static CustomResourceDefinition crd() {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName("widgets.test.holdfast.io").endMetadata()
        .withNewSpec().withGroup("test.holdfast.io").withScope("Namespaced")
        .withNewNames().withKind("Widget").withPlural("widgets").withSingular("widget").endNames()
        .addNewVersion().withName("v1").withServed(true).withStorage(true)
        .withNewSubresources().withNewStatus().endStatus().endSubresources()
        .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema().endSchema()
        .endVersion().endSpec().build();
  }

  private static GenericKubernetesResource widget() {
    GenericKubernetesResource w = new GenericKubernetesResourceBuilder().withApiVersion("test.holdfast.io/v1")
        .withKind("Widget").withNewMetadata().withNamespace("ns").withName("w").endMetadata().build();
    w.setAdditionalProperty("spec", Map.of("size", 1));
    return w;
  }

  private static GenericKubernetesResource withStatus(GenericKubernetesResource r, String phase) {
    GenericKubernetesResource copy = Serialization.clone(r);
    copy.setAdditionalProperty("status", Map.of("phase", phase));
    return copy;
  }

  @Test
  void aStatusWriteWithAStaleResourceVersionIsAConflictAndChangesNothing() {
    try (MockKubeApi api = MockKubeApi.start()) {
      api.admin().apiextensions().v1().customResourceDefinitions().resource(crd()).create();
      var widgets = api.admin().genericKubernetesResources(WIDGETS).inNamespace("ns");
      GenericKubernetesResource created = widgets.resource(widget()).create();

      GenericKubernetesResource first = widgets.resource(withStatus(created, "one")).updateStatus();
      assertThat(first.getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());

      // Based on the object as created: its resourceVersion is out of date now.
      assertThatThrownBy(() -> widgets.resource(withStatus(created, "stale")).updateStatus())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
      assertThat(widgets.withName("w").get().getAdditionalProperties().get("status")).isEqualTo(Map.of("phase", "one"));

      GenericKubernetesResource second = widgets.resource(withStatus(first, "two")).updateStatus();
      assertThat(second.getAdditionalProperties().get("status")).isEqualTo(Map.of("phase", "two"));

      // Without a resourceVersion the write is unconditional, as with kubectl.
      GenericKubernetesResource blind = withStatus(created, "blind");
      blind.getMetadata().setResourceVersion(null);
      widgets.resource(blind).updateStatus();
      assertThat(widgets.withName("w").get().getAdditionalProperties().get("status")).isEqualTo(Map.of("phase", "blind"));

      List<ApiWrite> statusWrites = api.writes().stream().filter(ApiWrite::isStatus).toList();
      assertThat(statusWrites).extracting(ApiWrite::code).containsExactly(200, 409, 200, 200);
      assertThat(statusWrites.get(1).resourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());
    }
  }

  @Test
  void aSpecUpdateWithAStaleResourceVersionIsStillAConflict() {
    try (MockKubeApi api = MockKubeApi.start()) {
      api.admin().apiextensions().v1().customResourceDefinitions().resource(crd()).create();
      var widgets = api.admin().genericKubernetesResources(WIDGETS).inNamespace("ns");
      GenericKubernetesResource created = widgets.resource(widget()).create();
      widgets.resource(withStatus(created, "one")).updateStatus();
      GenericKubernetesResource edited = Serialization.clone(created);
      edited.setAdditionalProperty("spec", Map.of("size", 2));
      assertThatThrownBy(() -> widgets.resource(edited).update())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }
  }

  @Test
  void theApiProcessAnswersAStaleStatusWriteWith409Too() throws Exception {
    Path crdFile = Files.writeString(tmp.resolve("crd.yaml"), Serialization.asYaml(crd()));
    // Through its command path only (no HTTP client), so the process's own dispatcher is what answers.
    try (MockKubeApiMain api = MockKubeApiMain.start(0, tmp.resolve("record.jsonl"), List.of(crdFile))) {
      GenericKubernetesResource w = widget();
      assertThat(api.submit("POST", "/apis/test.holdfast.io/v1/namespaces/ns/widgets", Serialization.asJson(w)))
          .isEqualTo(201);
      GenericKubernetesResource blind = withStatus(w, "one");
      assertThat(api.submit("PUT", STATUS_PATH, Serialization.asJson(blind))).as("no resourceVersion").isEqualTo(200);
      GenericKubernetesResource stale = withStatus(w, "stale");
      stale.getMetadata().setResourceVersion("1");
      assertThat(api.submit("PUT", STATUS_PATH, Serialization.asJson(stale))).isEqualTo(409);
      assertThat(Files.readString(tmp.resolve("record.jsonl"))).contains("\"code\":409");
    }
  }
}
