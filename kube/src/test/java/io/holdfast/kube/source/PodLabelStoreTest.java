package io.holdfast.kube.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Pod informer's store keeps a Pod's key, resourceVersion and labels, and nothing else of it. */
class PodLabelStoreTest {

  private static Pod pod(String name, String resourceVersion, Map<String, String> labels) {
    return new PodBuilder().withNewMetadata().withNamespace("demo").withName(name)
        .withResourceVersion(resourceVersion).withLabels(labels).addToAnnotations("big", "x".repeat(10_000))
        .endMetadata().withNewSpec().addNewContainer().withName("app").withImage("example/app").endContainer()
        .endSpec().withNewStatus().withPodIP("192.0.2.7").withPhase("Running").endStatus().build();
  }

  @Test
  void onlyKeyResourceVersionAndLabelsAreKept() {
    PodLabelStore store = new PodLabelStore();
    Pod full = pod("echo-1", "7", Map.of("app", "echo"));
    String key = store.getKey(full);

    assertThat(store.put(key, full)).isNull();
    Pod kept = store.get(key);

    assertThat(key).isEqualTo("demo/echo-1");
    assertThat(kept.getMetadata().getNamespace()).isEqualTo("demo");
    assertThat(kept.getMetadata().getName()).isEqualTo("echo-1");
    assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("7");
    assertThat(kept.getMetadata().getLabels()).isEqualTo(Map.of("app", "echo"));
    assertThat(kept.getMetadata().getAnnotations()).isNullOrEmpty();
    assertThat(kept.getSpec()).isNull();
    assertThat(kept.getStatus()).isNull();
    assertThat(store.isFullState()).isFalse();
  }

  @Test
  void putReturnsThePreviousLabelsAndRemoveForgets() {
    PodLabelStore store = new PodLabelStore();
    store.put("demo/echo-1", pod("echo-1", "7", Map.of("track", "stable")));

    Pod previous = store.put("demo/echo-1", pod("echo-1", "8", Map.of("track", "canary")));

    assertThat(previous.getMetadata().getLabels()).containsEntry("track", "stable");
    assertThat(store.get("demo/echo-1").getMetadata().getLabels()).containsEntry("track", "canary");
    assertThat(store.size()).isEqualTo(1);
    assertThat(store.values()).hasSize(1);
    assertThat(store.keySet()).containsExactly("demo/echo-1");
    assertThat(store.remove("demo/echo-1").getMetadata().getResourceVersion()).isEqualTo("8");
    assertThat(store.get("demo/echo-1")).isNull();
  }

  @Test
  void aMalformedPodWithANullLabelDoesNotStopTheInformer() {
    Map<String, String> labels = new HashMap<>();
    labels.put("app", "echo");
    labels.put("odd", null);
    Pod malformed = new PodBuilder().withNewMetadata().withNamespace("demo").withName("odd").endMetadata().build();
    malformed.getMetadata().setLabels(labels);
    PodLabelStore store = new PodLabelStore();

    store.put("demo/odd", malformed);

    assertThat(store.get("demo/odd").getMetadata().getLabels()).isEqualTo(Map.of("app", "echo"));
  }
}
