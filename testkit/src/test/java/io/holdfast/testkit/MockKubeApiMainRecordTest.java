package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The emulated API's write record carries the Lease holder and the resourceVersion each write was based on. */
class MockKubeApiMainRecordTest {
  @TempDir
  Path dir;

  @Test
  void leaseWritesRecordTheirHolderAndEveryJsonWriteItsResourceVersion() throws Exception {
    Path record = dir.resolve("writes.jsonl");
    try (MockKubeApiMain api = MockKubeApiMain.start(0, record, List.of());
         KubernetesClient r1 = new KubernetesClientBuilder().withConfig(new ConfigBuilder(MockKubeApi.configFor(api.port()))
             .withUserAgent("holdfast/r1").build()).build()) {
      var leases = r1.leases().inNamespace("holdfast-system");
      Lease created = leases.resource(new LeaseBuilder().withNewMetadata().withName("holdfast").endMetadata()
          .withNewSpec().withHolderIdentity("r1").withLeaseDurationSeconds(2).endSpec().build()).create();
      created.getSpec().setHolderIdentity(null); // a release
      leases.resource(created).update();
    }

    List<String> lines = Files.readAllLines(record);
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).contains("\"method\":\"POST\"", "\"userAgent\":\"holdfast/r1\"", "\"code\":201",
        "\"resourceVersion\":\"\"", "\"holder\":\"r1\"");
    assertThat(lines.get(1)).contains("\"method\":\"PUT\"", "\"code\":200", "\"holder\":\"\"")
        .containsPattern("\"resourceVersion\":\"[0-9]+\"");
  }
}
