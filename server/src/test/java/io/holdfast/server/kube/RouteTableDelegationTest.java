package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
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
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes mode with RouteTables on the emulated API: a delegated route reaches the served RouteConfiguration,
 * and a RouteTable route that leaves the delegated prefix is pruned: the table is written back as Accepted=True
 * with the PrefixViolation warning, and its other routes and the rest of the VirtualService stay served.
 */
class RouteTableDelegationTest {
  private static final String NS = "demo";

  @Test
  void delegatedRoutesAreServedAndARouteLeavingThePrefixIsPrunedWithAWarning() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      for (String file : List.of("upstreams", "virtualservices", "gateways", "routetables")) {
        try (InputStream in = Files.newInputStream(Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
          api.admin().apiextensions().v1().customResourceDefinitions()
              .resource(api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
        }
      }
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: Upstream
          metadata: {name: echo, namespace: demo}
          spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: web, namespace: demo}
          spec:
            domains: ["*.web.test"]
            routes:
              - {match: {prefix: /team-a/}, delegate: {ref: {name: team-a}}}
              - {match: {prefix: /team-b/}, delegate: {selector: {matchLabels: {team: b}}}}
              - {name: rest, match: {prefix: /}, directResponse: {status: 404}}
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: RouteTable
          metadata: {name: team-a, namespace: demo}
          spec:
            routes: [{name: api, match: {prefix: /team-a/api}, route: {upstream: echo}}]
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: RouteTable
          metadata: {name: team-b, namespace: demo, labels: {team: b}}
          spec:
            routes:
              - {name: steal, match: {prefix: /team-a/admin}, route: {upstream: echo}}
              - {name: ok, match: {prefix: /team-b/ok}, route: {upstream: echo}}
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: edge, namespace: demo}
          spec: {port: 10080, bindAddress: 127.0.0.1}
          """);

      ElectionSettings election = ElectionSettings.builder().identity("r1").leaseNamespace("holdfast-system")
          .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
          .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
          .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
      ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
          LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(NS),
          Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election)
        // The backends are local processes: loopback upstreams allowed, as --upstream-allow-loopback does.
        .withAccess(io.holdfast.api.AccessPolicy.FILE_DEFAULTS);
      try (HoldfastServer holdfast = HoldfastServer.start(settings, Clock.systemUTC())) {
        await().atMost(Duration.ofSeconds(30)).until(() -> routeNames(holdfast).contains("demo/team-a/api")
            && routeNames(holdfast).contains("demo/team-b/ok"));
        assertThat(routeNames(holdfast)).containsExactly("demo/team-a/api", "demo/team-b/ok", "rest");

        await().atMost(Duration.ofSeconds(30)).until(() -> accepted(api, "team-b").isPresent()
            && accepted(api, "team-a").isPresent());
        assertThat(accepted(api, "team-b").get()).containsEntry("status", "True")
            .containsEntry("reason", "PrefixViolation");
        assertThat(accepted(api, "team-b").get().get("message"))
            .contains("prefix /team-a/admin is not under the delegated prefix /team-b/");
        assertThat(accepted(api, "team-a").get()).containsEntry("status", "True").containsEntry("reason", "Accepted");
      }
    }
  }

  private static void apply(MockKubeApi api, String yaml) {
    GenericKubernetesResource resource =
        api.admin().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    api.admin().genericKubernetesResources(resource.getApiVersion(), resource.getKind()).inNamespace(NS)
        .resource(resource).create();
  }

  private static List<String> routeNames(HoldfastServer holdfast) {
    return holdfast.cache().currentSnapshot()
        .map(s -> (RouteConfiguration) s.ofType(Resources.V3.ROUTE_TYPE_URL).get("gateway/demo/edge"))
        .map(rc -> rc.getVirtualHosts(0).getRoutesList().stream().map(Route::getName).toList())
        .orElse(List.of());
  }

  /** The RouteTable's Accepted condition as written on the API, if any yet. */
  private static Optional<Map<String, String>> accepted(MockKubeApi api, String name) {
    GenericKubernetesResource r = api.admin().genericKubernetesResources("gateway.holdfast.io/v1", "RouteTable")
        .inNamespace(NS).withName(name).get();
    if (r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("conditions") instanceof List<?> conditions)) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> c instanceof Map<?, ?> m && "Accepted".equals(m.get("type")))
        .map(c -> {
          Map<String, String> condition = new TreeMap<>();
          ((Map<?, ?>) c).forEach((k, v) -> condition.put(String.valueOf(k), String.valueOf(v)));
          return condition;
        }).findFirst();
  }
}
