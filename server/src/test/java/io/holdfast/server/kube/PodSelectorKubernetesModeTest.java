package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.endpoint.v3.LbEndpoint;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.holdfast.election.ElectionSettings;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.MockKubeApi;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes mode with a kube Upstream whose selector narrows its Service (issue 27): the served
 * ClusterLoadAssignment holds only the endpoints of the Pods carrying the selector's labels, and follows a Pod's
 * label change.
 */
class PodSelectorKubernetesModeTest {
  private static final String NS = "demo";
  private static final String CLUSTER_PART = "canary";

  @Test
  void theServedEndpointsAreThoseOfTheSelectedPodsAndFollowTheirLabels() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      for (String file : List.of("upstreams", "virtualservices", "gateways")) {
        try (InputStream in = Files.newInputStream(Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file
            + ".yaml"))) {
          api.admin().apiextensions().v1().customResourceDefinitions()
              .resource(api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class))
              .create();
        }
      }
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: Upstream
          metadata: {name: canary, namespace: demo}
          spec: {kube: {name: echo, port: 80, selector: {track: canary}}}
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: web, namespace: demo}
          spec:
            domains: ["web.test"]
            routes: [{match: {prefix: /}, route: {upstream: canary}}]
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: edge, namespace: demo}
          spec: {port: 10080, bindAddress: 127.0.0.1}
          """);
      api.admin().services().inNamespace(NS).resource(new ServiceBuilder().withNewMetadata().withNamespace(NS)
          .withName("echo").endMetadata().withNewSpec().withPorts(new ServicePortBuilder().withName("http")
              .withPort(80).withProtocol("TCP").build()).endSpec().build()).create();
      api.admin().discovery().v1().endpointSlices().inNamespace(NS).resource(new EndpointSliceBuilder()
          .withNewMetadata().withNamespace(NS).withName("echo-a")
          .addToLabels("kubernetes.io/service-name", "echo").endMetadata()
          .withAddressType("IPv4")
          .withPorts(new EndpointPortBuilder().withName("http").withPort(8080).withProtocol("TCP").build())
          .withEndpoints(endpoint("127.0.0.11", "echo-1"), endpoint("127.0.0.12", "echo-2"),
              new EndpointBuilder().withAddresses("127.0.0.13").build())
          .build()).create();
      pod(api, "echo-1", Map.of("app", "echo", "track", "canary"));
      pod(api, "echo-2", Map.of("app", "echo", "track", "stable"));

      try (HoldfastServer holdfast = HoldfastServer.start(settings(api), Clock.systemUTC())) {
        await().atMost(Duration.ofSeconds(30)).until(() -> !endpoints(holdfast).isEmpty());
        assertThat(endpoints(holdfast)).containsExactly("127.0.0.11:8080");

        api.admin().pods().inNamespace(NS).withName("echo-2").edit(p -> {
          p.getMetadata().getLabels().put("track", "canary");
          return p;
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> endpoints(holdfast).size() == 2);
        assertThat(endpoints(holdfast)).containsExactly("127.0.0.11:8080", "127.0.0.12:8080");
      }
    }
  }

  private static ServeSettings settings(MockKubeApi api) {
    ElectionSettings election = ElectionSettings.builder().identity("r1").leaseNamespace("holdfast-system")
        .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
        .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
        .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
    return new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(NS),
        Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election)
        // Loopback endpoints stand for pod addresses here, as --upstream-allow-loopback allows.
        .withAccess(io.holdfast.api.AccessPolicy.FILE_DEFAULTS);
  }

  private static io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint(String address, String pod) {
    return new EndpointBuilder().withAddresses(address).withNewConditions().withReady(true).endConditions()
        .withNewTargetRef().withKind("Pod").withNamespace(NS).withName(pod).endTargetRef().build();
  }

  private static void pod(MockKubeApi api, String name, Map<String, String> labels) {
    api.admin().pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withNamespace(NS).withName(name)
        .withLabels(labels).endMetadata().build()).create();
  }

  private static void apply(MockKubeApi api, String yaml) {
    GenericKubernetesResource resource =
        api.admin().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    api.admin().genericKubernetesResources(resource.getApiVersion(), resource.getKind()).inNamespace(NS)
        .resource(resource).create();
  }

  /** The served endpoints (address:port) of the Upstream's cluster, in the assignment's order. */
  private static List<String> endpoints(HoldfastServer holdfast) {
    return holdfast.cache().currentSnapshot()
        .map(s -> s.ofType(Resources.V3.ENDPOINT_TYPE_URL).entrySet().stream()
            .filter(e -> e.getKey().contains(CLUSTER_PART))
            .map(e -> (ClusterLoadAssignment) e.getValue())
            .flatMap(cla -> cla.getEndpointsList().stream())
            .flatMap(locality -> locality.getLbEndpointsList().stream())
            .map(LbEndpoint::getEndpoint)
            .map(ep -> ep.getAddress().getSocketAddress().getAddress() + ":"
                + ep.getAddress().getSocketAddress().getPortValue())
            .toList())
        .orElse(List.of());
  }
}
