package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.kube.source.GatewayCrds;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * deploy/crds-gloo agrees with the status writer for every Gloo Edge kind it reads: where Holdfast writes a status,
 * the CRD has no status subresource (the write is a PUT of the object, as Gloo's CRDs require) and its State and
 * Reason columns show the entry {@link GlooStatusDocument} writes; where it writes none (RateLimitConfig), none.
 */
class GlooCrdColumnsTest {

  private static final Problem WAF = new Problem("spec.virtualHost.options.waf", "UnsupportedGlooFeature",
      "waf needs Solo's own Envoy build");
  private static final Problem LOOSE = new Problem("spec.options.retries", "RetryBudgetIgnored", "kept loose");

  @Test
  void everyWrittenKindShowsHoldfastsVerdictInItsColumns() {
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      for (ResourceDefinitionContext kind : GatewayCrds.GLOO) {
        ResourceKey key = new ResourceKey(kind.getGroup(), kind.getKind(), "team-a", "web");
        CustomResourceDefinition crd = GlooCrdFiles.load(client, kind);
        CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
        if (!GlooStatusDocument.isGloo(key)) {
          // As Gloo's: no column of its own (kubectl shows Name and Age), and the rate limiter's status subresource.
          assertThat(version.getAdditionalPrinterColumns()).as(kind.getKind()).isNullOrEmpty();
          assertThat(version.getSubresources().getStatus()).as(kind.getKind()).isNotNull();
          continue;
        }
        assertThat(version.getSubresources() == null || version.getSubresources().getStatus() == null)
            .as(kind.getKind() + " has no status subresource").isTrue();
        assertThat(GlooCrdFiles.columns(crd, object(key, ResourceStatus.State.ACCEPTED, List.of())))
            .as(kind.getKind()).containsEntry("State", "Accepted").containsEntry("Reason", null);
        assertThat(GlooCrdFiles.columns(crd, object(key, ResourceStatus.State.WARNING, List.of(LOOSE))))
            .as(kind.getKind()).containsEntry("State", "Warning");
        assertThat(GlooCrdFiles.columns(crd, object(key, ResourceStatus.State.REJECTED, List.of(WAF, LOOSE))))
            .as(kind.getKind()).containsEntry("State", "Rejected").containsEntry("Reason",
                "spec.virtualHost.options.waf: waf needs Solo's own Envoy build (UnsupportedGlooFeature); "
                    + "spec.options.retries: kept loose (RetryBudgetIgnored)");
      }
    }
  }

  /** Gloo's own entry beside Holdfast's changes nothing in the columns: they read Holdfast's key only. */
  @Test
  void theColumnsReadHoldfastsEntryNotGloos() {
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      ResourceDefinitionContext vs = GatewayCrds.GLOO.stream().filter(k -> k.getKind().equals("VirtualService"))
          .findFirst().orElseThrow();
      ResourceKey key = new ResourceKey(vs.getGroup(), vs.getKind(), "team-a", "web");
      Map<String, Object> glooFirst = Map.of("statuses", Map.of("gloo-system", Map.of("state", "Pending",
          "reportedBy", "gateway")));
      GenericKubernetesResource object = object(key, GlooStatusDocument.compute(
          new ResourceStatus(key, 1, ResourceStatus.State.ACCEPTED, List.of()), glooFirst));
      assertThat(GlooCrdFiles.columns(GlooCrdFiles.load(client, vs), object)).containsEntry("State", "Accepted");
    }
  }

  private static GenericKubernetesResource object(ResourceKey key, ResourceStatus.State state, List<Problem> problems) {
    return object(key, GlooStatusDocument.compute(new ResourceStatus(key, 1, state, problems), null));
  }

  private static GenericKubernetesResource object(ResourceKey key, Map<String, Object> status) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setMetadata(new ObjectMetaBuilder().withName(key.name()).withNamespace(key.namespace())
        .withCreationTimestamp("2026-01-01T00:00:00Z").build());
    object.getAdditionalProperties().put("spec", Map.of());
    object.getAdditionalProperties().put("status", status);
    return object;
  }
}
