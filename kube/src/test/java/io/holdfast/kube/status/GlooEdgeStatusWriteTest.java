package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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
 * The objects Gloo's authorisation and rate-limit options name: an AuthConfig gets Holdfast's entry in solo-kit's
 * status shape (as Gloo's own kinds do); a RateLimitConfig, whose status has the rate limiter's own shape, is not
 * written (its verdict is on /state and from validate).
 */
@ExtendWith(QuickAwait.class)
class GlooEdgeStatusWriteTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ResourceKey AUTH = new ResourceKey("enterprise.gloo.solo.io", "AuthConfig", "gloo-system",
      "oidc");
  private static final ResourceKey LIMITS = new ResourceKey("ratelimit.solo.io", "RateLimitConfig", "gloo-system",
      "limits");

  private static ResourceDefinitionContext install(KubernetesClient admin, ResourceKey key) {
    ResourceDefinitionContext kind = GatewayCrds.context(key).orElseThrow();
    GlooCrdFiles.install(admin, kind); // deploy/crds-gloo's
    GenericKubernetesResource resource = admin.getKubernetesSerialization().unmarshal("""
        apiVersion: %s/%s
        kind: %s
        metadata: {name: %s, namespace: gloo-system}
        spec: {}
        """.formatted(kind.getGroup(), kind.getVersion(), kind.getKind(), key.name()),
        GenericKubernetesResource.class);
    admin.genericKubernetesResources(kind).inNamespace("gloo-system").resource(resource).create();
    return kind;
  }

  @Test
  void authConfigsGetHoldfastsEntryInGloosShapeAndRateLimitConfigsAreLeftAlone() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      ResourceDefinitionContext authKind = install(admin, AUTH);
      install(admin, LIMITS);
      Map<ResourceKey, DesiredStatus> desired = Map.of(
          AUTH, DesiredStatus.of(new ResourceStatus(AUTH, 1, ResourceStatus.State.REJECTED, List.of(new Problem(
              "spec.configs[0].oauth2", "UnsupportedGlooFeature", "oauth2 needs Solo's extauth service")))),
          LIMITS, DesiredStatus.of(new ResourceStatus(LIMITS, 1, ResourceStatus.State.REJECTED, List.of(new Problem(
              "spec.raw.descriptors", "UnsupportedGlooFeature", "the server's own limits")))));
      int setupWrites = api.writes().size();
      FakeLeadership leadership = new FakeLeadership();
      try (StatusWriter writer = StatusWriter.builder(client, leadership).build().start()) {
        writer.publish(desired);
        leadership.elect();
        await().atMost(WAIT).until(() -> entry(admin, authKind) != null);
        assertThat(entry(admin, authKind)).isEqualTo(Map.of("state", "Rejected", "reason",
            "spec.configs[0].oauth2: oauth2 needs Solo's extauth service (UnsupportedGlooFeature)",
            "reportedBy", "holdfast"));
        assertThat(api.writes().subList(setupWrites, api.writes().size()))
            .noneSatisfy(w -> assertThat(w.path()).contains("ratelimitconfigs"));
      }
    }
  }

  private static Object entry(KubernetesClient admin, ResourceDefinitionContext kind) {
    GenericKubernetesResource r = admin.genericKubernetesResources(kind).inNamespace("gloo-system")
        .withName(AUTH.name()).get();
    if (!(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("statuses") instanceof Map<?, ?> statuses)) {
      return null;
    }
    return statuses.get(GlooStatusDocument.REPORTER_KEY);
  }
}
