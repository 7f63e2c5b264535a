package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.holdfast.election.ElectionSettings;
import io.holdfast.pki.Pem;
import io.holdfast.pki.TestCertificates;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.MockKubeApi;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes mode with an HTTPS Gateway on the emulated API: the certificate of a {@code kubernetes.io/tls} Secret is
 * served as an SDS Secret, a rotated Secret is a new SDS version while the Listener stays byte-identical, and a
 * VirtualService naming a Secret that does not exist is written back as Accepted=False (SecretNotFound) by the
 * leader while the other keeps being served.
 */
class TlsKubernetesModeTest {
  private static final String NS = "demo";
  private static final String SECRET = "secret/demo/a-tls";
  private static final TestCertificates.Issued CA = TestCertificates.ca("kubernetes mode test CA");

  @Test
  void secretsAreServedRotatedAndAMissingOneIsWrittenAsRejected() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      for (String file : List.of("upstreams", "virtualservices", "gateways")) {
        try (InputStream in = Files.newInputStream(
            Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
          api.admin().apiextensions().v1().customResourceDefinitions()
              .resource(api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class))
              .create();
        }
      }
      TestCertificates.Issued first = TestCertificates.leaf(CA, "a", "a.test");
      putSecret(api, "a-tls", first);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: a, namespace: demo}
          spec:
            domains: [a.test]
            routes: [{name: ok, match: {prefix: /}, directResponse: {status: 200}}]
            sslConfig: {secretRef: {name: a-tls}}
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: b, namespace: demo}
          spec:
            domains: [b.test]
            routes: [{name: ok, match: {prefix: /}, directResponse: {status: 200}}]
            sslConfig: {secretRef: {name: not-there}}
          """);
      apply(api, """
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: secure, namespace: demo}
          spec: {port: 10443, bindAddress: 127.0.0.1, ssl: true}
          """);

      ElectionSettings election = ElectionSettings.builder().identity("r1").leaseNamespace("holdfast-system")
          .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
          .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
          .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
      ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
          LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(NS),
          Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election);
      try (HoldfastServer holdfast = HoldfastServer.start(settings, Clock.systemUTC())) {
        await().atMost(Duration.ofSeconds(30)).until(() -> served(holdfast).isPresent());
        assertThat(served(holdfast).get()).isEqualTo(first.certificate());
        Listener listener = listener(holdfast).orElseThrow();
        assertThat(listener.getFilterChainsList()).extracting(c -> List.copyOf(c.getFilterChainMatch().getServerNamesList()))
            .containsExactly(List.of("a.test"));

        await().atMost(Duration.ofSeconds(30)).until(() -> accepted(api, "b").isPresent()
            && accepted(api, "a").isPresent());
        assertThat(accepted(api, "b").get()).containsEntry("status", "False").containsEntry("reason", "SecretNotFound");
        assertThat(accepted(api, "a").get()).containsEntry("status", "True");

        TestCertificates.Issued renewed = TestCertificates.leaf(CA, "a renewed", "a.test");
        putSecret(api, "a-tls", renewed);
        await().atMost(Duration.ofSeconds(30)).until(() -> served(holdfast).map(renewed.certificate()::equals)
            .orElse(false));
        assertThat(listener(holdfast)).as("the listener names the secret; only the secret changed")
            .contains(listener);
      }
    }
  }

  private static void putSecret(MockKubeApi api, String name, TestCertificates.Issued issued) {
    api.admin().secrets().inNamespace(NS).resource(new SecretBuilder()
            .withNewMetadata().withNamespace(NS).withName(name).endMetadata()
            .withType("kubernetes.io/tls")
            .withData(Map.of("tls.crt", base64(issued.certificatePem()),
                "tls.key", base64(issued.traditionalPrivateKeyPem()))).build())
        .unlock().createOr(NonDeletingOperation::update);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static void apply(MockKubeApi api, String yaml) {
    GenericKubernetesResource resource =
        api.admin().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    api.admin().genericKubernetesResources(resource.getApiVersion(), resource.getKind()).inNamespace(NS)
        .resource(resource).create();
  }

  private static Optional<X509Certificate> served(HoldfastServer holdfast) {
    return holdfast.cache().currentSnapshot().map(s -> s.ofType(Resources.V3.SECRET_TYPE_URL).get(SECRET))
        .map(secret -> Pem.certificates(((Secret) secret).getTlsCertificate().getCertificateChain()
            .getInlineString()).get(0));
  }

  private static Optional<Listener> listener(HoldfastServer holdfast) {
    return holdfast.cache().currentSnapshot()
        .map(s -> (Listener) s.ofType(Resources.V3.LISTENER_TYPE_URL).get("gateway/demo/secure"));
  }

  /** The VirtualService's Accepted condition as written on the API, if any yet. */
  private static Optional<Map<String, String>> accepted(MockKubeApi api, String name) {
    GenericKubernetesResource r = api.admin().genericKubernetesResources("gateway.holdfast.io/v1", "VirtualService")
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
