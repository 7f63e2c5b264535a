package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gloo Edge objects get Holdfast's entry in Gloo's status shape ({@code status.statuses.holdfast-system}), written
 * by the leader only, through the object (Gloo's CRDs and deploy/crds-gloo's have no status subresource); Gloo's
 * own entry (a Gloo still running during the move) is kept, and the shipped CRD's printer columns show the verdict.
 */
@ExtendWith(QuickAwait.class)
class GlooStatusWriteTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ResourceKey GOOD = new ResourceKey("gateway.solo.io", "VirtualService", "gloo-system", "good");
  private static final ResourceKey BAD = new ResourceKey("gateway.solo.io", "VirtualService", "gloo-system", "bad");
  private static final ResourceDefinitionContext VS = GatewayCrds.context(GOOD).orElseThrow();

  private static GenericKubernetesResource create(KubernetesClient admin, String name) {
    GenericKubernetesResource resource = admin.getKubernetesSerialization().unmarshal("""
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: gloo-system}
        spec: {virtualHost: {routes: []}}
        """.formatted(name), GenericKubernetesResource.class);
    return admin.genericKubernetesResources(VS).inNamespace("gloo-system").resource(resource).create();
  }

  private static GenericKubernetesResource get(KubernetesClient admin, String name) {
    return admin.genericKubernetesResources(VS).inNamespace("gloo-system").withName(name).get();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> entries(KubernetesClient admin, String name) {
    Object status = get(admin, name).getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> map) || !(map.get("statuses") instanceof Map<?, ?> statuses)) {
      return Map.of();
    }
    return (Map<String, Object>) statuses;
  }

  @Test
  void theLeaderWritesHoldfastsEntryInGloosShapeKeepingGloosOwn() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      // deploy/crds-gloo's definition: like Gloo's, no status subresource.
      GlooCrdFiles.install(admin, VS);
      create(admin, "good");
      GenericKubernetesResource bad = create(admin, "bad");
      Map<String, Object> glooEntry = Map.of("state", "Accepted", "reportedBy", "gateway");
      bad.getAdditionalProperties().put("status", Map.of("statuses", Map.of("gloo-system", glooEntry)));
      admin.genericKubernetesResources(VS).inNamespace("gloo-system").resource(bad).update();

      Map<ResourceKey, DesiredStatus> desired = Map.of(
          GOOD, DesiredStatus.of(new ResourceStatus(GOOD, 1, ResourceStatus.State.ACCEPTED, List.of())),
          BAD, DesiredStatus.of(new ResourceStatus(BAD, 1, ResourceStatus.State.REJECTED, List.of(new Problem(
              "spec.virtualHost.options.waf", "UnsupportedGlooFeature", "waf needs Solo's own Envoy build")))));
      int setupWrites = api.writes().size();
      FakeLeadership leadership = new FakeLeadership();
      try (StatusWriter writer = StatusWriter.builder(client, leadership).build().start()) {
        writer.publish(desired);
        // A follower writes nothing.
        assertThat(api.writes().subList(setupWrites, api.writes().size())).isEmpty();
        leadership.elect();
        await().atMost(WAIT).until(() -> entries(admin, "good").containsKey(GlooStatusDocument.REPORTER_KEY)
            && entries(admin, "bad").containsKey(GlooStatusDocument.REPORTER_KEY));
        assertThat(entries(admin, "good").get(GlooStatusDocument.REPORTER_KEY))
            .isEqualTo(Map.of("state", "Accepted", "reportedBy", "holdfast"));
        Map<String, Object> badEntries = entries(admin, "bad");
        assertThat(badEntries.get("gloo-system")).isEqualTo(glooEntry);
        assertThat(badEntries.get(GlooStatusDocument.REPORTER_KEY)).isEqualTo(Map.of("state", "Rejected",
            "reason", "spec.virtualHost.options.waf: waf needs Solo's own Envoy build (UnsupportedGlooFeature)",
            "reportedBy", "holdfast"));
        // Through the object, as solo-kit writes: the definition has no /status to write to.
        assertThat(api.writes().subList(setupWrites, api.writes().size())).isNotEmpty()
            .noneSatisfy(w -> assertThat(w.path()).contains("/status"));
        // kubectl get shows Holdfast's verdict in the columns deploy/crds-gloo adds.
        CustomResourceDefinition crd = GlooCrdFiles.load(admin, VS);
        assertThat(GlooCrdFiles.columns(crd, get(admin, "good"))).containsEntry("State", "Accepted")
            .containsEntry("Reason", null);
        assertThat(GlooCrdFiles.columns(crd, get(admin, "bad"))).containsEntry("State", "Rejected")
            .containsEntry("Reason",
                "spec.virtualHost.options.waf: waf needs Solo's own Envoy build (UnsupportedGlooFeature)");
      }
    }
  }
}
