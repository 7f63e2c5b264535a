package io.holdfast.kube.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.kube.source.KubeConfigSource;
import io.holdfast.testkit.ApiRequest;
import io.holdfast.testkit.RbacRules;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The two RBAC variants in deploy/ agree and grant no more than Holdfast needs: the cluster-wide ClusterRole
 * (deploy/rbac.yaml) and the namespaced variant (deploy/rbac-namespaced/: one Role per watched namespace, a small
 * ClusterRole for what is cluster-scoped). That every request of a real run is allowed by them is checked by
 * RbacRequestRecordTest in the server module, which runs a Kubernetes-mode server on the emulated API.
 */
class RbacManifestsTest {
  private static final Path DEPLOY = Path.of("..", "deploy");
  private static final Path NAMESPACED = DEPLOY.resolve("rbac-namespaced");
  private static final String SA_NAMESPACE = "holdfast-system";
  private static final String SA = "holdfast";
  /** Kinds that are cluster-scoped: the only ones the namespaced variant grants cluster-wide. */
  private static final Set<String> CLUSTER_SCOPED = Set.of("gateway.networking.k8s.io/gatewayclasses",
      "gateway.networking.k8s.io/gatewayclasses/status", "/namespaces");

  private static List<HasMetadata> load(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      Object parsed = new KubernetesSerialization().unmarshal(in);
      List<HasMetadata> out = new ArrayList<>();
      if (parsed instanceof List<?> list) {
        list.forEach(o -> out.add((HasMetadata) o));
      } else {
        out.add((HasMetadata) parsed);
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<HasMetadata> namespaced() {
    try (Stream<Path> files = Files.list(NAMESPACED)) {
      List<HasMetadata> out = new ArrayList<>();
      files.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(f -> out.addAll(load(f)));
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static <T extends HasMetadata> List<T> of(List<HasMetadata> all, Class<T> type) {
    return all.stream().filter(type::isInstance).map(type::cast).toList();
  }

  /** {@code group/resource:verb} per granted pair, with {@code [names]} when restricted to resourceNames. */
  private static Set<String> grants(List<PolicyRule> rules) {
    Set<String> out = new TreeSet<>();
    for (PolicyRule r : rules) {
      String names = r.getResourceNames() == null || r.getResourceNames().isEmpty() ? ""
          : new TreeSet<>(r.getResourceNames()).toString();
      for (String group : r.getApiGroups()) {
        for (String resource : r.getResources()) {
          for (String verb : r.getVerbs()) {
            out.add(group + "/" + resource + names + ":" + verb);
          }
        }
      }
    }
    return out;
  }

  private static Set<String> watchedNamespaces(List<HasMetadata> all) {
    Set<String> out = new TreeSet<>();
    of(all, Role.class).stream().map(r -> r.getMetadata().getNamespace()).filter(ns -> !ns.equals(SA_NAMESPACE))
        .forEach(out::add);
    return out;
  }

  @Test
  void noVariantGrantsWildcardsWritesToObjectsOrSecretsByName() {
    List<HasMetadata> all = new ArrayList<>(load(DEPLOY.resolve("rbac.yaml")));
    all.addAll(namespaced());
    Set<String> every = new TreeSet<>();
    of(all, ClusterRole.class).forEach(r -> every.addAll(grants(r.getRules())));
    of(all, Role.class).forEach(r -> every.addAll(grants(r.getRules())));
    assertThat(every).noneMatch(g -> g.contains("*"));
    assertThat(every).filteredOn(g -> g.startsWith("/secrets")).containsOnly("/secrets:list", "/secrets:watch");
    // Writes: status subresources (update), and the Lease; never patch or delete. An object itself only where its
    // kind has no status subresource: Gloo Edge's (its status is written through the object, as Gloo does).
    assertThat(every).filteredOn(g -> g.matches(".*:(create|update|patch|delete|deletecollection)"))
        .allMatch(g -> g.matches(".*/status:update") || g.matches("coordination\\.k8s\\.io/leases:(create|update)")
            || g.matches("(gateway\\.solo\\.io|gloo\\.solo\\.io|enterprise\\.gloo\\.solo\\.io)/[a-z]+:update"));
  }

  @Test
  void theNamespacedVariantHasOneIdenticalRolePerNamespaceEachBoundToHoldfast() {
    List<HasMetadata> all = namespaced();
    Set<String> namespaces = watchedNamespaces(all);
    assertThat(namespaces).as("the example").containsExactly("team-a", "team-b")
        .hasSizeLessThanOrEqualTo(KubeConfigSource.MAX_NAMESPACES);
    List<Role> roles = of(all, Role.class).stream().filter(r -> namespaces.contains(r.getMetadata().getNamespace()))
        .toList();
    assertThat(roles).extracting(r -> grants(r.getRules())).containsOnly(grants(roles.get(0).getRules()));
    for (String ns : namespaces) {
      assertThat(of(all, RoleBinding.class)).filteredOn(b -> b.getMetadata().getNamespace().equals(ns))
          .singleElement().satisfies(b -> {
            assertThat(b.getRoleRef().getKind()).isEqualTo("Role");
            assertThat(b.getSubjects()).singleElement().satisfies(s -> {
              assertThat(s.getName()).isEqualTo(SA);
              assertThat(s.getNamespace()).isEqualTo(SA_NAMESPACE);
            });
          });
    }
  }

  @Test
  void theNamespacedVariantGrantsClusterWideOnlyClusterScopedKindsAndTheWatchedNamespacesByName() {
    List<HasMetadata> all = namespaced();
    Set<String> namespaces = watchedNamespaces(all);
    ClusterRole cluster = of(all, ClusterRole.class).get(0);
    assertThat(of(all, ClusterRole.class)).hasSize(1);
    assertThat(of(all, ClusterRoleBinding.class)).singleElement()
        .satisfies(b -> assertThat(b.getRoleRef().getName()).isEqualTo(cluster.getMetadata().getName()));
    assertThat(grants(cluster.getRules())).allSatisfy(g -> assertThat(CLUSTER_SCOPED)
        .contains(g.replaceAll("\\[.*]", "").replaceAll(":.*", "")));
    assertThat(grants(cluster.getRules())).contains("/namespaces" + namespaces + ":list",
        "/namespaces" + namespaces + ":watch");
    // What a server with --watch-namespace=team-a,team-b asks for, as RbacRules reads it.
    RbacRules rules = RbacRules.forServiceAccount(all, SA_NAMESPACE, SA);
    assertThat(rules.allows(get("/api/v1/namespaces/team-a/secrets?fieldSelector=type%3Dkubernetes.io%2Ftls")))
        .isTrue();
    // The webhook's lookup of a Secret its cache lacks yet: a list narrowed to one name and type (no get).
    assertThat(rules.allows(get("/api/v1/namespaces/team-a/secrets?fieldSelector=metadata.name%3Dweb-tls"
        + "%2Ctype%3Dkubernetes.io%2Ftls"))).isTrue();
    assertThat(rules.allows(get("/api/v1/namespaces/team-a/secrets/web-tls"))).isFalse();
    assertThat(rules.allows(get("/api/v1/namespaces/team-c/secrets"))).isFalse();
    assertThat(rules.allows(get("/api/v1/secrets"))).isFalse();
    assertThat(rules.allows(get("/api/v1/namespaces?fieldSelector=metadata.name%3Dteam-b"))).isTrue();
    assertThat(rules.allows(get("/api/v1/namespaces"))).as("every Namespace").isFalse();
  }

  @Test
  void theNamespacedRolesGrantWhatTheClusterRoleGrantsMinusTheClusterScopedKinds() {
    Set<String> clusterWide = grants(of(load(DEPLOY.resolve("rbac.yaml")), ClusterRole.class).get(0).getRules());
    clusterWide.removeIf(g -> CLUSTER_SCOPED.contains(g.replaceAll(":.*", "")));
    List<HasMetadata> all = namespaced();
    Role role = of(all, Role.class).stream().filter(r -> r.getMetadata().getNamespace().equals("team-a"))
        .findFirst().orElseThrow();
    assertThat(grants(role.getRules())).isEqualTo(clusterWide);
    // The leader-election Role is the same in both.
    assertThat(of(all, Role.class)).filteredOn(r -> r.getMetadata().getNamespace().equals(SA_NAMESPACE))
        .singleElement().satisfies(r -> assertThat(grants(r.getRules())).isEqualTo(grants(
            of(load(DEPLOY.resolve("rbac.yaml")), Role.class).get(0).getRules())));
  }

  @Test
  void theDocumentedWatchNamespaceArgumentNamesTheSameNamespaces() throws IOException {
    Matcher m = Pattern.compile("--watch-namespace=([a-z0-9,-]+)")
        .matcher(Files.readString(NAMESPACED.resolve("rbac.yaml")));
    assertThat(m.find()).isTrue();
    assertThat(new TreeSet<>(List.of(m.group(1).split(",")))).isEqualTo(watchedNamespaces(namespaced()));
  }

  private static ApiRequest get(String path) {
    return new ApiRequest("", "GET", path, 200);
  }
}
