package io.holdfast.kube.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.kube.source.GatewayCrds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * deploy/webhook/ fits together and with deploy/: the configuration covers every Holdfast kind, fails open, and
 * reaches the pods' webhook port through the Service; cert-manager's Secret is the one the pods mount, its CA is
 * injected into the configuration, and the strict patch flips exactly the failure policy.
 */
class WebhookManifestsTest {
  private static final Path DEPLOY = Path.of("..", "deploy");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private static List<HasMetadata> load(Path file) throws IOException {
    List<HasMetadata> out = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      Object parsed = SERIALIZATION.unmarshal(in);
      if (parsed instanceof List<?> list) {
        list.forEach(o -> out.add((HasMetadata) o));
      } else {
        out.add((HasMetadata) parsed);
      }
    }
    return out;
  }

  private static <T> T one(List<HasMetadata> all, Class<T> type) {
    List<T> found = all.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  @Test
  void theConfigurationCoversEveryHoldfastKindAndFailsOpen() throws IOException {
    ValidatingWebhookConfiguration config = one(load(DEPLOY.resolve("webhook/webhook.yaml")),
        ValidatingWebhookConfiguration.class);
    assertThat(config.getWebhooks()).hasSize(1); // the strict patch addresses /webhooks/0
    ValidatingWebhook webhook = config.getWebhooks().get(0);
    assertThat(webhook.getFailurePolicy()).isEqualTo("Ignore");
    assertThat(webhook.getSideEffects()).isEqualTo("None");
    assertThat(webhook.getAdmissionReviewVersions()).containsExactly("v1");
    assertThat(webhook.getTimeoutSeconds()).isBetween(1, 30);
    assertThat(webhook.getClientConfig().getService().getPath()).isEqualTo("/validate");
    assertThat(webhook.getRules()).singleElement().satisfies(rule -> {
      assertThat(rule.getApiGroups()).containsExactly(HoldfastKinds.GROUP);
      assertThat(rule.getApiVersions()).containsExactly(HoldfastKinds.VERSION);
      assertThat(rule.getOperations()).containsExactlyInAnyOrder("CREATE", "UPDATE", "DELETE");
      List<String> plurals = new ArrayList<>(HoldfastKinds.ALL.stream().map(HoldfastKinds.Kind::plural).toList());
      // The Gateway API policy kinds share the group and version, and the webhook judges them too.
      GatewayCrds.POLICIES.forEach(policy -> plurals.add(policy.getPlural()));
      assertThat(rule.getResources()).containsExactlyInAnyOrderElementsOf(plurals);
    });
  }

  @Test
  @SuppressWarnings("unchecked")
  void theServiceReachesThePodsWebhookPortWithCertManagersSecret() throws IOException {
    List<HasMetadata> webhookFiles = load(DEPLOY.resolve("webhook/webhook.yaml"));
    ValidatingWebhookConfiguration config = one(webhookFiles, ValidatingWebhookConfiguration.class);
    Service service = one(webhookFiles, Service.class);
    var ref = config.getWebhooks().get(0).getClientConfig().getService();
    assertThat(ref.getName()).isEqualTo(service.getMetadata().getName());
    assertThat(ref.getNamespace()).isEqualTo(service.getMetadata().getNamespace());
    var servicePort = service.getSpec().getPorts().stream().filter(p -> p.getPort().equals(ref.getPort()))
        .findFirst().orElseThrow();

    Deployment deployment = one(load(DEPLOY.resolve("deployment.yaml")), Deployment.class);
    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(service.getSpec().getSelector());
    var pod = deployment.getSpec().getTemplate().getSpec();
    Container holdfast = pod.getContainers().get(0);
    var containerPort = holdfast.getPorts().stream()
        .filter(p -> p.getName().equals(servicePort.getTargetPort().getStrVal())).findFirst().orElseThrow();
    assertThat(holdfast.getArgs()).contains("--webhook-port=" + containerPort.getContainerPort());

    List<HasMetadata> certManager = load(DEPLOY.resolve("webhook/cert-manager.yaml"));
    GenericKubernetesResource certificate = certManager.stream().filter(r -> r.getKind().equals("Certificate"))
        .map(GenericKubernetesResource.class::cast).findFirst().orElseThrow();
    assertThat(config.getMetadata().getAnnotations()).containsEntry("cert-manager.io/inject-ca-from",
        certificate.getMetadata().getNamespace() + "/" + certificate.getMetadata().getName());
    Map<String, Object> spec = certificate.get("spec");
    assertThat((List<Object>) spec.get("dnsNames")).contains((Object) (
        service.getMetadata().getName() + "." + service.getMetadata().getNamespace() + ".svc"));
    Map<String, Object> issuerRef = (Map<String, Object>) spec.get("issuerRef");
    assertThat(certManager).anySatisfy(r -> {
      assertThat(r.getKind()).isEqualTo(issuerRef.get("kind"));
      assertThat(r.getMetadata().getName()).isEqualTo(issuerRef.get("name"));
    });
    // PKCS#8: the key form every Holdfast version reads.
    assertThat(certificate.<String>get("spec", "privateKey", "encoding")).isEqualTo("PKCS8");

    // The pod mounts several Secrets (xDS TLS, snapshot key): this one is cert-manager's.
    Volume secret = pod.getVolumes().stream().filter(v -> v.getSecret() != null
        && spec.get("secretName").equals(v.getSecret().getSecretName())).findFirst().orElseThrow();
    assertThat(secret.getSecret().getOptional()).isTrue();
    String mount = holdfast.getVolumeMounts().stream().filter(m -> m.getName().equals(secret.getName()))
        .findFirst().orElseThrow().getMountPath();
    assertThat(holdfast.getArgs()).contains("--webhook-tls-cert=" + mount + "/tls.crt",
        "--webhook-tls-key=" + mount + "/tls.key");
  }

  @Test
  void theStrictPatchSetsOnlyTheFailurePolicyToFail() throws IOException {
    JsonNode patch = new YAMLMapper().readTree(DEPLOY.resolve("webhook/strict/failure-policy-fail.yaml").toFile());
    assertThat(patch.isArray()).isTrue();
    assertThat(patch).singleElement().satisfies(op -> {
      assertThat(op.get("op").asString()).isEqualTo("replace");
      assertThat(op.get("path").asString()).isEqualTo("/webhooks/0/failurePolicy");
      assertThat(op.get("value").asString()).isEqualTo("Fail");
    });
  }
}
