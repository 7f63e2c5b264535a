package io.holdfast.frontend.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Endpoint;
import io.holdfast.api.InputLimits;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.Reasons;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.RouteTraffic;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The services a Gateway API policy sends to, named by backendRef: gRPC and OpenTelemetry access logs and the
 * rate-limit service become the same Service clusters route backends use (HTTP/2 for gRPC), a TrafficPolicy's
 * descriptors go to that service, and a backendRef that does not resolve makes the policy Invalid with the route's
 * reason (BackendNotFound, RefNotPermitted); a cross-namespace Service needs a ReferenceGrant from the policy's kind.
 */
class PolicyBackendRefsTest {

  private static final String GATEWAY = Fixtures.gateway("web", "edge", "- {name: http, port: 8080, protocol: HTTP}");
  private static final String ROUTE = Fixtures.httpRoute("web", "store", "[{name: edge}]", "[store.test]",
      "[{name: store, port: 8080}]");
  private static final ResourceKey ALS = ResourceKey.core("Service", "web", "als:9000:grpc");
  private static final ResourceKey RLS = ResourceKey.core("Service", "ops", "rls:8081:grpc");

  private static String client(String name, String fields) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: ClientTrafficPolicy
        metadata: {name: %s, namespace: web}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
        %s""".formatted(name, fields.indent(2));
  }

  private static final String GRANT = """
      apiVersion: gateway.networking.k8s.io/v1beta1
      kind: ReferenceGrant
      metadata: {name: policies, namespace: ops}
      spec:
        from: [{group: gateway.holdfast.io, kind: ClientTrafficPolicy, namespace: web}]
        to: [{group: "", kind: Service}]
      """;

  private static IrBuilder.Result lower(String... yamls) {
    String[] all = new String[yamls.length + 3];
    all[0] = Fixtures.CLASS;
    all[1] = GATEWAY;
    all[2] = ROUTE;
    System.arraycopy(yamls, 0, all, 3, yamls.length);
    return Fixtures.lower(Fixtures.config(Fixtures.services("web/store:8080", "web/als:9000", "ops/rls:8081"), all));
  }

  private static HttpListenerOptions chain(IrBuilder.Result result) {
    Listener.Socket socket = (Listener.Socket) result.ir().listeners().stream()
        .filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    return ((Listener.FilterChain.Http) socket.filterChains().get(0)).options();
  }

  private static Condition accepted(IrBuilder.Result result, String kind, String name) {
    return Fixtures.status(result, new ResourceKey(PolicyKinds.GROUP, kind, "web", name))
        .condition(Condition.ACCEPTED);
  }

  @Test
  void accessLogAndRateLimitServicesBecomeServiceClustersAndDescriptorsGoThere() {
    IrBuilder.Result result = lower(GRANT, client("edge", """
        accessLogs:
          - grpc: {backendRef: {name: als, port: 9000}, logName: edge}
          - openTelemetry: {backendRef: {name: als, port: 9000}, logName: otel}
        rateLimitService: {backendRef: {name: rls, namespace: ops, port: 8081}, domain: shop}
        """), """
        apiVersion: gateway.holdfast.io/v1
        kind: TrafficPolicy
        metadata: {name: limits, namespace: web}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: store}]
          rateLimit: {descriptors: [{entries: [{remoteAddress: {}}]}]}
        """);

    assertThat(accepted(result, PolicyKinds.CLIENT_TRAFFIC_POLICY, "edge").status()).isEqualTo(Condition.Status.TRUE);
    HttpListenerOptions options = chain(result);
    assertThat(options.accessLogs()).extracting(HttpListenerOptions.AccessLog::sink).containsExactly(
        new HttpListenerOptions.Sink.Grpc(ALS, "edge"), new HttpListenerOptions.Sink.OpenTelemetry(ALS, "otel"));
    assertThat(options.rateLimitService()).hasValueSatisfying(s -> {
      assertThat(s.cluster()).isEqualTo(RLS);
      assertThat(s.domain()).isEqualTo("shop");
    });
    assertThat(result.ir().clusters()).filteredOn(c -> c.origin().object().equals(ALS) || c.origin().object()
        .equals(RLS)).hasSize(2).allSatisfy(c -> assertThat(c.http2()).isTrue())
        .allSatisfy(c -> assertThat(c.endpoints()).extracting(Cluster.WeightedEndpoint::address).hasSize(1));
    assertThat(result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> l.virtualHosts().stream()).flatMap(h -> h.routes().stream()).findFirst().orElseThrow()
        .traffic().rateLimits()).containsExactly(new RouteTraffic.Descriptor(List.of(
            new RouteTraffic.Entry.RemoteAddress())));
  }

  @Test
  void aTracingCollectorBackendRefBecomesTheTracersServiceCluster() {
    IrBuilder.Result result = lower(client("edge", """
        tracing:
          openTelemetry: {backendRef: {name: als, port: 9000}, serviceName: edge}
          sampling: {overall: 10}
        """));

    assertThat(accepted(result, PolicyKinds.CLIENT_TRAFFIC_POLICY, "edge").status()).isEqualTo(Condition.Status.TRUE);
    assertThat(chain(result).tracing()).contains(new HttpListenerOptions.Tracing(ALS,
        java.util.Optional.of("edge"), java.util.Optional.empty(), 100, 100, 10, false, List.of()));
    assertThat(result.ir().clusters()).filteredOn(c -> c.origin().object().equals(ALS)).singleElement()
        .satisfies(c -> assertThat(c.http2()).isTrue());
    IrBuilder.Result missing = lower(client("gone", "tracing: {openTelemetry: {backendRef: {name: nope, port: 9000}}}"));
    assertThat(accepted(missing, PolicyKinds.CLIENT_TRAFFIC_POLICY, "gone").message())
        .contains("BackendNotFound", "spec.tracing.openTelemetry.backendRef");
  }

  @Test
  void unresolvableBackendRefsAndUpstreamNamesMakeThePolicyInvalidWithTheirReason() {
    IrBuilder.Result result = lower(
        client("missing", "accessLogs: [{grpc: {backendRef: {name: nope, port: 9000}, logName: x}}]"),
        client("no-grant", "rateLimitService: {backendRef: {name: rls, namespace: ops, port: 8081}, domain: d}"),
        client("upstream", "rateLimitService: {upstream: rls, domain: d}"),
        client("both", "rateLimitService: {upstream: rls, backendRef: {name: rls, port: 8081}, domain: d}"));

    assertThat(accepted(result, PolicyKinds.CLIENT_TRAFFIC_POLICY, "missing").message())
        .contains("BackendNotFound", "spec.accessLogs[0].grpc.backendRef");
    assertThat(accepted(result, PolicyKinds.CLIENT_TRAFFIC_POLICY, "no-grant").message())
        .contains("RefNotPermitted");
    assertThat(accepted(result, PolicyKinds.CLIENT_TRAFFIC_POLICY, "upstream").message()).contains("by backendRef");
    assertThat(accepted(result, PolicyKinds.CLIENT_TRAFFIC_POLICY, "both").message()).contains("not both");
    for (String name : List.of("missing", "no-grant", "upstream", "both")) {
      assertThat(accepted(result, PolicyKinds.CLIENT_TRAFFIC_POLICY, name).reason()).isEqualTo(PolicyTargets.INVALID);
    }
    assertThat(chain(result)).isEqualTo(HttpListenerOptions.NONE);
  }

  @Test
  void endpointsOfAServiceInDeniedNetworksAreLeftOutWithAWarningOnThePolicy() {
    Map<ServiceRef, List<Endpoint>> endpoints = Map.of(new ServiceRef("web", "store", 8080),
        List.of(new Endpoint("192.0.2.8", 8080)), new ServiceRef("web", "als", 9000),
        List.of(new Endpoint("169.254.169.254", 9000), new Endpoint("192.0.2.9", 9000)));
    IrBuilder builder = new IrBuilder();
    new GatewayApiFrontEnd(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME, InputLimits.DEFAULTS,
        AccessPolicy.KUBERNETES_DEFAULTS).lower(Fixtures.config(endpoints, Fixtures.CLASS, GATEWAY, ROUTE,
        client("edge", "accessLogs: [{grpc: {backendRef: {name: als, port: 9000}, logName: edge}}]")), builder);
    IrBuilder.Result result = builder.build();

    var status = Fixtures.status(result, new ResourceKey(PolicyKinds.GROUP, PolicyKinds.CLIENT_TRAFFIC_POLICY, "web",
        "edge"));
    assertThat(status.condition(Condition.ACCEPTED).status()).isEqualTo(Condition.Status.TRUE);
    assertThat(status.findings()).singleElement().satisfies(f -> {
      assertThat(f.severity()).isEqualTo(Finding.Severity.WARNING);
      assertThat(f.reason()).isEqualTo(Reasons.ADDRESS_NOT_PERMITTED);
      assertThat(f.field()).isEqualTo("spec.accessLogs[0].grpc.backendRef");
    });
    assertThat(result.ir().clusters()).filteredOn(c -> c.origin().object().equals(ALS)).singleElement()
        .satisfies(c -> assertThat(c.endpoints()).extracting(Cluster.WeightedEndpoint::address)
            .containsExactly("192.0.2.9"));
  }
}
