package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The emulated API filters lists and watches by a field selector on a Secret's {@code type}, as a real API server
 * does (fabric8's mock alone serves every Secret for {@code type=kubernetes.io/tls} and none for
 * {@code type=Opaque}), and records every request it receives.
 */
class MockKubeApiFieldSelectorTest {

  static Secret secret(String namespace, String name, String type) {
    return new SecretBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withType(type).withData(Map.of("k", "dg==")).build();
  }

  private static List<String> names(List<Secret> secrets) {
    return secrets.stream().map(s -> s.getMetadata().getName()).sorted().toList();
  }

  @Test
  void aListWithATypeSelectorServesOnlyThatType() {
    try (MockKubeApi api = MockKubeApi.start()) {
      var secrets = api.admin().secrets().inNamespace("a");
      secrets.resource(secret("a", "cert", "kubernetes.io/tls")).create();
      secrets.resource(secret("a", "bundle", "Opaque")).create();
      secrets.resource(secret("a", "token", "kubernetes.io/service-account-token")).create();

      assertThat(names(secrets.withField("type", "kubernetes.io/tls").list().getItems())).containsExactly("cert");
      assertThat(names(secrets.withField("type", "Opaque").list().getItems())).containsExactly("bundle");
      assertThat(names(secrets.withoutField("type", "Opaque").list().getItems())).containsExactly("cert", "token");
      // Selectors the mock knows still work, alone and together with one it does not.
      assertThat(names(secrets.withField("metadata.name", "token").list().getItems())).containsExactly("token");
      assertThat(names(secrets.withField("metadata.name", "token").withField("type", "Opaque").list().getItems()))
          .isEmpty();
      assertThat(names(secrets.list().getItems())).containsExactly("bundle", "cert", "token");
      // A Secret written without a type is Opaque, as a real API server defaults it.
      secrets.resource(secret("a", "untyped", null)).create();
      assertThat(names(secrets.withField("type", "Opaque").list().getItems())).containsExactly("bundle", "untyped");
    }
  }

  @Test
  void aWatchWithATypeSelectorSeesOnlyThatTypeAndTheRequestsAreRecorded() {
    try (MockKubeApi api = MockKubeApi.start()) {
      var secrets = api.admin().secrets().inNamespace("a");
      secrets.resource(secret("a", "before-tls", "kubernetes.io/tls")).create();
      secrets.resource(secret("a", "before-token", "kubernetes.io/service-account-token")).create();
      SharedIndexInformer<Secret> informer = secrets.withField("type", "kubernetes.io/tls").inform();
      try {
        await().atMost(Duration.ofSeconds(10)).until(informer::isWatching);
        secrets.resource(secret("a", "after-token", "kubernetes.io/service-account-token")).create();
        secrets.resource(secret("a", "after-opaque", "Opaque")).create();
        secrets.resource(secret("a", "after-tls", "kubernetes.io/tls")).create();
        await().atMost(Duration.ofSeconds(10))
            .until(() -> informer.getStore().getByKey("a/after-tls") != null);
        // Events arrive in order on one watch: the others, created before, would be in the cache by now.
        assertThat(names(informer.getStore().list())).containsExactly("after-tls", "before-tls");
      } finally {
        informer.stop();
      }
      List<ApiRequest> reads = api.requests().stream()
          .filter(r -> r.resourcePath().equals("/api/v1/namespaces/a/secrets") && r.method().equals("GET"))
          .toList();
      assertThat(reads).anyMatch(ApiRequest::isWatch).anyMatch(r -> !r.isWatch());
      assertThat(reads).allSatisfy(r -> assertThat(r.query("fieldSelector")).contains("type=kubernetes.io/tls"));
    }
  }
}
