package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.CLASS;
import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static io.holdfast.frontend.gatewayapi.Fixtures.config;
import static io.holdfast.frontend.gatewayapi.Fixtures.gateway;
import static io.holdfast.frontend.gatewayapi.Fixtures.gatewayKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.httpRoute;
import static io.holdfast.frontend.gatewayapi.Fixtures.httpRouteKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.listenerStatus;
import static io.holdfast.frontend.gatewayapi.Fixtures.parent;
import static io.holdfast.frontend.gatewayapi.Fixtures.socket;
import static io.holdfast.frontend.gatewayapi.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.ServiceRef;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tenancy address and port policy ({@link AccessPolicy}) applied to Gateway API objects as to Holdfast's own
 * kinds: a listener on a reserved or out-of-range port is not accepted ({@code PortUnavailable}, finding
 * {@code PortNotPermitted}) while the Gateway's other listeners are served; a Service's endpoints in denied
 * networks are left out of its cluster with a warning on the route.
 */
class AccessPolicyTest {

  private static IrBuilder.Result lower(GatewayConfig config, AccessPolicy policy) {
    IrBuilder builder = new IrBuilder();
    new GatewayApiFrontEnd(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME, InputLimits.DEFAULTS, policy)
        .lower(config, builder);
    return builder.build();
  }

  @Test
  void listenerOnAReservedPortIsPortUnavailableAndTheOthersAreServed() {
    IrBuilder.Result result = lower(config(CLASS, gateway("infra", "edge", """
        - {name: admin, port: 19000, protocol: HTTP}
        - {name: low, port: 80, protocol: HTTP, hostname: low.example.test}
        - {name: http, port: 8080, protocol: HTTP}
        """)), AccessPolicy.KUBERNETES_DEFAULTS);

    for (String name : List.of("admin", "low")) {
      var listener = listenerStatus(result, gatewayKey("infra", "edge"), name);
      assertCondition(listener.conditions(), Condition.ACCEPTED, Condition.Status.FALSE, "PortUnavailable");
      assertCondition(listener.conditions(), "Programmed", Condition.Status.FALSE, "Invalid");
    }
    assertThat(status(result, gatewayKey("infra", "edge")).findings())
        .filteredOn(f -> f.reason().equals(Reasons.PORT_NOT_PERMITTED))
        .extracting(Finding::message)
        .anySatisfy(m -> assertThat(m).contains("19000").contains("--listener-reserved-ports"))
        .anySatisfy(m -> assertThat(m).contains("80").contains("--listener-port-range"));
    assertCondition(listenerStatus(result, gatewayKey("infra", "edge"), "http").conditions(), "Programmed",
        Condition.Status.TRUE, "Programmed");
    assertThat(socket(result, gatewayKey("infra", "edge"), 8080)).isNotNull();
    assertThat(result.ir().listeners()).filteredOn(l -> l instanceof Listener.Socket s && s.port() != 8080)
        .isEmpty();
  }

  @Test
  void aWiderPolicyServesTheSameListeners() {
    AccessPolicy wide = AccessPolicy.KUBERNETES_DEFAULTS.withListenerPorts(1, 65_535, Set.of());
    IrBuilder.Result result = lower(config(CLASS, gateway("infra", "edge", """
        - {name: admin, port: 19000, protocol: HTTP}
        - {name: low, port: 80, protocol: HTTP, hostname: low.example.test}
        """)), wide);
    assertThat(status(result, gatewayKey("infra", "edge")).findings()).isEmpty();
    assertThat(socket(result, gatewayKey("infra", "edge"), 19000)).isNotNull();
    assertThat(socket(result, gatewayKey("infra", "edge"), 80)).isNotNull();
  }

  @Test
  void endpointsInDeniedNetworksAreLeftOutWithAWarningOnTheRoute() {
    Map<ServiceRef, List<Endpoint>> endpoints = Map.of(new ServiceRef("infra", "web", 8080), List.of(
        new Endpoint("169.254.169.254", 80), new Endpoint("127.0.0.1", 8080), new Endpoint("192.0.2.7", 8080)));
    IrBuilder.Result result = lower(config(endpoints, CLASS,
        gateway("infra", "edge", "- {name: http, port: 8080, protocol: HTTP}"),
        httpRoute("infra", "r", "[{name: edge}]", "[a.example.test]", "[{name: web, port: 8080}]")),
        AccessPolicy.KUBERNETES_DEFAULTS);

    assertThat(result.ir().clusters()).singleElement().extracting(Cluster::endpoints)
        .satisfies(list -> assertThat(list).extracting(Cluster.WeightedEndpoint::address)
            .containsExactly("192.0.2.7"));
    assertCondition(parent(result, httpRouteKey("infra", "r"), gatewayKey("infra", "edge")).conditions(),
        Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
    assertThat(status(result, httpRouteKey("infra", "r")).findings()).singleElement().satisfies(f -> {
      assertThat(f.severity()).isEqualTo(Finding.Severity.WARNING);
      assertThat(f.reason()).isEqualTo(Reasons.ADDRESS_NOT_PERMITTED);
      assertThat(f.field()).isEqualTo("spec.rules[0].backendRefs[0]");
      assertThat(f.message()).contains("2 of the 3 endpoints", "--upstream-deny-cidr");
    });

    IrBuilder.Result file = lower(config(endpoints, CLASS,
        gateway("infra", "edge", "- {name: http, port: 8080, protocol: HTTP}"),
        httpRoute("infra", "r", "[{name: edge}]", "[a.example.test]", "[{name: web, port: 8080}]")),
        AccessPolicy.FILE_DEFAULTS);
    assertThat(file.ir().clusters()).singleElement().extracting(Cluster::endpoints)
        .satisfies(list -> assertThat(list).extracting(Cluster.WeightedEndpoint::address)
            .as("file mode allows loopback").containsExactlyInAnyOrder("192.0.2.7", "127.0.0.1"));
  }
}
