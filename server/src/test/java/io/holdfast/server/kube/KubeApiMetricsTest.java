package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class KubeApiMetricsTest {
  @Test
  void countsAndTimesRequestsByVerbAndCode() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (MockKubeApi api = MockKubeApi.start(); FaultProxy proxy = FaultProxy.start("api", api.port());
        KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(proxy.port()))
            .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("m",
                new KubeApiMetrics(registry, "test", System::nanoTime)))
            .build()) {
      client.configMaps().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
          .withNewMetadata().withName("x").endMetadata().build()).create();
      client.configMaps().inNamespace("default").withName("x").get();
      client.configMaps().inNamespace("default").withName("missing").get();
      assertThat(count(registry, "create", "201")).isEqualTo(1);
      assertThat(count(registry, "get", "200")).isEqualTo(1);
      assertThat(count(registry, "get", "404")).isEqualTo(1);
      assertThat(registry.find("holdfast.kube.api.latency").tag("verb", "get").timer().count()).isGreaterThanOrEqualTo(2);
    }
  }

  private static double count(SimpleMeterRegistry r, String verb, String code) {
    var c = r.find("holdfast.kube.api.requests").tags("client", "test", "verb", verb, "code", code).counter();
    return c == null ? 0 : c.count();
  }
}
