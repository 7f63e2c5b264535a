package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * fabric8's JDK client upgrades to HTTP/2 (h2c) with the emulated API: the proxy must still count each call,
 * matching what the API itself recorded.
 */
class FaultProxyKubeRequestsTest {

  @Test
  void countsEveryCallOfAKubernetesClient() {
    try (MockKubeApi api = MockKubeApi.start();
        FaultProxy proxy = FaultProxy.start("kube", api.port());
        KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(proxy.port())).build()) {
      var configMaps = client.configMaps().inNamespace("counting");
      ConfigMap created = configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("c").endMetadata()
          .withData(Map.of("k", "v")).build()).create();
      for (int i = 0; i < 3; i++) {
        assertThat(configMaps.withName("c").get()).isNotNull();
      }
      configMaps.resource(new ConfigMapBuilder(created).withData(Map.of("k", "w")).build()).update();

      await().atMost(Duration.ofSeconds(5)).until(() -> proxy.requestsForwarded() == api.server().getRequestCount());
      assertThat(api.server().getRequestCount()).as("create, 3 gets, update (which may read first)").isGreaterThanOrEqualTo(5);
    }
  }
}
