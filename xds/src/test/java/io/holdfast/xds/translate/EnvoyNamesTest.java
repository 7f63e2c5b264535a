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

  /** A Gateway API Gateway has a socket per port and a virtual host per hostname: names carry both. */
  @Test
  void socketsAndVirtualHostsOfOtherApisAreNamedPerPortAndDomain() {
    ResourceKey gatewayApi = new ResourceKey("gateway.networking.k8s.io", "Gateway", "demo", "edge");
    io.holdfast.ir.Origin origin = io.holdfast.ir.Origin.of(gatewayApi).at("spec.listeners[0]");
    io.holdfast.ir.Listener.Socket socket = new io.holdfast.ir.Listener.Socket(origin, "0.0.0.0", 8443, List.of(
        new io.holdfast.ir.Listener.FilterChain.Http(origin, "http", io.holdfast.ir.Listener.ChainMatch.ANY,
            java.util.Optional.empty(), List.of())));
    assertThat(EnvoyNames.socket(socket)).isEqualTo("Gateway.gateway.networking.k8s.io/demo/edge:8443");
    assertThat(EnvoyNames.virtualHost(new io.holdfast.ir.VirtualHost(origin, List.of("a.test", "b.test"),
        List.of()))).isEqualTo("Gateway.gateway.networking.k8s.io/demo/edge/a.test");
    ResourceKey holdfast = ResourceKey.gateway("demo", "edge");
    assertThat(EnvoyNames.socket(new io.holdfast.ir.Listener.Socket(io.holdfast.ir.Origin.of(holdfast), "0.0.0.0",
        8443, socket.filterChains()))).isEqualTo("gateway/demo/edge");
    assertThat(EnvoyNames.virtualHost(new io.holdfast.ir.VirtualHost(
        io.holdfast.ir.Origin.of(ResourceKey.virtualService("demo", "web")), List.of("a.test"), List.of())))
        .isEqualTo("demo/web");
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
