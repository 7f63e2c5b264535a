package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.RouteFixtures.cluster;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.lowerGrpc;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.merged;
import static io.holdfast.frontend.gatewayapi.RouteFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.RouteFixtures.FakeBackends;
import io.holdfast.frontend.gatewayapi.RouteFixtures.Request;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RoutePolicies.HeaderValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** GRPCRoute rules, one test per intent of the conformance tests of the same name. */
class GrpcRouteRulesTest {

  private static final String NS = "gateway-conformance-infra";
  private static final FakeBackends BACKENDS = new FakeBackends("grpc-infra-backend-v1", "grpc-infra-backend-v2",
      "grpc-infra-backend-v3");
  private static final ResourceKey V1 = cluster(NS, "grpc-infra-backend-v1", 8080);
  private static final ResourceKey V2 = cluster(NS, "grpc-infra-backend-v2", 8080);
  private static final ResourceKey V3 = cluster(NS, "grpc-infra-backend-v3", 8080);

  private static LoweredRoute lower(FakeBackends backends, String rules) {
    return lowerGrpc("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: GRPCRoute
        metadata:
          name: grpc
          namespace: gateway-conformance-infra
        spec:
          rules:
        """ + rules, backends);
  }

  /** A gRPC call: POST to /service/method. */
  private static Request call(String service, String method) {
    return new Request("POST", "/" + service + "/" + method, java.util.Map.of());
  }

  private static Optional<ResourceKey> backendOf(List<RankedRoute> routes, Request request) {
    return select(routes, request).map(Route::action).filter(a -> a instanceof RouteAction.Forward)
        .map(a -> ((RouteAction.Forward) a).cluster());
  }

  @Test
  void grpcExactMethodMatching() {
    FakeBackends backends = new FakeBackends("grpc-infra-backend-v1", "grpc-infra-backend-v2");
    LoweredRoute lowered = lower(backends, """
          - matches:
            - method: {service: gateway_api_conformance.echo_basic.grpcecho.GrpcEcho, method: Echo}
            backendRefs: [{name: grpc-infra-backend-v1, port: 8080}]
          - matches:
            - method: {service: gateway_api_conformance.echo_basic.grpcecho.GrpcEcho, method: EchoTwo}
            backendRefs: [{name: grpc-infra-backend-v2, port: 8080}]
        """);
    List<RankedRoute> routes = merged(lowered);
    String service = "gateway_api_conformance.echo_basic.grpcecho.GrpcEcho";

    assertThat(backendOf(routes, call(service, "Echo"))).contains(V1);
    assertThat(backendOf(routes, call(service, "EchoTwo"))).contains(V2);
    assertThat(backendOf(routes, call(service, "EchoThree"))).isEmpty();
    assertThat(backendOf(routes, call("other.Service", "Echo"))).isEmpty();
    // gRPC backends are HTTP/2 clusters.
    assertThat(backends.protocols).containsOnly(Backends.BackendProtocol.GRPC);
  }

  @Test
  void grpcServiceOnlyMethodOnlyAndRegularExpressionMatching() {
    LoweredRoute lowered = lower(BACKENDS, """
          - matches:
            - method: {service: echo.Echo}
            backendRefs: [{name: grpc-infra-backend-v1, port: 8080}]
          - matches:
            - method: {method: Health}
            backendRefs: [{name: grpc-infra-backend-v2, port: 8080}]
          - matches:
            - method: {type: RegularExpression, service: "reflect\\\\..*", method: "Get|List"}
            backendRefs: [{name: grpc-infra-backend-v3, port: 8080}]
        """);
    List<RankedRoute> routes = merged(lowered);

    assertThat(lowered.notAccepted()).isEmpty();
    assertThat(backendOf(routes, call("echo.Echo", "Anything"))).contains(V1);
    assertThat(backendOf(routes, call("echo.EchoOther", "Anything"))).isEmpty();
    assertThat(backendOf(routes, call("any.Service", "Health"))).contains(V2);
    assertThat(backendOf(routes, call("any.Service", "HealthCheck"))).isEmpty();
    assertThat(backendOf(routes, call("reflect.v1", "List"))).contains(V3);
    assertThat(backendOf(routes, call("reflect.v1", "Getter"))).isEmpty();
    assertThat(backendOf(routes, call("reflectx", "Get"))).isEmpty();
  }

  @Test
  void grpcRouteHeaderMatching() {
    LoweredRoute lowered = lower(BACKENDS, """
          - matches:
            - headers: [{name: version, value: one}]
            backendRefs: [{name: grpc-infra-backend-v1, port: 8080}]
          - matches:
            - headers: [{name: version, value: two}]
            backendRefs: [{name: grpc-infra-backend-v2, port: 8080}]
          - matches:
            - headers: [{name: version, value: two}, {name: color, value: orange}]
            backendRefs: [{name: grpc-infra-backend-v1, port: 8080}]
          - matches:
            - headers: [{name: color, type: RegularExpression, value: "bl.*"}]
            backendRefs: [{name: grpc-infra-backend-v3, port: 8080}]
        """);
    List<RankedRoute> routes = merged(lowered);

    assertThat(backendOf(routes, call("s.S", "M").with("version", "one"))).contains(V1);
    assertThat(backendOf(routes, call("s.S", "M").with("version", "two"))).contains(V2);
    assertThat(backendOf(routes, call("s.S", "M").with("version", "two").with("color", "orange"))).contains(V1);
    assertThat(backendOf(routes, call("s.S", "M").with("color", "blue"))).contains(V3);
    assertThat(backendOf(routes, call("s.S", "M").with("version", "three"))).isEmpty();
  }

  @Test
  void grpcRoutePrecedenceRanksServiceThenMethodThenHeaders() {
    LoweredRoute lowered = lower(BACKENDS, """
          - matches:
            - headers: [{name: a, value: "1"}, {name: b, value: "1"}]
            - method: {method: Method}
            - method: {service: s.Service}
            - method: {service: s.Service, method: Method}
            backendRefs: [{name: grpc-infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.routes().stream().sorted().map(r -> r.route().origin().field()))
        .containsExactly("spec.rules[0].matches[3]", "spec.rules[0].matches[2]", "spec.rules[0].matches[1]",
            "spec.rules[0].matches[0]");
  }

  @Test
  void grpcRouteWeightAndHeaderModifiers() {
    LoweredRoute lowered = lower(BACKENDS, """
          - filters:
            - type: RequestHeaderModifier
              requestHeaderModifier: {add: [{name: X-Added, value: "yes"}]}
            - type: ResponseHeaderModifier
              responseHeaderModifier: {remove: [X-Gone]}
            backendRefs:
            - {name: grpc-infra-backend-v1, port: 8080, weight: 3}
            - {name: grpc-infra-backend-v2, port: 8080, weight: 1}
        """);

    Route route = lowered.routes().get(0).route();
    assertThat(route.headers().requestAdd()).containsExactly(new HeaderValue("x-added", "yes", true));
    assertThat(route.headers().responseRemove()).containsExactly("x-gone");
    assertThat(route.action()).isEqualTo(new RouteAction.Split(List.of(new RouteAction.WeightedCluster(V1, 3),
        new RouteAction.WeightedCluster(V2, 1)), RouteAction.ForwardPolicy.NONE));
  }

  @Test
  void grpcRouteUnresolvedBackendAnswersAnError() {
    LoweredRoute lowered = lower(BACKENDS, """
          - backendRefs: [{name: missing, port: 8080}]
        """);

    assertThat(lowered.routes().get(0).route().action()).isEqualTo(RouteRules.internalError());
    assertThat(lowered.problems()).extracting(ResolvedRefsProblem::reason).containsExactly("BackendNotFound");
  }

  @Test
  void grpcRouteUnsupportedFilterIsNotAccepted() {
    LoweredRoute lowered = lower(BACKENDS, """
          - filters:
            - type: RequestRedirect
            backendRefs: [{name: grpc-infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.notAccepted()).extracting(AcceptedProblem::reason).containsExactly("UnsupportedValue");
    assertThat(lowered.routes().get(0).route().action()).isEqualTo(RouteRules.internalError());
  }

  @Test
  void grpcRouteExtensionRefOfAnUnknownKindIsInvalidKindAndAnswersAnError() {
    LoweredRoute lowered = lower(BACKENDS, """
          - filters:
            - type: ExtensionRef
              extensionRef: {group: example.test, kind: Thing, name: t}
            backendRefs: [{name: grpc-infra-backend-v1, port: 8080}]
        """);

    assertThat(lowered.notAccepted()).isEmpty();
    assertThat(lowered.problems()).extracting(ResolvedRefsProblem::reason).containsExactly("InvalidKind");
    assertThat(lowered.routes().get(0).route().action()).isEqualTo(RouteRules.internalError());
  }
}
