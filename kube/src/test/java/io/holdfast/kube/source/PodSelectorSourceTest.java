package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.pod;
import static io.holdfast.kube.source.KubeObjects.podSlice;
import static io.holdfast.kube.source.KubeObjects.resource;
import static io.holdfast.kube.source.KubeObjects.service;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ServiceRef;
import io.holdfast.kube.source.KubeObjects.PodEp;
import io.holdfast.testkit.MockKubeApi;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A kube Upstream's selector on the emulated API: the source narrows the Service's endpoints to the Pods carrying
 * the selector's labels, follows Pod label changes, and while pods cannot be read (RBAC) gives the narrowed reference
 * no endpoints at all, never the Service's wider set (issue 27).
 */
class PodSelectorSourceTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ServiceRef CANARY = ServiceRef.selecting("demo", "echo", 80, Map.of("track", "canary"));
  private static final ServiceRef WHOLE = new ServiceRef("demo", "echo", 80);

  private MockKubeApi api;
  private KubernetesClient client;
  private final List<GatewayConfig> configs = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startApi() {
    api = MockKubeApi.start();
    for (String kind : List.of("Upstream", "VirtualService", "Gateway")) {
      api.admin().apiextensions().v1().customResourceDefinitions().resource(CrdSchemaTest.load(kind)).create();
    }
    client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port())).build();
    KubernetesClient admin = api.admin();
    admin.genericKubernetesResources("gateway.holdfast.io/v1", "Upstream").inNamespace("demo").resource(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: canary, namespace: demo}
        spec: {kube: {name: echo, port: 80, selector: {track: canary}}}
        """)).create();
    admin.services().inNamespace("demo").resource(service("demo", "echo", "http:80")).create();
    admin.discovery().v1().endpointSlices().inNamespace("demo").resource(podSlice("demo", "echo-a", "echo", "http",
        8080, List.of(new PodEp("127.0.0.1", "echo-1"), new PodEp("127.0.0.2", "echo-2"),
            new PodEp("127.0.0.3", null)))).create();
    admin.pods().inNamespace("demo").resource(pod("demo", "echo-1", Map.of("app", "echo", "track", "canary")))
        .create();
    admin.pods().inNamespace("demo").resource(pod("demo", "echo-2", Map.of("app", "echo", "track", "stable")))
        .create();
  }

  @AfterEach
  void stop() {
    client.close();
    api.close();
  }

  private GatewayConfig last() {
    return configs.get(configs.size() - 1);
  }

  @Test
  void onlyTheSelectedPodsEndpointsAndPodLabelChangesFollow() {
    try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
      source.start();
      await().atMost(WAIT).until(() -> !configs.isEmpty() && last().serviceEndpoints().containsKey(CANARY));
      assertThat(last().endpointsOf(CANARY)).containsExactly(new Endpoint("127.0.0.1", 8080));
      assertThat(last().endpointsOf(WHOLE)).hasSize(3);

      api.admin().pods().inNamespace("demo").withName("echo-2").edit(p -> {
        p.getMetadata().getLabels().put("track", "canary");
        return p;
      });
      await().atMost(WAIT).until(() -> last().endpointsOf(CANARY).size() == 2);
      assertThat(last().endpointsOf(CANARY)).containsExactly(new Endpoint("127.0.0.1", 8080),
          new Endpoint("127.0.0.2", 8080));

      api.admin().pods().inNamespace("demo").withName("echo-1").delete();
      await().atMost(WAIT).until(() -> last().endpointsOf(CANARY).size() == 1);
      assertThat(last().endpointsOf(CANARY)).containsExactly(new Endpoint("127.0.0.2", 8080));
    }
  }

  @Test
  void aPodUpdateThatKeepsItsLabelsStartsNoRebuild() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).meterRegistry(registry).build()) {
      source.start();
      await().atMost(WAIT).until(() -> !configs.isEmpty() && last().serviceEndpoints().containsKey(CANARY));
      awaitQuiet(registry);
      double before = rebuilds(registry);

      // Most Pod updates are status writes: a new resourceVersion, the same labels. None may cost a rebuild.
      api.admin().pods().inNamespace("demo").withName("echo-1").edit(p -> {
        p.getMetadata().setAnnotations(Map.of("touched", "yes"));
        return p;
      });
      await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(3))
          .until(() -> rebuilds(registry) == before);

      api.admin().pods().inNamespace("demo").withName("echo-1").edit(p -> {
        p.getMetadata().getLabels().put("track", "stable");
        return p;
      });
      await().atMost(WAIT).until(() -> last().endpointsOf(CANARY).isEmpty());
      assertThat(rebuilds(registry)).isGreaterThan(before);
    }
  }

  private static double rebuilds(SimpleMeterRegistry registry) {
    return registry.find(KubeSourceMetrics.REBUILDS).counters().stream().mapToDouble(c -> c.count()).sum();
  }

  /** Until no rebuild happened for a poll interval: informers' own first events are behind us. */
  private static void awaitQuiet(SimpleMeterRegistry registry) {
    double[] seen = {-1};
    await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
      double now = rebuilds(registry);
      boolean quiet = now == seen[0];
      seen[0] = now;
      return quiet;
    });
  }

  @Test
  void withoutReadAccessToPodsTheNarrowedUpstreamGetsNoEndpointsNotTheWholeService() {
    api.refuseReads("/pods", 403);
    try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).build()) {
      source.start();
      await().atMost(WAIT).until(() -> !configs.isEmpty() && last().upstreams().size() == 1
          && last().serviceEndpoints().containsKey(WHOLE));
      assertThat(source.hasSynced()).isTrue();
      assertThat(last().serviceEndpoints()).containsOnlyKeys(WHOLE);
      assertThat(last().endpointsOf(CANARY)).isEmpty();

      api.refuseReads("/pods", 0); // the RBAC rule is granted: the informer's retry fills the labels in
      await().atMost(Duration.ofSeconds(30)).until(() -> last().serviceEndpoints().containsKey(CANARY));
      assertThat(last().endpointsOf(CANARY)).containsExactly(new Endpoint("127.0.0.1", 8080));
    }
  }
}
