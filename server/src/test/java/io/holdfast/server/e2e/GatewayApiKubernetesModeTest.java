package io.holdfast.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.grpc.ManagedChannel;
import io.holdfast.election.ElectionSettings;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.MockKubeApi;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.NamedBackends;
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
 * The Gateway API in Kubernetes mode, end to end: GatewayClass, Gateway, HTTPRoute, Services and EndpointSlices on
 * the emulated API; grpc-java's xDS client ({@code xds:///echo.test}) is routed by the HTTPRoute to the Service
 * endpoints, and the statuses land on the API: the class Accepted, the Gateway Programmed with one attached route,
 * the route's parent entry under Holdfast's controller name beside another controller's, which stays.
 */
class GatewayApiKubernetesModeTest {
  private static final Duration CONVERGE = Duration.ofSeconds(60);

  @Test
  void anHttpRouteFromTheApiRoutesTrafficAndGetsItsStatus() throws Exception {
    try (MockKubeApi api = MockKubeApi.start(); NamedBackends backends = new NamedBackends("a", "b")) {
      KubernetesClient admin = api.admin();
      for (String file : List.of("upstreams", "virtualservices", "gateways", "tcpgateways", "routetables")) {
        try (InputStream in = Files.newInputStream(
            Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
          admin.apiextensions().v1().customResourceDefinitions()
              .resource(admin.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
        }
      }
      GatewayApiCrds.install(admin);
      applyAll(admin, GatewayApiConfig.CLASS_AND_GATEWAY);
      applyAll(admin, GatewayApiConfig.service("a", backends.port("a")));
      applyAll(admin, GatewayApiConfig.service("b", backends.port("b")));
      GenericKubernetesResource route = applyAll(admin, GatewayApiConfig.route("a"));
      route.getAdditionalProperties().put("status", Map.of("parents", List.of(Map.of(
          "parentRef", Map.of("name", "elsewhere", "namespace", "infra"),
          "controllerName", "other.test/controller",
          "conditions", List.of(Map.of("type", "Accepted", "status", "True", "reason", "Accepted",
              "message", "theirs", "lastTransitionTime", "2025-01-01T00:00:00Z"))))));
      admin.genericKubernetesResources(GatewayCrds.HTTP_ROUTE).inNamespace("shop").resource(route).updateStatus();

      ElectionSettings election = ElectionSettings.builder().identity("replica-1").leaseNamespace("holdfast-system")
          .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
          .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
          .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
      ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
          LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.empty(),
          Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election, Optional.empty(),
          Optional.empty(), GatewayApiConfig.CONTROLLER)
          // The backends are local processes: loopback endpoints allowed, as --upstream-allow-loopback does.
          .withAccess(io.holdfast.api.AccessPolicy.FILE_DEFAULTS);
      try (HoldfastServer holdfast = HoldfastServer.start(settings, Clock.systemUTC())) {
        GrpcXdsClient xds = GrpcXdsClient.bootstrap(holdfast.xdsPort(), "gateway-api-e2e", "holdfast-e2e");
        ManagedChannel channel = xds.channel("echo.test");
        try {
          await().atMost(CONVERGE).until(() -> GatewayApiConfig.call(channel, Map.of()).equals("a"));
          assertThat(GatewayApiConfig.call(channel, Map.of("x-pick", "b"))).isEqualTo("b");

          await().atMost(CONVERGE).until(() -> parents(admin).size() == 2);
          List<Map<String, Object>> parents = parents(admin);
          assertThat(parents.get(0)).containsEntry("controllerName", "other.test/controller");
          assertThat(parents.get(1)).containsEntry("controllerName", GatewayApiConfig.CONTROLLER)
              .containsEntry("parentRef", Map.of("group", "gateway.networking.k8s.io", "kind", "Gateway",
                  "namespace", "infra", "name", "edge", "sectionName", "http"));
          assertThat(conditions(parents.get(1))).extracting(c -> c.get("type") + "=" + c.get("status"))
              .containsExactly("Accepted=True", "ResolvedRefs=True");

          await().atMost(CONVERGE).until(() -> status(admin, GatewayCrds.GATEWAY_API_GATEWAY, "infra", "edge")
              .containsKey("listeners"));
          Map<String, Object> gateway = status(admin, GatewayCrds.GATEWAY_API_GATEWAY, "infra", "edge");
          assertThat(conditions(gateway)).extracting(c -> c.get("type") + "=" + c.get("status"))
              .contains("Accepted=True", "Programmed=True");
          @SuppressWarnings("unchecked")
          List<Map<String, Object>> listeners = (List<Map<String, Object>>) gateway.get("listeners");
          assertThat(listeners).singleElement().satisfies(l -> assertThat(l).containsEntry("attachedRoutes", 1));
          await().atMost(CONVERGE).until(() -> status(admin, GatewayCrds.GATEWAY_CLASS, "", "holdfast")
              .containsKey("conditions"));
          assertThat(conditions(status(admin, GatewayCrds.GATEWAY_CLASS, "", "holdfast")))
              .extracting(c -> c.get("type") + "=" + c.get("status")).contains("Accepted=True");

          // Re-route from the API: the connected client follows.
          GenericKubernetesResource edited = admin.getKubernetesSerialization().unmarshal(GatewayApiConfig.route("b"),
              GenericKubernetesResource.class);
          GenericKubernetesResource current = admin.genericKubernetesResources(GatewayCrds.HTTP_ROUTE)
              .inNamespace("shop").withName("echo").get();
          current.getAdditionalProperties().put("spec", edited.getAdditionalProperties().get("spec"));
          admin.genericKubernetesResources(GatewayCrds.HTTP_ROUTE).inNamespace("shop").resource(current).update();
          await().atMost(CONVERGE).until(() -> GatewayApiConfig.call(channel, Map.of()).equals("b"));
        } finally {
          xds.close();
        }
      }
    }
  }

  /** Creates each document of {@code yaml} on the API; returns the last one as created. */
  static GenericKubernetesResource applyAll(KubernetesClient admin, String yaml) {
    GenericKubernetesResource last = null;
    for (String doc : yaml.split("(?m)^---\\s*$")) {
      GenericKubernetesResource generic = admin.getKubernetesSerialization().unmarshal(doc,
          GenericKubernetesResource.class);
      if (generic.getApiVersion().startsWith(GatewayCrds.GATEWAY_API_GROUP + "/")) {
        ResourceDefinitionContext kind = GatewayCrds.context(new io.holdfast.api.ResourceKey(
            generic.getApiVersion().split("/")[0], generic.getKind(), "", "")).orElseThrow();
        var op = admin.genericKubernetesResources(kind);
        last = (Boolean.TRUE.equals(kind.isNamespaceScoped())
            ? op.inNamespace(generic.getMetadata().getNamespace()) : op).resource(generic).create();
      } else {
        HasMetadata typed = admin.getKubernetesSerialization().unmarshal(doc);
        admin.resource(typed).create();
      }
    }
    return last;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> status(KubernetesClient admin, ResourceDefinitionContext kind, String ns,
      String name) {
    var op = admin.genericKubernetesResources(kind);
    GenericKubernetesResource r = (ns.isEmpty() ? op : op.inNamespace(ns)).withName(name).get();
    Object status = r == null ? null : r.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> parents(KubernetesClient admin) {
    Object parents = status(admin, GatewayCrds.HTTP_ROUTE, "shop", "echo").get("parents");
    return parents instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> conditions(Map<String, Object> holder) {
    return (List<Map<String, Object>>) holder.get("conditions");
  }
}
