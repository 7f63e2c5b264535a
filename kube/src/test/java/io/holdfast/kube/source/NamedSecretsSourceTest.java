package io.holdfast.kube.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ModelParser;
import io.holdfast.api.ParseResult;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import io.holdfast.testkit.ApiRequest;
import io.holdfast.testkit.FaultProxy;
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

  /**
   * Regression: a Secret applied together with the object naming it (one {@code kubectl apply}) may not be in the
   * cache yet when the object's review arrives, as the cache follows the API by the watch delay; the review was denied
   * SecretNotFound. Here the API holds back the Secrets' watch events: the cache lacks the new Secret, a source that
   * only reads its cache misses it, and one that asks the API (a list narrowed to the name and a type) finds it.
   */
  @Test
  void aSecretTheWatchHasNotDeliveredYetIsAskedOfTheApiWithinBounds() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).namespace("demo").build();
           KubeConfigSource cacheOnly = KubeConfigSource.builder(client, c -> { }).namespace("demo")
               .secretLookupTime(Duration.ZERO).build()) {
        source.start();
        cacheOnly.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty() && cacheOnly.hasSynced());
        GatewayConfig input = configs.get(configs.size() - 1);
        api.holdWatchEvents("/secrets");
        secret(admin, "demo", "late-tls", "kubernetes.io/tls");
        secret(admin, "demo", "late-ca", "Opaque");
        secret(admin, "demo", "late-token", "kubernetes.io/service-account-token");
        secret(admin, "unwatched", "far-tls", "kubernetes.io/tls");
        GatewayConfig reviewed = input.toBuilder().add(object("gateway.networking.k8s.io", "Gateway", "edge", """
            spec:
              gatewayClassName: holdfast
              listeners:
              - {name: a, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: late-tls}]}}
              - {name: b, port: 444, protocol: HTTPS, tls: {certificateRefs: [{name: late-ca}]}}
              - {name: c, port: 445, protocol: HTTPS, tls: {certificateRefs: [{name: late-token}]}}
              - {name: d, port: 446, protocol: HTTPS, tls: {certificateRefs: [{name: far-tls, namespace: unwatched}]}}
              - {name: e, port: 447, protocol: HTTPS, tls: {certificateRefs: [{name: not-there}]}}
            """)).build();
        ResourceKey edge = key("gateway.networking.k8s.io", "Gateway", "edge");

        assertThat(cacheOnly.withNamedSecrets(reviewed, edge)).as("the window: the cache has not seen them")
            .isSameAs(reviewed);
        int before = lookups(api).size();
        GatewayConfig completed = source.withNamedSecrets(reviewed, edge);
        assertThat(completed.secrets().keySet()).as("found by asking the API; not another type, not unwatched")
            .containsExactlyInAnyOrder(TlsSecretData.secretKey("demo", "late-tls"),
                TlsSecretData.secretKey("demo", "late-ca"));
        assertThat(completed.secretOf(TlsSecretData.secretKey("demo", "late-tls")).orElseThrow().entries())
            .containsEntry("tls.crt", "CERT late-tls");
        List<ApiRequest> made = lookups(api).subList(before, lookups(api).size());
        // late-tls: 1 (tls); late-ca: 2 (tls, Opaque); late-token: 2, not-there: 2 (neither type has it); far-tls: 0.
        assertThat(made).hasSize(7).allSatisfy(r -> {
          assertThat(r.resourcePath()).isEqualTo("/api/v1/namespaces/demo/secrets");
          assertThat(r.query("fieldSelector").orElseThrow())
              .matches("metadata\\.name=[a-z-]+,type=(kubernetes\\.io/tls|Opaque)");
        });
        assertThat(configs.get(configs.size() - 1).secrets()).as("never the source's own input").isEmpty();

        // An object naming many missing Secrets: at most MAX_REQUESTS_PER_CHECK requests; the rest stay misses.
        StringBuilder many = new StringBuilder("spec:\n  gatewayClassName: holdfast\n  listeners:\n");
        for (int i = 0; i < 12; i++) {
          many.append("  - {name: l").append(i).append(", port: ").append(500 + i)
              .append(", protocol: HTTPS, tls: {certificateRefs: [{name: gone-").append(i).append("}]}}\n");
        }
        GatewayConfig crowded = input.toBuilder().add(object("gateway.networking.k8s.io", "Gateway", "many",
            many.toString())).build();
        int beforeMany = lookups(api).size();
        assertThat(source.withNamedSecrets(crowded, key("gateway.networking.k8s.io", "Gateway", "many")))
            .isSameAs(crowded);
        assertThat(lookups(api).size() - beforeMany).isEqualTo(SecretLookup.MAX_REQUESTS_PER_CHECK);

        // Once delivered, the cache has them and nothing is asked.
        api.releaseWatchEvents();
        await().atMost(WAIT).until(() -> cacheOnly.withNamedSecrets(reviewed, edge).secrets().size() == 2);
        int afterRelease = lookups(api).size();
        GatewayConfig cached = source.withNamedSecrets(input.toBuilder().add(object("gateway.networking.k8s.io",
            "Gateway", "edge", "spec: {listeners: [{name: a, port: 443, protocol: HTTPS,"
                + " tls: {certificateRefs: [{name: late-tls}]}}]}")).build(), edge);
        assertThat(cached.secrets()).containsKey(TlsSecretData.secretKey("demo", "late-tls"));
        assertThat(lookups(api)).hasSize(afterRelease);
      }
    }
  }

  /** API away (a black hole: connections open, nothing answers): the lookups end within their time, as misses. */
  @Test
  void anApiThatDoesNotAnswerCostsAtMostTheLookupTime() {
    try (MockKubeApi api = MockKubeApi.start();
         FaultProxy proxy = FaultProxy.start("api", api.port());
         KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(
             MockKubeApi.configFor(proxy.port())).withRequestTimeout(5_000).withConnectionTimeout(5_000).build())
             .build()) {
      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      Duration lookupTime = Duration.ofMillis(800);
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).namespace("demo")
          .probeInterval(Duration.ofMinutes(10)).secretLookupTime(lookupTime).build()) {
        source.start();
        await().atMost(WAIT).until(() -> !configs.isEmpty());
        int before = lookups(api).size();
        proxy.blackhole();
        secret(api.admin(), "demo", "late-tls", "kubernetes.io/tls");
        GatewayConfig reviewed = configs.get(configs.size() - 1).toBuilder().add(object("gateway.networking.k8s.io",
            "Gateway", "edge", """
                spec:
                  listeners:
                  - {name: a, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: late-tls}]}}
                  - {name: b, port: 444, protocol: HTTPS, tls: {certificateRefs: [{name: absent-2}]}}
                  - {name: c, port: 445, protocol: HTTPS, tls: {certificateRefs: [{name: absent-3}]}}
                """)).build();
        long begin = System.nanoTime();
        GatewayConfig completed = source.withNamedSecrets(reviewed, key("gateway.networking.k8s.io", "Gateway",
            "edge"));
        Duration took = Duration.ofNanos(System.nanoTime() - begin);
        assertThat(completed).as("a miss stays a miss").isSameAs(reviewed);
        assertThat(took).as("one request's timeout (half the time), then no more").isLessThan(lookupTime);
        assertThat(lookups(api)).as("none reached the API").hasSize(before);
      }
    }
  }

  private static List<ApiRequest> lookups(MockKubeApi api) {
    return api.requests().stream().filter(r -> r.resourcePath().endsWith("/secrets") && !r.isWatch()
        && r.query("fieldSelector").orElse("").contains("metadata.name=")).toList();
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
