package io.holdfast.server.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.frontend.gloo.GlooKinds;
import io.holdfast.kube.source.GatewayCrds;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * deploy/crds-gloo: {@code kubectl kustomize} renders one definition per Gloo Edge kind Holdfast reads (GlooKinds),
 * each with the group, version, kind, plural, scope, short names and categories of Gloo's own CRD, no status
 * subresource where Holdfast writes the status (Gloo's have none), and RBAC for each; deploy/ itself ships none.
 */
class GlooCrdsTest {
  private static final Path GLOO_CRDS = KustomizeTest.DEPLOY.resolve("crds-gloo");

  /** Gloo's names for its kinds: short names and categories as solo-io/gloo's install/helm/gloo/crds defines them. */
  private record GlooNames(Set<String> shortNames, Set<String> categories) {
  }

  private static final Set<String> GLOO_GATEWAY = Set.of("gloo-gateway");
  private static final Map<String, GlooNames> GLOO = Map.of(
      "gateways.gateway.solo.io", new GlooNames(Set.of("gw", "ggw"), GLOO_GATEWAY),
      "virtualservices.gateway.solo.io", new GlooNames(Set.of("vs", "gvs"), GLOO_GATEWAY),
      "routetables.gateway.solo.io", new GlooNames(Set.of("rt", "grt"), GLOO_GATEWAY),
      "virtualhostoptions.gateway.solo.io", new GlooNames(Set.of("vho", "vhopts", "gvho"), GLOO_GATEWAY),
      "routeoptions.gateway.solo.io", new GlooNames(Set.of("rto", "rtopts", "grto"), GLOO_GATEWAY),
      "upstreams.gloo.solo.io", new GlooNames(Set.of("us", "gus"), GLOO_GATEWAY),
      "upstreamgroups.gloo.solo.io", new GlooNames(Set.of("ug", "gug"), GLOO_GATEWAY),
      "settings.gloo.solo.io", new GlooNames(Set.of("st", "gst"), GLOO_GATEWAY),
      "authconfigs.enterprise.gloo.solo.io", new GlooNames(Set.of("ac", "gac"), Set.of("solo-io", "gloo-gateway")),
      "ratelimitconfigs.ratelimit.solo.io", new GlooNames(Set.of("rlc", "grlc"), Set.of("solo-io", "gloo-gateway")));

  private static Map<String, CustomResourceDefinition> rendered() throws Exception {
    List<HasMetadata> objects = Kubectl.kustomize(GLOO_CRDS);
    assertThat(objects).allSatisfy(o -> assertThat(o).isInstanceOf(CustomResourceDefinition.class));
    return objects.stream().map(CustomResourceDefinition.class::cast)
        .collect(Collectors.toMap(c -> c.getMetadata().getName(), Function.identity()));
  }

  /** Every kind GlooKinds reads, as {@code group/version/Kind}. */
  private static Set<String> readKinds() {
    Set<String> out = new TreeSet<>();
    GlooKinds.GATEWAY_KINDS.forEach(k -> out.add(GlooKinds.GATEWAY_GROUP + "/" + GlooKinds.VERSION + "/" + k));
    GlooKinds.GLOO_KINDS.forEach(k -> out.add(GlooKinds.GLOO_GROUP + "/" + GlooKinds.VERSION + "/" + k));
    GlooKinds.ENTERPRISE_KINDS.forEach(k -> out.add(GlooKinds.ENTERPRISE_GROUP + "/" + GlooKinds.VERSION + "/" + k));
    GlooKinds.RATELIMIT_KINDS.forEach(k -> out.add(GlooKinds.RATELIMIT_GROUP + "/" + GlooKinds.RATELIMIT_VERSION
        + "/" + k));
    return out;
  }

  @Test
  void everyKindTheGlooFrontEndReadsHasADefinitionWithGloosNames() throws Exception {
    Map<String, CustomResourceDefinition> crds = rendered();
    Set<String> defined = new TreeSet<>();
    for (CustomResourceDefinition crd : crds.values()) {
      CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
      assertThat(crd.getSpec().getVersions()).as(crd.getMetadata().getName()).hasSize(1);
      assertThat(version.getServed() && version.getStorage()).isTrue();
      assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
      defined.add(crd.getSpec().getGroup() + "/" + version.getName() + "/" + crd.getSpec().getNames().getKind());
    }
    assertThat(defined).isEqualTo(readKinds());
    // The informers' plurals (GatewayCrds.GLOO) are the definitions' names, and every informer kind is defined.
    assertThat(crds.keySet()).containsExactlyInAnyOrderElementsOf(GatewayCrds.GLOO.stream()
        .map(k -> k.getPlural() + "." + k.getGroup()).toList());
    for (ResourceDefinitionContext kind : GatewayCrds.GLOO) {
      CustomResourceDefinition crd = crds.get(kind.getPlural() + "." + kind.getGroup());
      assertThat(crd.getSpec().getNames().getKind()).isEqualTo(kind.getKind());
      assertThat(crd.getSpec().getNames().getPlural()).isEqualTo(kind.getPlural());
      assertThat(crd.getSpec().getNames().getListKind()).isEqualTo(kind.getKind() + "List");
      assertThat(crd.getSpec().getVersions().get(0).getName()).isEqualTo(kind.getVersion());
    }
    crds.forEach((name, crd) -> {
      assertThat(Set.copyOf(crd.getSpec().getNames().getShortNames())).as(name).isEqualTo(GLOO.get(name).shortNames());
      assertThat(Set.copyOf(crd.getSpec().getNames().getCategories())).as(name).isEqualTo(GLOO.get(name).categories());
    });
  }

  /**
   * Where Holdfast writes Gloo's status shape, the definition has no status subresource, as Gloo's (the writer puts
   * the object), and its columns read that status; the rate limiter's RateLimitConfig keeps Gloo's subresource.
   */
  @Test
  void statusSubresourceAndColumnsFollowGloosDefinitions() throws Exception {
    rendered().forEach((name, crd) -> {
      CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
      boolean rateLimiter = crd.getSpec().getGroup().equals(GlooKinds.RATELIMIT_GROUP);
      assertThat(version.getSubresources() != null && version.getSubresources().getStatus() != null).as(name)
          .isEqualTo(rateLimiter);
      if (rateLimiter) {
        assertThat(version.getAdditionalPrinterColumns()).as(name).isNullOrEmpty();
      } else {
        assertThat(version.getAdditionalPrinterColumns()).as(name)
            .extracting(c -> c.getName() + " " + c.getJsonPath())
            .containsExactly("State .status.statuses.holdfast-system.state",
                "Reason .status.statuses.holdfast-system.reason", "Age .metadata.creationTimestamp");
        assertThat(version.getSchema().getOpenAPIV3Schema().getProperties().get("spec")
            .getXKubernetesPreserveUnknownFields()).as(name + ": spec kept as written").isTrue();
      }
    });
  }

  /** deploy/ never installs them: on a cluster moving from Gloo they would replace Gloo's own CRDs. */
  @Test
  void deployItselfShipsNoGlooDefinition() throws Exception {
    assertThat(Kubectl.kustomize(KustomizeTest.DEPLOY)).filteredOn(o -> o instanceof CustomResourceDefinition)
        .extracting(o -> ((CustomResourceDefinition) o).getSpec().getGroup()).containsOnly("gateway.holdfast.io");
  }

  /**
   * Both RBAC variants let Holdfast list and watch every defined kind, and update (its status write) exactly those
   * without a status subresource; nothing else is written.
   */
  @Test
  void bothRbacVariantsCoverEveryDefinedKind() throws Exception {
    Map<String, CustomResourceDefinition> crds = rendered();
    List<List<PolicyRule>> variants = new ArrayList<>();
    for (HasMetadata o : Kubectl.kustomize(KustomizeTest.DEPLOY)) {
      if (o instanceof ClusterRole role && role.getMetadata().getName().equals("holdfast")) {
        variants.add(role.getRules());
      }
    }
    for (HasMetadata o : load(KustomizeTest.DEPLOY.resolve("rbac-namespaced").resolve("team-a.yaml"))) {
      if (o instanceof Role role) {
        variants.add(role.getRules());
      }
    }
    assertThat(variants).hasSize(2);
    for (List<PolicyRule> rules : variants) {
      crds.values().forEach(crd -> {
        String group = crd.getSpec().getGroup();
        String plural = crd.getSpec().getNames().getPlural();
        CustomResourceDefinitionVersion version = crd.getSpec().getVersions().get(0);
        boolean subresource = version.getSubresources() != null && version.getSubresources().getStatus() != null;
        Set<String> expected = subresource ? Set.of("list", "watch") : Set.of("get", "list", "watch", "update");
        assertThat(verbs(rules, group, plural)).as(group + "/" + plural).isEqualTo(expected);
        assertThat(verbs(rules, group, plural + "/status")).as(group + "/" + plural + "/status").isEmpty();
      });
    }
  }

  private static Set<String> verbs(List<PolicyRule> rules, String group, String resource) {
    Set<String> out = new TreeSet<>();
    rules.stream().filter(r -> r.getApiGroups().contains(group) && r.getResources().contains(resource))
        .forEach(r -> out.addAll(r.getVerbs()));
    return out;
  }

  private static List<HasMetadata> load(Path file) throws Exception {
    try (InputStream in = Files.newInputStream(file)) {
      return Kubectl.objects(in);
    }
  }
}
