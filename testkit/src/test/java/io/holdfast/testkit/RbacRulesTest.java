package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RBAC as the API server applies it: verbs from requests, namespaces of RoleBindings, resourceNames. */
class RbacRulesTest {
  private static final List<HasMetadata> MANIFESTS = List.of(
      new ClusterRoleBuilder().withNewMetadata().withName("reader").endMetadata()
          .withRules(new PolicyRuleBuilder().withApiGroups("gateway.holdfast.io").withResources("upstreams")
              .withVerbs("list", "watch").build(),
              new PolicyRuleBuilder().withApiGroups("gateway.holdfast.io").withResources("upstreams/status")
                  .withVerbs("update").build(),
              new PolicyRuleBuilder().withApiGroups("").withResources("namespaces").withResourceNames("a")
                  .withVerbs("list", "watch").build())
          .build(),
      new ClusterRoleBindingBuilder().withNewMetadata().withName("reader").endMetadata()
          .withNewRoleRef().withKind("ClusterRole").withName("reader").endRoleRef()
          .addNewSubject().withKind("ServiceAccount").withName("sa").withNamespace("sys").endSubject().build(),
      new RoleBuilder().withNewMetadata().withName("secrets").withNamespace("a").endMetadata()
          .withRules(new PolicyRuleBuilder().withApiGroups("").withResources("secrets").withVerbs("list", "watch")
              .build())
          .build(),
      new RoleBindingBuilder().withNewMetadata().withName("secrets").withNamespace("a").endMetadata()
          .withNewRoleRef().withKind("Role").withName("secrets").endRoleRef()
          .addNewSubject().withKind("ServiceAccount").withName("sa").withNamespace("sys").endSubject().build());

  private static final RbacRules SA = RbacRules.forServiceAccount(MANIFESTS, "sys", "sa");

  private static ApiRequest get(String path) {
    return new ApiRequest("", "GET", path, 200);
  }

  @Test
  void verbsFollowTheRequest() {
    assertThat(SA.allows(get("/apis/gateway.holdfast.io/v1/upstreams"))).isTrue();
    assertThat(SA.allows(get("/apis/gateway.holdfast.io/v1/namespaces/x/upstreams?watch=true"))).isTrue();
    assertThat(SA.allows(get("/apis/gateway.holdfast.io/v1/namespaces/x/upstreams/u"))).as("get").isFalse();
    assertThat(SA.allows(new ApiRequest("", "PUT", "/apis/gateway.holdfast.io/v1/namespaces/x/upstreams/u/status",
        200))).isTrue();
    assertThat(SA.allows(new ApiRequest("", "PATCH",
        "/apis/gateway.holdfast.io/v1/namespaces/x/upstreams/u/status", 200))).isFalse();
    assertThat(SA.allows(new ApiRequest("", "PUT", "/apis/gateway.holdfast.io/v1/namespaces/x/upstreams/u", 200)))
        .as("the object, not its status").isFalse();
  }

  @Test
  void aRoleBindingGrantsOnlyInItsNamespace() {
    assertThat(SA.allows(get("/api/v1/namespaces/a/secrets?fieldSelector=type%3Dkubernetes.io%2Ftls"))).isTrue();
    assertThat(SA.allows(get("/api/v1/namespaces/b/secrets"))).isFalse();
    assertThat(SA.allows(get("/api/v1/secrets"))).as("cluster-wide").isFalse();
    assertThat(RbacRules.forServiceAccount(MANIFESTS, "sys", "other").allows(get("/api/v1/namespaces/a/secrets")))
        .as("another subject").isFalse();
  }

  @Test
  void resourceNamesGrantAListOnlyWhenItSelectsThatName() {
    assertThat(SA.allows(get("/api/v1/namespaces?fieldSelector=metadata.name%3Da"))).isTrue();
    assertThat(SA.allows(get("/api/v1/namespaces?fieldSelector=metadata.name%3Db"))).isFalse();
    assertThat(SA.allows(get("/api/v1/namespaces"))).isFalse();
    assertThat(RbacRules.attributes(get("/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3Da")))
        .hasValueSatisfying(a -> assertThat(a.toString()).isEqualTo("watch core/namespaces (cluster) name a"));
  }

  @Test
  void discoveryIsAllowed() {
    assertThat(SA.allows(get("/version"))).isTrue();
    assertThat(SA.allows(get("/apis/gateway.networking.k8s.io/v1"))).isTrue();
    assertThat(RbacRules.attributes(get("/apis"))).isEmpty();
  }
}
