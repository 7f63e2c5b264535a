package io.holdfast.kube.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ModelParser;
import io.holdfast.api.ParseResult;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@link KubeConfigSource#withNamedSecrets}, the admission webhook's view of the Secrets: a config whose objects
 * name Secrets nothing named at the last rebuild gets them from the source's cache, for every kind that names one
 * (a Holdfast VirtualService, a Gateway API Gateway's listener, a SecurityPolicy, a Gloo VirtualService), and only
 * those the source reads: not a missing one, not one of a type it does not list, not one outside its namespaces.
 */
class NamedSecretsSourceTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  @Test
  void aConfigGetsTheNamedSecretsTheCacheHoldsAndNoOther() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      secret(admin, "demo", "vs-tls", "kubernetes.io/tls");
      secret(admin, "demo", "listener-tls", "kubernetes.io/tls");
      secret(admin, "demo", "users", "Opaque");
      secret(admin, "demo", "gloo-tls", "kubernetes.io/tls");
      secret(admin, "demo", "token", "kubernetes.io/service-account-token");
      secret(admin, "unwatched", "far-tls", "kubernetes.io/tls");

      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).namespace("demo").build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty());
        GatewayConfig input = configs.get(configs.size() - 1);
        assertThat(input.secrets()).as("nothing names them yet").isEmpty();

        TlsSecretData kept = new TlsSecretData(new java.util.TreeMap<>(Map.of("tls.crt", "as delivered")));
        io.holdfast.api.GatewayResource vs = ((ParseResult.Parsed) new ModelParser().parse(YAML.readTree("""
                apiVersion: gateway.holdfast.io/v1
                kind: VirtualService
                metadata: {name: web, namespace: demo}
                spec:
                  domains: [web.test]
                  routes: [{match: {prefix: /}, directResponse: {status: 200}}]
                  sslConfig: {secretRef: {name: vs-tls}}
                """))).resource();
        GatewayConfig reviewed = input.toBuilder().add(vs)
            .add(object("gateway.networking.k8s.io", "Gateway", "edge", """
                spec:
                  gatewayClassName: holdfast
                  listeners:
                  - {name: a, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: listener-tls}]}}
                  - {name: b, port: 444, protocol: HTTPS, tls: {certificateRefs: [{name: not-there}]}}
                  - {name: c, port: 445, protocol: HTTPS, tls: {certificateRefs: [{name: token}]}}
                  - {name: d, port: 446, protocol: HTTPS,
                     tls: {certificateRefs: [{name: far-tls, namespace: unwatched}]}}
                  - {name: e, port: 447, protocol: HTTPS, tls: {certificateRefs: [{name: delivered}]}}
                """))
            .add(object("gateway.holdfast.io", "SecurityPolicy", "users", """
                spec:
                  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
                  basicAuth: {users: {name: users}}
                """))
            .add(object("gateway.solo.io", "VirtualService", "gloo", """
                spec:
                  sslConfig: {secretRef: {name: gloo-tls, namespace: demo}}
                  virtualHost: {routes: [{directResponseAction: {status: 200}}]}
                """))
            .secret(TlsSecretData.secretKey("demo", "delivered"), kept)
            .build();

        assertThat(source.withNamedSecrets(reviewed, new ResourceKey("Upstream", "demo", "none")))
            .as("no such object: the same config").isSameAs(reviewed);
        assertThat(source.withNamedSecrets(reviewed, vs.key()).secrets().keySet()).as("only the reviewed object's")
            .containsExactlyInAnyOrder(TlsSecretData.secretKey("demo", "vs-tls"),
                TlsSecretData.secretKey("demo", "delivered"));

        GatewayConfig completed = reviewed;
        for (ResourceKey key : List.of(vs.key(), key("gateway.networking.k8s.io", "Gateway", "edge"),
            key("gateway.holdfast.io", "SecurityPolicy", "users"), key("gateway.solo.io", "VirtualService", "gloo"))) {
          completed = source.withNamedSecrets(completed, key);
        }
        assertThat(completed.secrets().keySet()).containsExactlyInAnyOrder(
            TlsSecretData.secretKey("demo", "vs-tls"), TlsSecretData.secretKey("demo", "listener-tls"),
            TlsSecretData.secretKey("demo", "users"), TlsSecretData.secretKey("demo", "gloo-tls"),
            TlsSecretData.secretKey("demo", "delivered"));
        assertThat(completed.secretOf(TlsSecretData.secretKey("demo", "vs-tls")).orElseThrow().entries())
            .containsEntry("tls.crt", "CERT vs-tls").containsEntry("tls.key", "KEY vs-tls");
        assertThat(completed.secretOf(TlsSecretData.secretKey("demo", "delivered"))).as("kept as it was")
            .contains(kept);
        assertThat(completed.toBuilder().build()).isEqualTo(completed);
        assertThat(completed.virtualServices()).isEqualTo(reviewed.virtualServices());
        assertThat(completed.apiObjects()).isEqualTo(reviewed.apiObjects());
      }
    }
  }

  private static ResourceKey key(String group, String kind, String name) {
    return new ResourceKey(group, kind, "demo", name);
  }

  private static ApiObject object(String group, String kind, String name, String rest) {
    ObjectNode body = (ObjectNode) YAML.readTree("""
        apiVersion: %s/v1
        kind: %s
        metadata: {name: %s, namespace: demo}
        """.formatted(group, kind, name) + rest);
    return new ApiObject(key(group, kind, name), 1, body);
  }

  private static void secret(KubernetesClient admin, String namespace, String name, String type) {
    admin.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name)
        .withNamespace(namespace).endMetadata().withType(type)
        .addToStringData(Map.of("tls.crt", "CERT " + name, "tls.key", "KEY " + name, ".htpasswd", "u:h"))
        .build()).create();
  }
}
