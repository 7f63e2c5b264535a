package io.holdfast.server.e2e;

import static io.holdfast.server.e2e.GatewayApiKubernetesModeTest.applyAll;
import static io.holdfast.server.e2e.GatewayApiKubernetesModeTest.conditions;
import static io.holdfast.server.e2e.GatewayApiKubernetesModeTest.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.election.ElectionSettings;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.MockKubeApi;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes mode with Holdfast's policy kinds: a SecurityPolicy on the Gateway and a TrafficPolicy on the HTTPRoute,
 * created on the emulated API with the CRDs of deploy/crds, reach the built Envoy config (their filters in the
 * listener's connection manager) and get their statuses, as the same documents do from files.
 */
class PolicyKubernetesModeTest {

  private static final Duration CONVERGE = Duration.ofSeconds(30);

  @Test
  void policiesFromTheApiReachTheBuiltConfigAndGetTheirStatus() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      KubernetesClient admin = api.admin();
      installCrds(admin);
      applyAll(admin, GatewayApiConfig.CLASS_AND_GATEWAY);
      applyAll(admin, GatewayApiConfig.service("a", 18080));
      applyAll(admin, GatewayApiConfig.route("a"));
      create(admin, GatewayCrds.SECURITY_POLICY, """
          apiVersion: gateway.holdfast.io/v1
          kind: SecurityPolicy
          metadata: {name: deny-docs, namespace: infra}
          spec:
            targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
            rbac: {action: Deny, rules: [{clientIp: [192.0.2.0/24]}]}
          """);
      create(admin, GatewayCrds.TRAFFIC_POLICY, """
          apiVersion: gateway.holdfast.io/v1
          kind: TrafficPolicy
          metadata: {name: gzip, namespace: shop}
          spec:
            targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: echo}]
            compression: [gzip]
          """);

      try (HoldfastServer holdfast = HoldfastServer.start(settings(api), Clock.systemUTC())) {
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(httpFilters(holdfast))
            .contains("envoy.filters.http.rbac", "envoy.filters.http.compressor.gzip"));

        await().atMost(CONVERGE).until(() -> status(admin, GatewayCrds.SECURITY_POLICY, "infra", "deny-docs")
            .containsKey("ancestors"));
        Map<String, Object> security = status(admin, GatewayCrds.SECURITY_POLICY, "infra", "deny-docs");
        assertThat(conditions(security)).extracting(c -> c.get("type") + "=" + c.get("status"))
            .containsExactly("Accepted=True");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> ancestors = (List<Map<String, Object>>) security.get("ancestors");
        assertThat(ancestors).singleElement().satisfies(a -> assertThat(a)
            .containsEntry("controllerName", GatewayApiConfig.CONTROLLER)
            .containsEntry("ancestorRef", Map.of("group", "gateway.networking.k8s.io", "kind", "Gateway",
                "namespace", "infra", "name", "edge")));

        // Deleting the policy from the API takes its filter out of the config.
        admin.genericKubernetesResources(GatewayCrds.SECURITY_POLICY).inNamespace("infra").withName("deny-docs")
            .delete();
        await().atMost(CONVERGE).until(() -> !httpFilters(holdfast).contains("envoy.filters.http.rbac"));
        assertThat(httpFilters(holdfast)).contains("envoy.filters.http.compressor.gzip");
      }
    }
  }

  /**
   * Basic authentication in Kubernetes mode: the users' Opaque Secret, read through the type-selected informer,
   * reaches the listener's basic_auth filter (the CRD keeps the basicAuth field); a change of the Secret is a new
   * config.
   */
  @Test
  void aSecurityPolicysBasicAuthUsersComeFromTheirOpaqueSecret() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      KubernetesClient admin = api.admin();
      installCrds(admin);
      applyAll(admin, GatewayApiConfig.CLASS_AND_GATEWAY);
      applyAll(admin, GatewayApiConfig.service("a", 18080));
      applyAll(admin, GatewayApiConfig.route("a"));
      admin.secrets().inNamespace("infra").resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
          .withNewMetadata().withName("edge-users").withNamespace("infra").endMetadata().withType("Opaque")
          .withStringData(Map.of(".htpasswd", "alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=\n")).build()).create();
      create(admin, GatewayCrds.SECURITY_POLICY, """
          apiVersion: gateway.holdfast.io/v1
          kind: SecurityPolicy
          metadata: {name: users, namespace: infra}
          spec:
            targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
            basicAuth: {users: {name: edge-users}, forwardUsernameHeader: x-user}
          """);

      try (HoldfastServer holdfast = HoldfastServer.start(settings(api), Clock.systemUTC())) {
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(basicAuthUsers(holdfast))
            .containsExactly("alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=\n"));

        admin.secrets().inNamespace("infra").withName("edge-users").edit(secret -> new io.fabric8.kubernetes.api
            .model.SecretBuilder(secret).withStringData(Map.of(".htpasswd",
                "bob:{SHA}bOWgjgJew8XNjPXTyFghAc+ha1M=\n")).build());
        await().atMost(CONVERGE).untilAsserted(() -> assertThat(basicAuthUsers(holdfast))
            .containsExactly("bob:{SHA}bOWgjgJew8XNjPXTyFghAc+ha1M=\n"));
      }
    }
  }

  private static void installCrds(KubernetesClient admin) throws java.io.IOException {
    try (Stream<Path> files = Files.list(Path.of("..", "deploy", "crds"))) {
      for (Path file : files.sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          admin.apiextensions().v1().customResourceDefinitions()
              .resource(admin.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
        }
      }
    }
    GatewayApiCrds.install(admin);
  }

  private static ServeSettings settings(MockKubeApi api) {
    ElectionSettings election = ElectionSettings.builder().identity("replica-1").leaseNamespace("holdfast-system")
        .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
        .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
        .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
    return new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.empty(),
        Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election, Optional.empty(),
        Optional.empty(), GatewayApiConfig.CONTROLLER)
        .withAccess(io.holdfast.api.AccessPolicy.FILE_DEFAULTS);
  }

  /** The users of every basic_auth filter in the current snapshot. */
  private static List<String> basicAuthUsers(HoldfastServer holdfast) {
    return connectionManagerFilters(holdfast)
        .filter(f -> f.getName().startsWith("envoy.filters.http.basic_auth/"))
        .map(f -> {
          try {
            return f.getTypedConfig().unpack(io.envoyproxy.envoy.extensions.filters.http.basic_auth.v3.BasicAuth.class)
                .getUsers().getInlineString();
          } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
          }
        })
        .toList();
  }

  private static void create(KubernetesClient admin, ResourceDefinitionContext kind, String yaml) {
    GenericKubernetesResource resource = admin.getKubernetesSerialization().unmarshal(yaml,
        GenericKubernetesResource.class);
    admin.genericKubernetesResources(kind).inNamespace(resource.getMetadata().getNamespace()).resource(resource)
        .create();
  }

  /** The names of the HTTP filters of every listener's connection managers in the current snapshot. */
  private static List<String> httpFilters(HoldfastServer holdfast) {
    return connectionManagerFilters(holdfast).map(HttpFilter::getName).toList();
  }

  /** The HTTP filters of every listener's connection managers in the current snapshot. */
  private static Stream<HttpFilter> connectionManagerFilters(HoldfastServer holdfast) {
    return holdfast.cache().currentSnapshot().stream()
        .flatMap(s -> s.ofType(Resources.V3.LISTENER_TYPE_URL).values().stream())
        .flatMap(l -> ((Listener) l).getFilterChainsList().stream())
        .flatMap(chain -> chain.getFiltersList().stream())
        .filter(f -> f.getTypedConfig().is(HttpConnectionManager.class))
        .flatMap(PolicyKubernetesModeTest::unpack);
  }

  private static Stream<HttpFilter> unpack(Filter filter) {
    try {
      return filter.getTypedConfig().unpack(HttpConnectionManager.class).getHttpFiltersList().stream();
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }
}
