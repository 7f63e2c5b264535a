package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.RouteFixtures.cluster;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.lowerHttp;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.frontend.gatewayapi.RouteFixtures.FakeBackends;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteAction.WeightedCluster;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** HTTPRoute backendRefs, weights, invalid references and timeouts. */
class HttpRouteBackendsTest {

  private static final String NS = "gateway-conformance-infra";

  private static LoweredRoute lower(FakeBackends backends, String rules) {
    return lowerHttp("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata:
          name: backends
          namespace: gateway-conformance-infra
        spec:
          rules:
        """ + rules, backends);
  }

  private static RouteAction onlyAction(LoweredRoute lowered) {
    assertThat(lowered.routes()).hasSize(1);
    return lowered.routes().get(0).route().action();
  }

  @Test
  void httpRouteWeight() {
    FakeBackends backends = new FakeBackends("infra-backend-v1", "infra-backend-v2", "infra-backend-v3");
    LoweredRoute lowered = lower(backends, """
          - backendRefs:
            - {name: infra-backend-v1, port: 8080, weight: 70}
            - {name: infra-backend-v2, port: 8080, weight: 30}
            - {name: infra-backend-v3, port: 8080, weight: 0}
        """);

    assertThat(onlyAction(lowered)).isEqualTo(new RouteAction.Split(List.of(
        new WeightedCluster(cluster(NS, "infra-backend-v1", 8080), 70),
        new WeightedCluster(cluster(NS, "infra-backend-v2", 8080), 30)), RouteAction.ForwardPolicy.NONE));
    assertThat(backends.protocols).containsOnly(Backends.BackendProtocol.HTTP).hasSize(3);
  }

  @Test
  void httpRouteWeightDefaultsToOneAndAllZeroAnswers500() {
    FakeBackends backends = new FakeBackends("infra-backend-v1", "infra-backend-v2");
    assertThat(onlyAction(lower(backends, """
          - backendRefs:
            - {name: infra-backend-v1, port: 8080}
            - {name: infra-backend-v2, port: 8080}
        """))).isEqualTo(new RouteAction.Split(List.of(
        new WeightedCluster(cluster(NS, "infra-backend-v1", 8080), 1),
        new WeightedCluster(cluster(NS, "infra-backend-v2", 8080), 1)), RouteAction.ForwardPolicy.NONE));

    LoweredRoute allZero = lower(backends, """
          - backendRefs:
            - {name: infra-backend-v1, port: 8080, weight: 0}
            - {name: infra-backend-v2, port: 8080, weight: 0}
        """);
    assertThat(onlyAction(allZero)).isEqualTo(new RouteAction.DirectResponse(500, Optional.empty()));
    assertThat(allZero.problems()).isEmpty();
  }

  @Test
  void httpRouteInvalidBackendRefNotFoundAnswers500() {
    LoweredRoute lowered = lower(new FakeBackends("infra-backend-v1"), """
          - backendRefs:
            - {name: does-not-exist, port: 8080}
        """);

    assertThat(onlyAction(lowered)).isEqualTo(new RouteAction.DirectResponse(500, Optional.empty()));
    assertThat(lowered.problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("BackendNotFound");
      assertThat(p.origin().field()).isEqualTo("spec.rules[0].backendRefs[0]");
    });
  }

  @Test
  void httpRouteInvalidCrossNamespaceBackendRefAndInvalidKind() {
    LoweredRoute lowered = lower(new FakeBackends(Set.of("web-backend"), Set.of()), """
          - matches: [{path: {type: PathPrefix, value: /other-namespace}}]
            backendRefs:
            - {name: web-backend, namespace: gateway-conformance-web-backend, port: 8080}
          - matches: [{path: {type: PathPrefix, value: /kind}}]
            backendRefs:
            - {group: example.test, kind: Unknown, name: web-backend, port: 8080}
        """);

    assertThat(lowered.problems()).extracting(ResolvedRefsProblem::reason)
        .containsExactly("RefNotPermitted", "InvalidKind");
    assertThat(lowered.routes()).allSatisfy(r ->
        assertThat(r.route().action()).isEqualTo(new RouteAction.DirectResponse(500, Optional.empty())));
  }

  @Test
  void httpRoutePartiallyInvalidBackendsKeepServingTheValidOnes() {
    LoweredRoute lowered = lower(new FakeBackends("infra-backend-v1"), """
          - backendRefs:
            - {name: infra-backend-v1, port: 8080, weight: 2}
            - {name: does-not-exist, port: 8080, weight: 1}
        """);

    assertThat(onlyAction(lowered)).isEqualTo(new RouteAction.Forward(cluster(NS, "infra-backend-v1", 8080),
        RouteAction.ForwardPolicy.NONE));
    assertThat(lowered.problems()).extracting(ResolvedRefsProblem::reason).containsExactly("BackendNotFound");
  }

  @Test
  void aRuleWithoutBackendsAnswers500() {
    assertThat(onlyAction(lower(new FakeBackends(), """
          - matches: [{path: {type: PathPrefix, value: /}}]
        """))).isEqualTo(new RouteAction.DirectResponse(500, Optional.empty()));
  }

  @Test
  void httpRouteTimeoutRequest() {
    LoweredRoute lowered = lower(new FakeBackends("infra-backend-v1"), """
          - timeouts: {request: 500ms}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    RouteAction.ForwardPolicy policy = ((RouteAction.Forward) onlyAction(lowered)).policy();
    assertThat(policy.timeout()).contains(Duration.ofMillis(500));
    assertThat(policy.retries()).isEmpty();
  }

  @Test
  void httpRouteTimeoutBackendRequest() {
    LoweredRoute lowered = lower(new FakeBackends("infra-backend-v1"), """
          - timeouts: {request: 1m30s, backendRequest: 1s}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    RouteAction.ForwardPolicy policy = ((RouteAction.Forward) onlyAction(lowered)).policy();
    assertThat(policy.timeout()).contains(Duration.ofSeconds(90));
    assertThat(policy.retries()).contains(new RouteAction.Retries(0, Optional.of(Duration.ofSeconds(1)), List.of()));
  }

  @Test
  void aTimeoutOfZeroDisablesIt() {
    LoweredRoute lowered = lower(new FakeBackends("infra-backend-v1"), """
          - timeouts: {request: 0s}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    assertThat(((RouteAction.Forward) onlyAction(lowered)).policy().timeout()).contains(Duration.ZERO);
  }

  @Test
  void anInvalidTimeoutIsNotAccepted() {
    LoweredRoute lowered = lower(new FakeBackends("infra-backend-v1"), """
          - timeouts: {request: 10 seconds}
            backendRefs: [{name: infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.notAccepted()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo("UnsupportedValue");
      assertThat(p.origin().field()).isEqualTo("spec.rules[0].timeouts.request");
    });
  }

  @Test
  void gatewayDurationsFollowGep2257() {
    assertThat(GatewayDurations.parse("1h2m3s4ms")).isEqualTo(Duration.parse("PT1H2M3.004S"));
    assertThat(GatewayDurations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    for (String bad : List.of("", "1", "1.5s", "-1s", "1d", "123456s", "1s1s1s1s1s")) {
      org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
          .isThrownBy(() -> GatewayDurations.parse(bad)).as(bad);
    }
  }
}
