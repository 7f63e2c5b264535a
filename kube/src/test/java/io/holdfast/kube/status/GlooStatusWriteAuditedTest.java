package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.ResourceKey;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.testkit.ApiWrite;
import org.junit.jupiter.api.Test;

/**
 * The emulated API's record takes the same Gloo Edge kinds for status-through-the-object as the writer does: a kind
 * the writer updates whole ({@link GlooStatusDocument#isGloo}) that the record saw as a plain edit would slip past
 * {@code failStatusWrites} (testkit cannot read the writer's list: it is kube's, and kube's tests depend on testkit).
 */
class GlooStatusWriteAuditedTest {

  @Test
  void everyGlooKindTheWriterPutsWholeIsAStatusWriteOnTheRecordAndNoOther() {
    for (ResourceDefinitionContext kind : GatewayCrds.GLOO) {
      ResourceKey key = new ResourceKey(kind.getGroup(), kind.getKind(), "demo", "x");
      String path = "/apis/" + kind.getGroup() + "/" + kind.getVersion() + "/namespaces/demo/" + kind.getPlural()
          + "/x";
      assertThat(ApiWrite.isStatusWrite("PUT", path)).as(kind.getKind() + "." + kind.getGroup())
          .isEqualTo(GlooStatusDocument.isGloo(key));
      assertThat(ApiWrite.isStatusWrite("POST", "/apis/" + kind.getGroup() + "/" + kind.getVersion()
          + "/namespaces/demo/" + kind.getPlural())).as("a create is not a status write").isFalse();
    }
  }
}
