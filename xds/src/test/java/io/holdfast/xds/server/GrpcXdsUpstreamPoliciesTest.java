package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.util.concurrent.ListenableFuture;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import io.envoyproxy.envoy.config.core.v3.SelfConfigSource;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.translate.Translator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's xDS client follows the upstream options it implements, served by Holdfast's own xDS server:
 * outlier detection by failure percentage (gRFC A50) takes a failing backend out of rotation, and
 * {@code circuitBreakers.maxRequests} (gRFC A32) fails the call past the limit at once with UNAVAILABLE. Own
 * class (and JVM): the xDS bootstrap is JVM-wide. Loopback only, ports chosen by the system.
 */
class GrpcXdsUpstreamPoliciesTest {

  /** grpc-java's xDS client, bootstrapped at the server under test (once per JVM). */
  private static GrpcXdsClient xdsClient;
  private static final int MAX_REQUESTS = 2;

  private static final AtomicInteger goodCalls = new AtomicInteger();
  private static final AtomicInteger badCalls = new AtomicInteger();
  private static final AtomicInteger slowInFlight = new AtomicInteger();
  /** The slow backend holds each call until the gate of the test that made it opens. */
  private static final AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));
  private static final List<Server> backends = new ArrayList<>();
  private static final List<ManagedChannel> channels = new ArrayList<>();
  private static ServerHarness harness;
  private static ValidationResult validation;

  @BeforeAll
  static void start() throws IOException {
    Server good = backend(request -> {
      goodCalls.incrementAndGet();
      return Status.OK;
    });
    Server bad = backend(request -> {
      badCalls.incrementAndGet();
      return Status.UNAVAILABLE.withDescription("this backend always fails");
    });
    Server slow = backend(request -> {
      slowInFlight.incrementAndGet();
      try {
        gate.get().await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      slowInFlight.decrementAndGet();
      return Status.OK;
    });
    // Two ejection sweeps a second; a backend needs 3 calls in a sweep to count, and stays out for a minute.
    validation = new Validator().validate(TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: pool}
        spec:
          static: {hosts: [{address: 127.0.0.1, port: %d}, {address: 127.0.0.1, port: %d}]}
          http2: true
          outlierDetection:
            failurePercentage: {threshold: 50, minimumHosts: 2, requestVolume: 3}
            interval: 500ms
            baseEjectionTime: 60s
            maxEjectionPercent: 50
        """.formatted(good.getPort(), bad.getPort()), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: narrow}
        spec:
          static: {hosts: [{address: 127.0.0.1, port: %d}]}
          http2: true
          circuitBreakers: {maxRequests: %d}
        """.formatted(slow.getPort(), MAX_REQUESTS), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: reporting}
        spec:
          static: {hosts: [{address: 127.0.0.1, port: %d}]}
          http2: true
          circuitBreakers: {maxRequests: %d}
        """.formatted(slow.getPort(), MAX_REQUESTS),
        TestManifests.virtualService("pool", "pool.test", "pool"),
        TestManifests.virtualService("narrow", "narrow.test", "narrow"),
        TestManifests.virtualService("reporting", "reporting.test", "reporting")));
    harness = new ServerHarness();
    harness.cache.setSnapshot(withLoadReporting(
        new Translator().translate(HoldfastFrontEnd.lowerAccepted(validation.accepted())).snapshot(),
        "default/reporting"));
    xdsClient = GrpcXdsClient.bootstrap(harness.port(), "grpc-upstream-policies", "holdfast-test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    gate.get().countDown();
    if (xdsClient != null) {
      xdsClient.close();
    }
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (harness != null) {
      harness.close();
    }
    for (Server backend : backends) {
      backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Outlier detection by failure percentage draws no warning; maxRequests warns about grpc-java (see below). */
  @Test
  void bothOptionsReachGrpcClientsWithoutNacks() {
    assertThat(validation.statuses().values()).filteredOn(s -> s.state() != ResourceStatus.State.ACCEPTED)
        .extracting(s -> s.key().name() + " " + s.problems().stream().map(p -> p.field() + " " + p.reason()).toList())
        .containsExactlyInAnyOrder("narrow [spec.circuitBreakers.maxRequests GrpcIgnoredOption]",
            "reporting [spec.circuitBreakers.maxRequests GrpcIgnoredOption]");
    // Served means the client took the cluster: either backend's answer will do.
    try {
      assertThat(call(channel("pool.test"), true)).isEqualTo("ok");
    } catch (StatusRuntimeException e) {
      assertThat(e.getStatus().getDescription()).isEqualTo("this backend always fails");
    }
    assertThat(harness.nacks).isEmpty();
  }

  /** Round robin alternates between the two until the failing one is ejected; then only the healthy one answers. */
  @Test
  void aFailingBackendIsEjectedAndCallsGoToTheHealthyOne() {
    ManagedChannel channel = channel("pool.test");
    Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
        .until(() -> succeeds(channel, 10));
    assertThat(badCalls.get()).as("the failing backend was in rotation before").isGreaterThanOrEqualTo(3);

    int badBefore = badCalls.get();
    int goodBefore = goodCalls.get();
    assertThat(succeeds(channel, 20)).isTrue();
    assertThat(badCalls.get()).isEqualTo(badBefore);
    assertThat(goodCalls.get()).isEqualTo(goodBefore + 20);
  }

  /**
   * gRFC A32 with the {@code max_requests} Holdfast emits. grpc-java 1.85 counts a cluster's requests in flight
   * only when the cluster reports load (its counter rides on the LRS locality stats), so this cluster is served
   * with {@code lrs_server} added (Holdfast emits none; the report stream to Holdfast's server just fails).
   */
  @Test
  void theCallPastMaxRequestsFailsAtOnceWithUnavailable() throws Exception {
    ManagedChannel channel = channel("reporting.test");
    List<ListenableFuture<SimpleResponse>> held = hold(channel, MAX_REQUESTS);

    long started = System.nanoTime();
    // A deadline far beyond "at once": a call held instead of dropped would end DEADLINE_EXCEEDED, not UNAVAILABLE.
    assertThatThrownBy(() -> SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
        .unaryRpc(request()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
          assertThat(e.getStatus().getDescription()).contains("max concurrent requests limit of " + MAX_REQUESTS);
        });
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    assertThat(slowInFlight.get()).isEqualTo(MAX_REQUESTS);

    release(held);
    // With the held calls done, the limit lets calls through again.
    assertThat(call(channel, false)).isEqualTo("ok");
  }

  /**
   * Pins the grpc-java 1.85 limitation the Upstream's status warns about: a cluster without load reporting, as
   * Holdfast serves it, gets no in-flight limit, so the call past {@code max_requests} reaches the backend. When
   * this fails, grpc-java enforces the limit everywhere and the warning can go.
   */
  @Test
  void grpcJavaLetsTheCallPastMaxRequestsThroughWithoutLoadReporting() throws Exception {
    ManagedChannel channel = channel("narrow.test");
    List<ListenableFuture<SimpleResponse>> held = hold(channel, MAX_REQUESTS + 1);
    release(held);
  }

  /** Starts {@code count} calls to the slow backend and waits until it holds all of them. */
  private static List<ListenableFuture<SimpleResponse>> hold(ManagedChannel channel, int count) {
    assertThat(slowInFlight.get()).isZero();
    gate.set(new CountDownLatch(1));
    List<ListenableFuture<SimpleResponse>> held = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      held.add(ClientCalls.futureUnaryCall(channel.newCall(SimpleServiceGrpc.getUnaryRpcMethod(),
          CallOptions.DEFAULT.withWaitForReady().withDeadlineAfter(30, TimeUnit.SECONDS)), request()));
    }
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slowInFlight.get() == count);
    return held;
  }

  private static void release(List<ListenableFuture<SimpleResponse>> held) throws Exception {
    gate.get().countDown();
    for (ListenableFuture<SimpleResponse> call : held) {
      assertThat(call.get(10, TimeUnit.SECONDS).getResponseMessage()).isEqualTo("ok");
    }
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> slowInFlight.get() == 0);
  }

  /** The snapshot with {@code lrs_server: {self: {}}} on one cluster. */
  private static XdsSnapshot withLoadReporting(XdsSnapshot snapshot, String cluster) {
    Map<String, Map<String, Message>> resources = new TreeMap<>();
    snapshot.resources().forEach((type, byName) -> resources.put(type, new TreeMap<>(byName)));
    Map<String, Message> clusters = resources.get(Resources.V3.CLUSTER_TYPE_URL);
    clusters.put(cluster, ((Cluster) clusters.get(cluster)).toBuilder()
        .setLrsServer(ConfigSource.newBuilder().setSelf(SelfConfigSource.getDefaultInstance())).build());
    return XdsSnapshot.of(resources);
  }

  private static ManagedChannel channel(String target) {
    ManagedChannel channel = xdsClient.channel(target);
    synchronized (channels) {
      channels.add(channel);
    }
    return channel;
  }

  /** Whether {@code count} calls in a row succeed. */
  private static boolean succeeds(ManagedChannel channel, int count) {
    for (int i = 0; i < count; i++) {
      try {
        call(channel, true);
      } catch (StatusRuntimeException e) {
        return false;
      }
    }
    return true;
  }

  private static String call(ManagedChannel channel, boolean waitForReady) {
    SimpleServiceGrpc.SimpleServiceBlockingStub stub =
        SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    return (waitForReady ? stub.withWaitForReady() : stub).unaryRpc(request()).getResponseMessage();
  }

  private static SimpleRequest request() {
    return SimpleRequest.newBuilder().setRequestMessage("hi").build();
  }

  /** A loopback backend whose unary calls end with the status {@code handler} returns ("ok" when OK). */
  private static Server backend(java.util.function.Function<SimpleRequest, Status> handler) throws IOException {
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            Status status = handler.apply(request);
            if (status.isOk()) {
              response.onNext(SimpleResponse.newBuilder().setResponseMessage("ok").build());
              response.onCompleted();
            } else {
              response.onError(status.asRuntimeException());
            }
          }
        })
        .build()
        .start();
    backends.add(server);
    return server;
  }
}
