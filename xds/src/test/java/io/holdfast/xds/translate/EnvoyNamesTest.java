package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EnvoyNamesTest {

  /** Regression: every kind used to be named {@code ns/name}, so a Service and an Upstream collided. */
  @Test
  void clustersOfDifferentKindsWithTheSameNameDoNotCollide() {
    ResourceKey upstream = ResourceKey.upstream("demo", "echo");
    ResourceKey service = ResourceKey.core("Service", "demo", "echo");
    assertThat(EnvoyNames.cluster(upstream)).isEqualTo("demo/echo");
    assertThat(EnvoyNames.cluster(service)).isEqualTo("Service/demo/echo").isNotEqualTo(EnvoyNames.cluster(upstream));
  }

  @Test
  void listenersOfDifferentKindsWithTheSameNameDoNotCollide() {
    ResourceKey gateway = ResourceKey.gateway("demo", "edge");
    ResourceKey other = new ResourceKey("Listener", "demo", "edge");
    assertThat(EnvoyNames.listener(gateway)).isEqualTo("gateway/demo/edge");
    assertThat(EnvoyNames.listener(other)).isEqualTo("Listener/demo/edge");
  }

  /** A kind of the same name in another API group (the Gateway API's Gateway) is not named as Holdfast's. */
  @Test
  void aGatewayOfAnotherApiGroupIsNotNamedAsHoldfastsGateway() {
    ResourceKey holdfast = ResourceKey.gateway("demo", "edge");
    ResourceKey gatewayApi = new ResourceKey("gateway.networking.k8s.io", "Gateway", "demo", "edge");
    assertThat(gatewayApi).isNotEqualTo(holdfast);
    assertThat(EnvoyNames.listener(holdfast)).isEqualTo("gateway/demo/edge");
    assertThat(EnvoyNames.listener(gatewayApi)).isEqualTo("Gateway.gateway.networking.k8s.io/demo/edge");
  }

  @Test
  void namesOfEveryFormAreDistinct() {
    List<String> names = List.of(
        EnvoyNames.cluster(ResourceKey.upstream("gateway", "demo")),
        EnvoyNames.cluster(ResourceKey.core("Service", "gateway", "demo")),
        EnvoyNames.listener(ResourceKey.gateway("gateway", "demo")),
        EnvoyNames.listener(new ResourceKey("Gateway2", "gateway", "demo")),
        EnvoyNames.apiListener("gateway.demo"));
    Set<String> distinct = new HashSet<>(names);
    assertThat(distinct).hasSameSizeAs(names);
  }
}
