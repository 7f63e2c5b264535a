package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HoldfastKindsTest {

  @Test
  void everyKindHasItsPluralInTheHoldfastGroup() {
    assertThat(HoldfastKinds.ALL).extracting(k -> k.kind() + "=" + k.plural())
        .containsExactly("Upstream=upstreams", "VirtualService=virtualservices", "Gateway=gateways",
            "TcpGateway=tcpgateways", "RouteTable=routetables");
    assertThat(HoldfastKinds.API_VERSION).isEqualTo("gateway.holdfast.io/v1");
    assertThat(GatewayResource.API_VERSION).isEqualTo(HoldfastKinds.API_VERSION);
  }

  @Test
  void findAndIsHoldfastTellHoldfastsKindsFromOthers() {
    assertThat(HoldfastKinds.find("VirtualService")).contains(HoldfastKinds.VIRTUAL_SERVICE);
    assertThat(HoldfastKinds.find("Service")).isEmpty();
    assertThat(HoldfastKinds.isHoldfast(new ResourceKey("Gateway", "ns", "gw"))).isTrue();
    assertThat(HoldfastKinds.isHoldfast(new ResourceKey("gateway.networking.k8s.io", "Gateway", "ns", "gw")))
        .as("the Gateway API's Gateway").isFalse();
    assertThat(HoldfastKinds.isHoldfast(new ResourceKey(ResourceKey.CORE_GROUP, "Service", "ns", "s"))).isFalse();
  }
}
