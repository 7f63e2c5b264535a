package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.holdfast.testkit.FencingAudit.Kind;
import org.assertj.core.groups.Tuple;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The API's write record classifies writes by who sent them and what they are: a replica's PUT of a Gloo Edge object
 * (whose status lives in the object: Gloo's definitions have no /status subresource) is a leader-only, status
 * write, audited for fencing and failed by {@link MockKubeApi#failStatusWrites}; the test's own set-up PUT of the
 * same object is neither.
 */
class WriteClassificationTest {
  private static final ResourceDefinitionContext VS = new ResourceDefinitionContext.Builder()
      .withGroup("gateway.solo.io").withVersion("v1").withKind("VirtualService").withPlural("virtualservices")
      .withNamespaced(true).build();
  private static final String VS_PATH = "/apis/gateway.solo.io/v1/namespaces/gloo-system/virtualservices/shop";

  private static KubernetesClient replica(MockKubeApi api, String identity) {
    return new KubernetesClientBuilder().withConfig(new ConfigBuilder(MockKubeApi.configFor(api.port()))
        .withUserAgent("holdfast/" + identity).build()).build();
  }

  private static GenericKubernetesResource createVirtualService(MockKubeApi api) {
    GenericKubernetesResource vs = Serialization.unmarshal("""
        {"apiVersion": "gateway.solo.io/v1", "kind": "VirtualService",
         "metadata": {"name": "shop", "namespace": "gloo-system"},
         "spec": {"virtualHost": {"domains": ["shop.example"]}}}""", GenericKubernetesResource.class);
    return api.admin().genericKubernetesResources(VS).inNamespace("gloo-system").resource(vs).create();
  }

  /** As Holdfast writes a Gloo status: the object it read, with Holdfast's entry set, PUT guarded by its version. */
  private static GenericKubernetesResource withGlooStatus(GenericKubernetesResource read, String state) {
    GenericKubernetesResource copy = Serialization.clone(read);
    copy.setAdditionalProperty("status", Map.of("statuses", Map.of("holdfast-system",
        Map.of("state", state, "reportedBy", "holdfast"))));
    return copy;
  }

  private static GenericKubernetesResource withSpecNote(GenericKubernetesResource read, String note) {
    GenericKubernetesResource copy = Serialization.clone(read);
    copy.setAdditionalProperty("spec", Map.of("virtualHost", Map.of("domains", List.of(note))));
    return copy;
  }

  private static Lease lease(String holder) {
    return new LeaseBuilder().withNewMetadata().withNamespace("holdfast-system").withName("holdfast").endMetadata()
        .withNewSpec().withHolderIdentity(holder).withLeaseDurationSeconds(15).endSpec().build();
  }

  @Test
  void aReplicasPutOfAGlooObjectIsALeaderOnlyWriteAndTheFixturesIsNotAudited() {
    try (MockKubeApi api = MockKubeApi.start(); KubernetesClient a = replica(api, "a");
         KubernetesClient b = replica(api, "b")) {
      GenericKubernetesResource created = createVirtualService(api);
      GenericKubernetesResource edited = api.admin().genericKubernetesResources(VS).inNamespace("gloo-system")
          .resource(withSpecNote(created, "edited.example")).update(); // a user's edit: a whole-object PUT too
      a.leases().inNamespace("holdfast-system").resource(lease("a")).create();
      GenericKubernetesResource written = a.genericKubernetesResources(VS).inNamespace("gloo-system")
          .resource(withGlooStatus(edited, "Accepted")).update();
      // b never held the Lease: its write is a fencing violation whatever the API answered.
      b.genericKubernetesResources(VS).inNamespace("gloo-system").resource(withGlooStatus(written, "Rejected"))
          .update();

      List<ApiWrite> record = api.writes();
      ApiWrite userEdit = record.get(1);
      assertThat(userEdit.userAgent()).isEqualTo(MockKubeApi.ADMIN_USER_AGENT);
      assertThat(userEdit.method()).isEqualTo("PUT");
      assertThat(userEdit.isStatusInObjectKind()).isTrue();
      assertThat(userEdit.isStatus()).as("a set-up edit of a Gloo object is not a status write").isFalse();
      ApiWrite byA = record.stream().filter(w -> w.userAgent().equals("holdfast/a") && w.path().equals(VS_PATH))
          .findFirst().orElseThrow();
      assertThat(byA.isStatus()).isTrue();
      assertThat(byA.isLease()).isFalse();

      List<FencingAudit.Entry> entries = api.auditEntries(ApiWrite.replicasByPrefix("holdfast/"));
      assertThat(entries).extracting(FencingAudit.Entry::writer, FencingAudit.Entry::kind)
          .as("the fixture's create and edit are not replica writes")
          .containsExactly(Tuple.tuple("a", Kind.LEASE),
              Tuple.tuple("a", Kind.STATUS),
              Tuple.tuple("b", Kind.STATUS));
      assertThat(FencingAudit.violations(entries)).extracting(v -> v.write().writer(), FencingAudit.Violation::holder)
          .containsExactly(Tuple.tuple("b", "a"));
    }
  }

  @Test
  void aGlooObjectPutWithAStaleResourceVersionIsAConflict() {
    try (MockKubeApi api = MockKubeApi.start(); KubernetesClient a = replica(api, "a")) {
      GenericKubernetesResource created = createVirtualService(api);
      api.admin().genericKubernetesResources(VS).inNamespace("gloo-system")
          .resource(withSpecNote(created, "edited.example")).update();
      // Based on the object as created: writing it whole would undo the user's edit, so the API must refuse it.
      assertThatThrownBy(() -> a.genericKubernetesResources(VS).inNamespace("gloo-system")
          .resource(withGlooStatus(created, "Accepted")).update())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
      assertThat(api.admin().genericKubernetesResources(VS).inNamespace("gloo-system").withName("shop").get()
          .getAdditionalProperties().get("spec")).isEqualTo(Map.of("virtualHost",
          Map.of("domains", List.of("edited.example"))));
    }
  }

  @Test
  void failStatusWritesFailsAReplicasGlooObjectPutButNotTheFixturesOrTheLease() {
    try (MockKubeApi api = MockKubeApi.start(); KubernetesClient a = replica(api, "a")) {
      GenericKubernetesResource created = createVirtualService(api);
      api.failStatusWrites(500);
      assertThatThrownBy(() -> a.genericKubernetesResources(VS).inNamespace("gloo-system")
          .resource(withGlooStatus(created, "Accepted")).update())
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(500));
      a.leases().inNamespace("holdfast-system").resource(lease("a")).create();
      GenericKubernetesResource edited = api.admin().genericKubernetesResources(VS).inNamespace("gloo-system")
          .resource(withSpecNote(created, "edited.example")).update();
      api.stopFailingStatusWrites();
      a.genericKubernetesResources(VS).inNamespace("gloo-system").resource(withGlooStatus(edited, "Accepted")).update();

      assertThat(api.writes()).extracting(ApiWrite::userAgent, ApiWrite::code).containsExactly(
          Tuple.tuple(MockKubeApi.ADMIN_USER_AGENT, 201),
          Tuple.tuple("holdfast/a", 500),
          Tuple.tuple("holdfast/a", 201),
          Tuple.tuple(MockKubeApi.ADMIN_USER_AGENT, 200),
          Tuple.tuple("holdfast/a", 200));
      assertThat(api.writes()).filteredOn(ApiWrite::isStatus).extracting(ApiWrite::code).containsExactly(500, 200);
    }
  }

  @Test
  void replicasByPrefixNamesOnlyAgentsWithAnIdentityAfterThePrefix() {
    var replicas = ApiWrite.replicasByPrefix("holdfast/");
    assertThat(replicas.apply("holdfast/r1")).isEqualTo(Optional.of("r1"));
    assertThat(replicas.apply("holdfast/")).isEmpty();
    assertThat(replicas.apply(MockKubeApi.ADMIN_USER_AGENT)).isEmpty();
    assertThat(replicas.apply("fabric8-kubernetes-client/7.0")).isEmpty();
  }
}
