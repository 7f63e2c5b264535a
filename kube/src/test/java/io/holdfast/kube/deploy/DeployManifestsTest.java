package io.holdfast.kube.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every manifest under deploy/ parses and matches what Holdfast needs, and grants nothing more. */
class DeployManifestsTest {
  private static final Path DEPLOY = Path.of("..", "deploy");
  private static final List<HasMetadata> ALL = load();

  private static List<HasMetadata> load() {
    KubernetesSerialization serialization = new KubernetesSerialization();
    List<HasMetadata> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(DEPLOY)) {
      // kustomization.yaml is kustomize's input, not an object (server's KustomizeTest renders it).
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml"))
          .filter(p -> !p.getFileName().toString().equals("kustomization.yaml")).sorted().toList()) {
        try (InputStream in = Files.newInputStream(f)) {
          Object parsed = serialization.unmarshal(in);
          if (parsed instanceof List<?> list) {
            list.forEach(o -> out.add((HasMetadata) o));
          } else {
            out.add((HasMetadata) parsed);
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  private static <T extends HasMetadata> List<T> of(Class<T> type) {
    return ALL.stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void everyExpectedKindIsThere() {
    Set<String> kinds = new TreeSet<>();
    ALL.forEach(r -> kinds.add(r.getKind()));
    assertThat(kinds).containsExactlyInAnyOrder("Namespace", "ServiceAccount", "Role", "RoleBinding", "ClusterRole",
        "ClusterRoleBinding", "Deployment", "PodDisruptionBudget", "Service", "NetworkPolicy");
    assertThat(of(ServiceAccount.class)).singleElement().extracting(s -> s.getMetadata().getNamespace())
        .isEqualTo("holdfast-system");
  }

  @Test
  void rbacIsExactlyTheLeastPrivilegeListed() {
    Role role = of(Role.class).get(0);
    assertThat(role.getMetadata().getNamespace()).isEqualTo("holdfast-system");
    assertThat(rules(role.getRules())).containsExactly("coordination.k8s.io/leases:create,get,list,update,watch");
    // Derived from a real run's requests: RbacRequestRecordTest (server) checks each against these rules.
    assertThat(rules(of(ClusterRole.class).get(0).getRules())).containsExactlyInAnyOrder(
        "gateway.holdfast.io/gateways:get,list,watch",
        "gateway.holdfast.io/virtualservices:get,list,watch",
        "gateway.holdfast.io/upstreams:get,list,watch",
        "gateway.holdfast.io/tcpgateways:get,list,watch",
        "gateway.holdfast.io/routetables:get,list,watch",
        "gateway.holdfast.io/clienttrafficpolicies:get,list,watch",
        "gateway.holdfast.io/trafficpolicies:get,list,watch",
        "gateway.holdfast.io/securitypolicies:get,list,watch",
        "/services:list,watch",
        "/secrets:list,watch",
        "discovery.k8s.io/endpointslices:list,watch",
        "/pods:list,watch",
        "gateway.holdfast.io/gateways/status:update",
        "gateway.holdfast.io/virtualservices/status:update",
        "gateway.holdfast.io/upstreams/status:update",
        "gateway.holdfast.io/tcpgateways/status:update",
        "gateway.holdfast.io/routetables/status:update",
        "gateway.holdfast.io/clienttrafficpolicies/status:update",
        "gateway.holdfast.io/trafficpolicies/status:update",
        "gateway.holdfast.io/securitypolicies/status:update",
        "gateway.networking.k8s.io/gatewayclasses:get,list,watch",
        "gateway.networking.k8s.io/gateways:get,list,watch",
        "gateway.networking.k8s.io/httproutes:get,list,watch",
        "gateway.networking.k8s.io/grpcroutes:get,list,watch",
        "gateway.networking.k8s.io/tlsroutes:get,list,watch",
        "gateway.networking.k8s.io/tcproutes:get,list,watch",
        "gateway.networking.k8s.io/referencegrants:list,watch",
        "gateway.networking.k8s.io/gatewayclasses/status:update",
        "gateway.networking.k8s.io/gateways/status:update",
        "gateway.networking.k8s.io/httproutes/status:update",
        "gateway.networking.k8s.io/grpcroutes/status:update",
        "gateway.networking.k8s.io/tlsroutes/status:update",
        "gateway.networking.k8s.io/tcproutes/status:update",
        // Gloo Edge's kinds: no status subresource in their CRDs, so the status write updates the object.
        "gateway.solo.io/gateways:get,list,update,watch",
        "gateway.solo.io/virtualservices:get,list,update,watch",
        "gateway.solo.io/routetables:get,list,update,watch",
        "gateway.solo.io/virtualhostoptions:get,list,update,watch",
        "gateway.solo.io/routeoptions:get,list,update,watch",
        "gloo.solo.io/upstreams:get,list,update,watch",
        "gloo.solo.io/upstreamgroups:get,list,update,watch",
        "gloo.solo.io/settings:get,list,update,watch",
        "enterprise.gloo.solo.io/authconfigs:get,list,update,watch",
        "ratelimit.solo.io/ratelimitconfigs:list,watch",
        "/namespaces:list,watch");
    RoleBinding rb = of(RoleBinding.class).get(0);
    assertThat(rb.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(rb.getSubjects()).singleElement().satisfies(s -> assertThat(s.getName()).isEqualTo("holdfast"));
    ClusterRoleBinding crb = of(ClusterRoleBinding.class).get(0);
    assertThat(crb.getRoleRef().getName()).isEqualTo(of(ClusterRole.class).get(0).getMetadata().getName());
    assertThat(crb.getSubjects()).singleElement().satisfies(s -> assertThat(s.getNamespace()).isEqualTo("holdfast-system"));
  }

  /** One string per (group, resource) with its sorted verbs, so a broadened rule changes the set. */
  private static List<String> rules(List<PolicyRule> rules) {
    List<String> out = new ArrayList<>();
    for (PolicyRule r : rules) {
      assertThat(r.getResourceNames()).as("no resourceNames expected").isNullOrEmpty();
      for (String group : r.getApiGroups()) {
        for (String resource : r.getResources()) {
          out.add(group + "/" + resource + ":" + String.join(",", new TreeSet<>(r.getVerbs())));
        }
      }
    }
    return out;
  }

  @Test
  void theDeploymentRunsThreeReplicasWithProbesDownwardApiAndTheSnapshotVolume() {
    Deployment d = of(Deployment.class).get(0);
    assertThat(d.getSpec().getReplicas()).isEqualTo(3);
    var pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo("holdfast");
    Container c = pod.getContainers().get(0);
    assertThat(c.getArgs()).contains("serve", "--kubernetes", "--snapshot-dir=/var/lib/holdfast");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(c.getReadinessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("admin");
    assertThat(c.getPorts()).anySatisfy(p -> {
      assertThat(p.getName()).isEqualTo("admin");
      assertThat(p.getContainerPort()).isEqualTo(9091);
    }).anySatisfy(p -> {
      assertThat(p.getName()).isEqualTo("xds");
      assertThat(p.getContainerPort()).isEqualTo(18000);
    });
    assertThat(c.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("POD_NAME");
      assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
    }).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("POD_NAMESPACE");
      assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.namespace");
    });
    assertThat(c.getVolumeMounts()).filteredOn(m -> m.getMountPath().equals("/var/lib/holdfast")).singleElement()
        .satisfies(m -> assertThat(pod.getVolumes()).anySatisfy(v -> {
          assertThat(v.getName()).isEqualTo(m.getName());
          assertThat(v.getEmptyDir()).isNotNull();
        }));
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
  }

  @Test
  void theBudgetAndTheServiceSelectTheDeploymentsPods() {
    var podLabels = of(Deployment.class).get(0).getSpec().getTemplate().getMetadata().getLabels();
    PodDisruptionBudget pdb = of(PodDisruptionBudget.class).get(0);
    assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(2);
    assertThat(podLabels).containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
    // holdfast-xds (proxies), holdfast-admin and the headless holdfast-replicas (the status page, `holdfast status`).
    assertThat(of(Service.class)).extracting(s -> s.getMetadata().getName())
        .containsExactlyInAnyOrder("holdfast-admin", "holdfast-replicas", "holdfast-xds");
    assertThat(of(Service.class)).allSatisfy(s -> assertThat(podLabels).containsAllEntriesOf(s.getSpec().getSelector()));
    Service svc = of(Service.class).stream().filter(s -> s.getMetadata().getName().equals("holdfast-xds")).findFirst()
        .orElseThrow();
    assertThat(svc.getSpec().getPorts()).singleElement().satisfies(p -> assertThat(p.getPort()).isEqualTo(18000));
    assertThat(of(Service.class).stream().filter(s -> !s.getMetadata().getName().equals("holdfast-xds")))
        .allSatisfy(s -> assertThat(s.getSpec().getPorts()).singleElement()
            .satisfies(p -> assertThat(p.getTargetPort().getStrVal()).isEqualTo("admin")));
  }
}
