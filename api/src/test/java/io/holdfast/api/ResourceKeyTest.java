package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ResourceKeyTest {

  /** The string form statuses, golden files and /state show for Holdfast's kinds does not change with the group. */
  @Test
  void holdfastAndCoreKeysKeepTheirStringForm() {
    assertThat(ResourceKey.upstream("default", "echo")).hasToString("Upstream/default/echo");
    assertThat(ResourceKey.upstream("default", "echo").group()).isEqualTo(ResourceKey.HOLDFAST_GROUP);
    assertThat(ResourceKey.core("Service", "demo", "echo")).hasToString("Service/demo/echo");
  }

  @Test
  void kindsOfTheSameNameInTwoGroupsAreDifferentKeys() {
    ResourceKey holdfast = ResourceKey.gateway("demo", "edge");
    ResourceKey gatewayApi = new ResourceKey("gateway.networking.k8s.io", "Gateway", "demo", "edge");
    assertThat(gatewayApi).isNotEqualTo(holdfast).hasToString("Gateway.gateway.networking.k8s.io/demo/edge");
    assertThat(new TreeSet<>(List.of(gatewayApi, holdfast))).hasSize(2);
  }

  @Test
  void ordersByKindNamespaceAndNameBeforeGroup() {
    ResourceKey a = ResourceKey.upstream("a", "z");
    ResourceKey b = ResourceKey.core("Upstream", "b", "a");
    ResourceKey c = ResourceKey.virtualService("a", "a");
    assertThat(new TreeSet<>(List.of(c, b, a))).containsExactly(a, b, c);
  }
}
