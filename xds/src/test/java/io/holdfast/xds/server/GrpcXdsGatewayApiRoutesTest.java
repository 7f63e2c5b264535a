package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.BackendReference;
import io.holdfast.frontend.gatewayapi.BackendResolution;
import io.holdfast.frontend.gatewayapi.Backends;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.gatewayapi.LoweredRoute;
import io.holdfast.frontend.gatewayapi.RankedRoute;
import io.holdfast.frontend.gatewayapi.RouteRules;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.VirtualHost;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.NamedBackends;
import io.holdfast.xds.translate.Translator;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * grpc-java's xDS client routes calls as Holdfast lowers Gateway API routes: a GRPCRoute's method and header
 * matches in the specification's precedence, weighted backendRefs, and a rule whose backend does not resolve; an
 * HTTPRoute's segment-wise PathPrefix. The routes are lowered by {@link RouteRules} (the front end's per-route
 * lowering) into client listeners for {@code grpc.test} and {@code http.test}, translated, and served by Holdfast's
 * xDS server on loopback. Own class (and JVM, see the pom): grpc-java reads its xDS bootstrap once per JVM.
 */
class GrpcXdsGatewayApiRoutesTest {

  private static final String NS = "conformance";
  private static final Metadata.Key<String> VERSION = Metadata.Key.of("version", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> CASE = Metadata.Key.of("x-case", Metadata.ASCII_STRING_MARSHALLER);
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  private static NamedBackends servers;
  private static ServerHarness harness;
  private static GrpcXdsClient xdsClient;
  private static ManagedChannel grpcChannel;
  private static ManagedChannel httpChannel;

  @BeforeAll
  static void start() {
    servers = new NamedBackends("v1", "v2", "v3");
    Map<String, Integer> ports = new LinkedHashMap<>();
    for (String name : List.of("v1", "v2", "v3")) {
      ports.put(name, servers.port(name));
    }
    ServiceBackends backends = new ServiceBackends(ports);
    GRPCRoute grpcRoute = YAML.readValue("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: GRPCRoute
        metadata: {name: methods, namespace: conformance, creationTimestamp: "2026-01-01T00:00:00Z"}
        spec:
          rules:
          - matches:
            - method: {service: grpc.testing.SimpleService, method: UnaryRpc}
            backendRefs: [{name: v1, port: 9000}]
          - matches:
            - method: {service: grpc.testing.SimpleService}
            backendRefs: [{name: v2, port: 9000}]
          - matches:
            - method: {service: grpc.testing.SimpleService, method: UnaryRpc}
              headers: [{name: version, value: three}]
            backendRefs: [{name: v3, port: 9000}]
          - matches:
            - method: {service: grpc.testing.SimpleService, method: UnaryRpc}
              headers: [{name: x-case, value: weighted}]
            backendRefs:
            - {name: v1, port: 9000, weight: 3}
            - {name: v2, port: 9000, weight: 1}
          - matches:
            - method: {service: grpc.testing.SimpleService, method: UnaryRpc}
              headers: [{name: x-case, value: missing}]
            backendRefs: [{name: not-a-service, port: 9000}]
        """, GRPCRoute.class);
    HTTPRoute httpRoute = YAML.readValue("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: prefix, namespace: conformance}
        spec:
          rules:
          - matches: [{path: {type: PathPrefix, value: /grpc.testing.Simple}}]
            backendRefs: [{name: v1, port: 9000}]
          - matches: [{path: {type: PathPrefix, value: /grpc.testing.SimpleService}}]
            timeouts: {request: 5s, backendRequest: 2s}
            backendRefs: [{name: v2, port: 9000}]
        """, HTTPRoute.class);
    LoweredRoute grpc = RouteRules.grpc(grpcRoute, key("GRPCRoute", "methods"), backends);
    LoweredRoute http = RouteRules.http(httpRoute, key("HTTPRoute", "prefix"), backends);
    assertThat(grpc.problems()).extracting(p -> p.reason()).containsExactly("BackendNotFound");
    assertThat(http.problems()).isEmpty();

    Ir ir = new Ir(List.of(client("grpc.test", key("GRPCRoute", "methods"), grpc),
        client("http.test", key("HTTPRoute", "prefix"), http)), backends.clusters(), List.of());
    harness = new ServerHarness();
    harness.cache.setSnapshot(new Translator().translate(ir).snapshot());
    xdsClient = GrpcXdsClient.bootstrap(harness.port(), "grpc-gateway-api-routes", "holdfast-test");
    grpcChannel = xdsClient.channel("grpc.test");
    httpChannel = xdsClient.channel("http.test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (xdsClient != null) {
      xdsClient.close();
    }
    if (harness != null) {
      harness.close();
    }
    if (servers != null) {
      servers.close();
    }
  }

  /** GRPCExactMethodMatching: service and method select the backend; an exact method outranks a service. */
  @Test
  void grpcExactMethodMatching() {
    assertThat(unary(grpcChannel, Map.of())).isEqualTo("v1");
    assertThat(serverStreaming(grpcChannel)).isEqualTo("v2");
    assertThat(harness.nacks).isEmpty();
  }

  /** GRPCRouteHeaderMatching: a header match on the same method takes precedence (more header matches). */
  @Test
  void grpcRouteHeaderMatching() {
    assertThat(unary(grpcChannel, Map.of(VERSION, "three"))).isEqualTo("v3");
    assertThat(unary(grpcChannel, Map.of(VERSION, "four"))).isEqualTo("v1");
  }

  /** GRPCRoute backendRef weights 3:1 spread calls in that proportion. */
  @Test
  void grpcRouteWeight() {
    Map<String, Integer> reached = new HashMap<>();
    int calls = 400;
    for (int i = 0; i < calls; i++) {
      reached.merge(unary(grpcChannel, Map.of(CASE, "weighted")), 1, Integer::sum);
    }
    assertThat(reached).containsOnlyKeys("v1", "v2");
    // Binomial(400, 0.75): standard deviation about 8.7 calls; 40 is more than 4.5 of them.
    assertThat(reached.get("v1")).isBetween(260, 340);
  }

  /** A rule whose only backend does not resolve answers with an error instead of reaching any backend. */
  @Test
  void grpcRouteUnresolvedBackendFailsTheCall() {
    assertThatThrownBy(() -> unary(grpcChannel, Map.of(CASE, "missing")))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
  }

  /**
   * HTTPRouteMatching: a PathPrefix matches whole segments, so /grpc.testing.Simple does not take the calls. The
   * rule's timeouts (a route timeout and a retry policy of no retries with a per-try timeout) are accepted by
   * grpc-java: no NACK.
   */
  @Test
  void httpRoutePathPrefixMatchesWholeSegmentsForGrpcClients() {
    assertThat(unary(httpChannel, Map.of())).isEqualTo("v2");
    assertThat(serverStreaming(httpChannel)).isEqualTo("v2");
    assertThat(harness.nacks).isEmpty();
  }

  private static ResourceKey key(String kind, String name) {
    return new ResourceKey(GatewayApiFrontEnd.GROUP, kind, NS, name);
  }

  private static Listener client(String target, ResourceKey route, LoweredRoute lowered) {
    Origin origin = Origin.of(route);
    return new Listener.ClientApi(origin, target, new VirtualHost(origin, List.of(target),
        lowered.routes().stream().sorted().map(RankedRoute::route).toList()));
  }

  private static String unary(ManagedChannel channel, Map<Metadata.Key<String>, String> headers) {
    Metadata metadata = new Metadata();
    headers.forEach(metadata::put);
    return SimpleServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(metadata))
        .withWaitForReady()
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.newBuilder().setRequestMessage("hi").build())
        .getResponseMessage();
  }

  private static String serverStreaming(ManagedChannel channel) {
    Iterator<SimpleResponse> answers = SimpleServiceGrpc.newBlockingStub(channel)
        .withWaitForReady()
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .serverStreamingRpc(SimpleRequest.newBuilder().setRequestMessage("hi").build());
    return answers.next().getResponseMessage();
  }


  /** Services named after the backends, each one HTTP/2 cluster at its loopback port; others are not found. */
  private static final class ServiceBackends implements Backends {
    private final Map<String, Integer> ports;
    private final Map<ResourceKey, Cluster> clusters = new LinkedHashMap<>();

    ServiceBackends(Map<String, Integer> ports) {
      this.ports = ports;
    }

    List<Cluster> clusters() {
      return List.copyOf(clusters.values());
    }

    @Override
    public BackendResolution resolve(String routeNamespace, BackendReference ref, BackendProtocol protocol,
        Origin origin) {
      Integer port = ports.get(ref.name());
      if (port == null) {
        return new BackendResolution.Unresolved(BackendResolution.Reason.BACKEND_NOT_FOUND,
            "Service " + ref.name() + " not found");
      }
      ResourceKey key = ResourceKey.core("Service", ref.namespaceOr(routeNamespace), ref.name());
      clusters.computeIfAbsent(key, k -> new Cluster(Origin.of(k), Duration.ofSeconds(1),
          Cluster.LbPolicy.ROUND_ROBIN, true, List.of(new Cluster.WeightedEndpoint("127.0.0.1", port, 1))));
      return new BackendResolution.Resolved(key);
    }
  }
}
