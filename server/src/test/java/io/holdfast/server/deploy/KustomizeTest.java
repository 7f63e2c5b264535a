package io.holdfast.server.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code kubectl kustomize deploy} renders, with every object in the apply order deploy/kustomization.yaml
 * documents (what an object needs is applied before it), the image that scripts/build-image.sh builds, and the
 * monitoring as Prometheus Operator objects; deploy/proxy renders too.
 */
class KustomizeTest {
  static final Path DEPLOY = Path.of("..", "deploy");

  /** The documented stages, in apply order (deploy/kustomization.yaml, README "Deploy"). */
  enum Stage {
    NAMESPACE, CRDS, RBAC, CERTIFICATES, CONFIG, DEPLOYMENT, SERVICES, DISRUPTION_BUDGET, NETWORK_POLICY, WEBHOOK,
    MONITORING
  }

  static Stage stage(HasMetadata object) {
    String name = object.getMetadata().getName();
    return switch (object.getKind()) {
      case "Namespace" -> Stage.NAMESPACE;
      case "CustomResourceDefinition" -> Stage.CRDS;
      case "ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding" -> Stage.RBAC;
      case "Secret", "Issuer", "ClusterIssuer", "Certificate" -> Stage.CERTIFICATES;
      case "ConfigMap" -> name.equals("holdfast-dashboard") ? Stage.MONITORING : Stage.CONFIG;
      case "Deployment" -> Stage.DEPLOYMENT;
      case "Service" -> name.equals("holdfast-webhook") ? Stage.WEBHOOK : Stage.SERVICES;
      case "PodDisruptionBudget" -> Stage.DISRUPTION_BUDGET;
      case "NetworkPolicy" -> Stage.NETWORK_POLICY;
      case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration" -> Stage.WEBHOOK;
      case "PrometheusRule", "PodMonitor", "ServiceMonitor" -> Stage.MONITORING;
      default -> throw new AssertionError("no documented stage for " + object.getKind() + " " + name);
    };
  }

  @Test
  void deployRendersInTheDocumentedApplyOrder() throws Exception {
    List<HasMetadata> objects = Kubectl.kustomize(DEPLOY);
    List<String> outOfOrder = new ArrayList<>();
    Stage last = Stage.NAMESPACE;
    Set<Stage> seen = new TreeSet<>();
    for (HasMetadata object : objects) {
      Stage stage = stage(object);
      if (stage.compareTo(last) < 0) {
        outOfOrder.add(object.getKind() + "/" + object.getMetadata().getName() + " (" + stage + ") after " + last);
      }
      last = stage.compareTo(last) > 0 ? stage : last;
      seen.add(stage);
    }
    assertThat(outOfOrder).isEmpty();
    // Every stage has objects but config: Holdfast's config is its CRDs' objects, which users apply.
    assertThat(seen).containsExactlyInAnyOrder(Set.of(Stage.values()).stream()
        .filter(s -> s != Stage.CONFIG).toArray(Stage[]::new));
    assertThat(objects.get(0).getKind()).isEqualTo("Namespace");
    assertThat(objects).filteredOn(o -> o.getKind().equals("CustomResourceDefinition")).hasSize(8);
  }

  @Test
  void everyNamespacedObjectIsInHoldfastSystem() throws Exception {
    for (HasMetadata object : Kubectl.kustomize(DEPLOY)) {
      boolean clusterScoped = Set.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding",
          "ValidatingWebhookConfiguration").contains(object.getKind());
      assertThat(object.getMetadata().getNamespace()).as(object.getKind() + "/" + object.getMetadata().getName())
          .isEqualTo(clusterScoped ? null : "holdfast-system");
    }
  }

  /** The image the Deployment runs is the one scripts/build-image.sh tags by default: holdfast:<POM version>. */
  @Test
  void theDeploymentRunsTheImageTheBuildMakes() throws Exception {
    Deployment deployment = Kubectl.kustomize(DEPLOY).stream().filter(Deployment.class::isInstance)
        .map(Deployment.class::cast).findFirst().orElseThrow();
    String image = deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    assertThat(image).isEqualTo("holdfast:" + pomVersion());
    assertThat(Files.readString(Path.of("..", "scripts", "build-image.sh")))
        .contains("holdfast:${TAG:-$version}");
  }

  @Test
  void monitoringIsAPrometheusRuleAPodMonitorAndTheDashboard() throws Exception {
    List<HasMetadata> objects = Kubectl.kustomize(DEPLOY);
    assertThat(objects).filteredOn(o -> o.getKind().equals("PrometheusRule"))
        .singleElement().extracting(o -> o.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(objects).filteredOn(o -> o.getKind().equals("PodMonitor")).hasSize(1);
    ConfigMap dashboard = objects.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
        .filter(c -> c.getMetadata().getName().equals("holdfast-dashboard")).findFirst().orElseThrow();
    assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
    assertThat(dashboard.getData().get("holdfast-dashboard.json"))
        .isEqualTo(Files.readString(DEPLOY.resolve("monitoring").resolve("holdfast-dashboard.json")));
  }

  @Test
  void theExampleProxyRendersWithItsBootstrap() throws Exception {
    List<HasMetadata> objects = Kubectl.kustomize(DEPLOY.resolve("proxy"));
    assertThat(objects.get(0).getKind()).isEqualTo("Namespace");
    ConfigMap bootstrap = objects.stream().filter(ConfigMap.class::isInstance).map(ConfigMap.class::cast)
        .findFirst().orElseThrow();
    assertThat(bootstrap.getData().get("envoy.yaml"))
        .isEqualTo(Files.readString(DEPLOY.resolve("proxy").resolve("envoy.yaml")));
    Deployment proxy = objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
        .findFirst().orElseThrow();
    // kustomize rewrote the reference to the generated (hash-suffixed) ConfigMap.
    assertThat(proxy.getSpec().getTemplate().getSpec().getVolumes())
        .anySatisfy(v -> assertThat(v.getConfigMap()).isNotNull()
            .extracting(c -> c.getName()).isEqualTo(bootstrap.getMetadata().getName()));
    assertThat(Map.copyOf(proxy.getMetadata().getLabels())).containsEntry("holdfast.io/xds-client", "true");
    assertThat(Map.copyOf(proxy.getSpec().getTemplate().getMetadata().getLabels()))
        .containsEntry("holdfast.io/xds-client", "true");
  }

  static String pomVersion() throws Exception {
    Matcher m = Pattern.compile("(?m)^  <version>([^<]+)</version>$")
        .matcher(Files.readString(Path.of("..", "pom.xml")));
    assertThat(m.find()).as("the root POM's <version>").isTrue();
    return m.group(1);
  }
}
