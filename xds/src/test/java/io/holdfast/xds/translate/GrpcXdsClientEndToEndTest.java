package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.testing.GrpcXdsClient;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's real xDS client consumes a Holdfast translation: two loopback gRPC backends, a config routing
 * to them, served by java-control-plane's SimpleCache over ADS (this test only; Holdfast's own server is
 * elsewhere). The bootstrap system property is JVM-global, so this is the only class that sets it.
 */
class GrpcXdsClientEndToEndTest {

  /** grpc-java's xDS client, bootstrapped at the server under test (once per JVM). */
  private static GrpcXdsClient xdsClient;
  private static final Metadata.Key<String> ROUTE = Metadata.Key.of("x-route", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> SPLIT = Metadata.Key.of("x-split", Metadata.ASCII_STRING_MARSHALLER);
  private static final int SPLIT_CALLS = 400;

  private static Server alpha;
  private static Server beta;
  private static Server controlPlane;
  private static ManagedChannel channel;
  private static XdsSnapshot snapshot;
  private static final List<DiscoveryRequest> nacks = new CopyOnWriteArrayList<>();
  private static final Map<String, String> ackedVersions = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    alpha = backend("alpha");
    beta = backend("beta");
    GatewayConfig config = TestManifests.config(upstream("alpha", alpha.getPort()),
        upstream("beta", beta.getPort()) + "  loadBalancing: LEAST_REQUEST\n", """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: echo}
        spec:
          domains: [echo.test]
          routes:
            - match: {prefix: /never.}
              redirect: {path: /elsewhere}
            - match: {prefix: /, headers: [{name: x-route, exact: beta}]}
              route: {upstream: beta}
            - match: {prefix: /, headers: [{name: x-route, exact: post}], methods: [PUT, POST]}
              route: {upstream: beta}
            - match: {prefix: /, methods: [GET]}
              route: {upstream: beta}
            - match: {prefix: /, headers: [{name: x-split, present: true}]}
              split: [{upstream: alpha, weight: 75}, {upstream: beta, weight: 25}]
              retries: {attempts: 2, retryOn: [unavailable]}
              timeout: 10s
            - match: {prefix: /}
              route: {upstream: alpha}
        """);
    ValidationResult validation = new Validator().validate(config);
    assertThat(validation.statuses().values()).flatExtracting(ResourceStatus::problems)
        .extracting(p -> p.field() + " " + p.reason()).containsExactlyInAnyOrder(
            "spec.loadBalancing GrpcLoadBalancingFallback", "spec.routes[0].redirect GrpcNonForwardingRoute",
            "spec.routes[3].match.methods GrpcUnmatchableRoute");
    snapshot = new Translator().translate(HoldfastFrontEnd.lowerAccepted(validation.accepted())).snapshot();

    SimpleCache<String> cache = new SimpleCache<>(node -> "holdfast-test");
    cache.setSnapshot("holdfast-test", Snapshot.create(
        resources(Resources.V3.CLUSTER_TYPE_URL, Cluster.class),
        resources(Resources.V3.ENDPOINT_TYPE_URL, ClusterLoadAssignment.class),
        resources(Resources.V3.LISTENER_TYPE_URL, Listener.class),
        resources(Resources.V3.ROUTE_TYPE_URL, RouteConfiguration.class),
        List.of(), snapshot.version()));
    V3DiscoveryServer discovery = new V3DiscoveryServer(new AckRecorder(), cache);
    controlPlane = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(discovery.getAggregatedDiscoveryServiceImpl())
        .build()
        .start();

    xdsClient = GrpcXdsClient.bootstrap(controlPlane.getPort(), "holdfast-e2e", "holdfast-test");
    channel = xdsClient.channel("echo.test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (xdsClient != null) {
      xdsClient.close();
    }
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    for (Server server : new Server[] {controlPlane, alpha, beta}) {
      if (server != null) {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void everyResourceTypeIsAckedAndNothingIsNacked() {
    call(Map.of());
    Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ackedVersions).containsOnlyKeys(
        Resources.V3.LISTENER_TYPE_URL, Resources.V3.ROUTE_TYPE_URL, Resources.V3.CLUSTER_TYPE_URL,
        Resources.V3.ENDPOINT_TYPE_URL));
    assertThat(Set.copyOf(ackedVersions.values())).containsExactly(snapshot.version());
    assertThat(nacks).isEmpty();
  }

  @Test
  void defaultRouteReachesTheNamedUpstream() {
    for (int i = 0; i < 20; i++) {
      assertThat(call(Map.of())).isEqualTo("alpha");
    }
  }

  @Test
  void headerMatchSelectsTheOtherUpstream() {
    for (int i = 0; i < 20; i++) {
      assertThat(call(Map.of(ROUTE, "beta"))).isEqualTo("beta");
    }
  }

  /** The route's cluster uses LEAST_REQUEST, which grpc-java takes from load_balancing_policy. */
  @Test
  void headerMatchSelectsTheOtherUpstreamThroughALeastRequestCluster() {
    Cluster beta = (Cluster) snapshot.ofType(Resources.V3.CLUSTER_TYPE_URL).get("default/beta");
    assertThat(beta.getLoadBalancingPolicy().getPoliciesCount()).isEqualTo(2);
    assertThat(call(Map.of(ROUTE, "beta"))).isEqualTo("beta");
  }

  /**
   * Regression: methods became a {@code :method} matcher, a pseudo-header grpc-java treats as absent, so this
   * route never matched and the call fell through to alpha. gRPC calls are POST: without the matcher it matches.
   * The GET-only route after it never matches gRPC calls either way (it is left out of their route table).
   */
  @Test
  void aMethodsRouteThatAllowsPostMatchesGrpcCalls() {
    for (int i = 0; i < 10; i++) {
      assertThat(call(Map.of(ROUTE, "post"))).isEqualTo("beta");
    }
  }

  @Test
  void weightedSplitIsHonouredWithinTolerance() {
    Map<String, Long> counts = java.util.stream.IntStream.range(0, SPLIT_CALLS)
        .mapToObj(i -> call(Map.of(SPLIT, "1")))
        .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    assertThat(counts).containsOnlyKeys("alpha", "beta");
    // Binomial(400, 0.25): standard deviation about 8.7 calls; 0.10 is more than 4.5 of them.
    assertThat(counts.get("beta") / (double) SPLIT_CALLS).isCloseTo(0.25, org.assertj.core.data.Offset.offset(0.10));
  }

  /** Falling through to the catch-all route would reach alpha, which answers UNIMPLEMENTED for this method. */
  @Test
  void redirectRouteFailsGrpcCallsInsteadOfFallingThrough() {
    MethodDescriptor<SimpleRequest, SimpleResponse> never = SimpleServiceGrpc.getUnaryRpcMethod().toBuilder()
        .setFullMethodName("never.Service/Call").build();
    call(Map.of());
    assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel, never,
        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), SimpleRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
  }

  private static String call(Map<Metadata.Key<String>, String> headers) {
    Metadata metadata = new Metadata();
    headers.forEach(metadata::put);
    return SimpleServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(metadata))
        .withWaitForReady()
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.newBuilder().setRequestMessage("hi").build())
        .getResponseMessage();
  }

  private static String upstream(String name, int port) {
    return TestManifests.upstream(name, port) + "  http2: true\n";
  }

  private static <T> List<T> resources(String typeUrl, Class<T> type) {
    return snapshot.ofType(typeUrl).values().stream().map(type::cast).toList();
  }

  private static Server backend(String name) throws java.io.IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
            response.onCompleted();
          }
        })
        .build()
        .start();
  }

  /** Records which versions the client ACKed per type, and every NACK. */
  private static final class AckRecorder implements DiscoveryServerCallbacks {
    @Override
    public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
      if (request.hasErrorDetail()) {
        nacks.add(request);
      } else if (!request.getVersionInfo().isEmpty()) {
        ackedVersions.put(request.getTypeUrl(), request.getVersionInfo());
      }
    }

    @Override
    public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) {
      throw new AssertionError("grpc-java speaks SotW only");
    }
  }
}
