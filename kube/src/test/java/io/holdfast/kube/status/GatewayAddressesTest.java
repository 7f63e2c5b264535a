package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LoadBalancerIngressBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.kube.status.GatewayAddresses.Address;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Gateways' {@code status.addresses}: what counts as an address, and how it lands in the status document. */
class GatewayAddressesTest {

  private static final ResourceKey GATEWAY = new ResourceKey("gateway.networking.k8s.io", "Gateway", "infra", "edge");

  @Test
  void statedAddressesAreTypedByTheirSyntax() {
    assertThat(GatewayAddresses.stated(List.of("192.0.2.5", "2001:db8::1", "gw.example.test")).current())
        .containsExactly(new Address(Address.Type.IPAddress, "192.0.2.5"),
            new Address(Address.Type.IPAddress, "2001:db8::1"), new Address(Address.Type.Hostname, "gw.example.test"));
  }

  @Test
  void aLoadBalancerIngressGivesItsIpElseItsHostname() {
    var service = new ServiceBuilder().withNewStatus().withNewLoadBalancer().withIngress(
        new LoadBalancerIngressBuilder().withIp("192.0.2.7").withHostname("ignored.example.test").build(),
        new LoadBalancerIngressBuilder().withHostname("lb.example.test").build(),
        new LoadBalancerIngressBuilder().build()).endLoadBalancer().endStatus().build();
    assertThat(GatewayAddresses.ingress(Optional.of(service))).containsExactly(
        new Address(Address.Type.IPAddress, "192.0.2.7"), new Address(Address.Type.Hostname, "lb.example.test"));
    assertThat(GatewayAddresses.ingress(Optional.empty())).isEmpty();
    assertThat(GatewayAddresses.ingress(Optional.of(new ServiceBuilder().build()))).isEmpty();
  }

  @Test
  void aGatewaysStatusCarriesTheAddressesAndKeepsTheExistingOnesWhenNoneAreKnown() {
    ObjectStatus status = new ObjectStatus(GATEWAY, 2, List.of(new Condition(Condition.ACCEPTED,
        Condition.Status.TRUE, "Accepted", "ok", 2)), List.of(), List.of());
    Instant now = Instant.parse("2026-12-04T00:00:00Z");

    Map<String, Object> written = GatewayApiStatusDocument.compute(status, List.of(Address.of("192.0.2.5"),
        Address.of("lb.example.test")), null, "holdfast.io/gateway-controller", now);
    assertThat(written.get("addresses")).isEqualTo(List.of(Map.of("type", "IPAddress", "value", "192.0.2.5"),
        Map.of("type", "Hostname", "value", "lb.example.test")));

    Map<String, Object> kept = GatewayApiStatusDocument.compute(status, List.of(), Map.of("addresses",
        List.of(Map.of("type", "IPAddress", "value", "198.51.100.1"))), "holdfast.io/gateway-controller", now);
    assertThat(kept.get("addresses")).isEqualTo(List.of(Map.of("type", "IPAddress", "value", "198.51.100.1")));
  }

  @Test
  void onlyGatewaysCarryAddressesInTheirDesiredStatus() {
    ObjectStatus route = new ObjectStatus(new ResourceKey("gateway.networking.k8s.io", "HTTPRoute", "shop", "r"), 1,
        List.of(new Condition(Condition.ACCEPTED, Condition.Status.TRUE, "Accepted", "ok", 1)), List.of(), List.of());
    assertThat(DesiredStatus.gatewayApi(route, List.of(Address.of("192.0.2.5"))).addresses()).isEmpty();
  }
}
