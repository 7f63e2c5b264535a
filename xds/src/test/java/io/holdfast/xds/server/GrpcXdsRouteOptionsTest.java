package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.UnaryCalls;
import io.holdfast.xds.translate.Translator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's xDS client honours the route options gRPC implements, as Holdfast translates them: hash policies
 * with RING_HASH (gRFC A42), fault injection (A33), retries with backoff (A44) and max_stream_duration. One
 * VirtualService, routes chosen by an {@code x-case} header, served by Holdfast's own xDS server on loopback. Own
 * class (and JVM, see the pom): grpc-java reads its xDS bootstrap once per JVM.
 */
class GrpcXdsRouteOptionsTest {

  /** grpc-java's xDS client, bootstrapped at the server under test (once per JVM). */
  private static GrpcXdsClient xdsClient;
  private static final Metadata.Key<String> CASE = Metadata.Key.of("x-case", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> USER = Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER);
  private static final int HASHED_BACKENDS = 3;
  private static final long DELAY_MILLIS = 300;

  private static final List<Server> backends = new ArrayList<>();
  /** Attempts per request message seen by the "flaky" backend, which fails the first one of each. */
  private static final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
  /** Calls the "flaky" backend holds without answering (answered at shutdown). */
  private static final List<StreamObserver<SimpleResponse>> held = new CopyOnWriteArrayList<>();
  private static ServerHarness harness;
  private static ManagedChannel channel;

  @BeforeAll
  static void start() throws IOException {
    StringBuilder hashedHosts = new StringBuilder();
    for (int i = 0; i < HASHED_BACKENDS; i++) {
      Server backend = backend("h" + i);
      hashedHosts.append(i == 0 ? "" : ", ").append("{address: 127.0.0.1, port: ").append(backend.getPort())
          .append('}');
    }
    Server flaky = backend("flaky");
    ValidationResult validation = new Validator().validate(TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: hashed}
        spec: {static: {hosts: [%s]}, loadBalancing: RING_HASH, http2: true}
        """.formatted(hashedHosts), TestManifests.upstream("flaky", flaky.getPort()) + "  http2: true\n", """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: options}
        spec:
          domains: [options.test]
          routes:
            - match: {prefix: /, headers: [{name: x-case, exact: hash}]}
              route: {upstream: hashed}
              options: {hashPolicies: [{header: x-user}]}
            - match: {prefix: /, headers: [{name: x-case, exact: retry}]}
              route: {upstream: flaky}
              retries: {attempts: 2, retryOn: [unavailable], backoff: {baseInterval: 10ms, maxInterval: 50ms}}
            - match: {prefix: /, headers: [{name: x-case, exact: abort}]}
              route: {upstream: flaky}
              options: {faults: {abort: {percentage: 100, httpStatus: 503}}}
            - match: {prefix: /, headers: [{name: x-case, exact: abort-half}]}
              route: {upstream: hashed}
              options: {faults: {abort: {percentage: 50, grpcStatus: 8}}}
            - match: {prefix: /, headers: [{name: x-case, exact: delay}]}
              route: {upstream: hashed}
              options: {faults: {delay: {percentage: 100, fixedDelay: %dms}}}
            - match: {prefix: /, headers: [{name: x-case, exact: bounded}]}
              route: {upstream: flaky}
              options: {maxStreamDuration: 200ms}
            - match: {prefix: /}
              route: {upstream: flaky}
        """.formatted(DELAY_MILLIS)));
    assertThat(validation.accepted().virtualServices()).hasSize(1);
    harness = new ServerHarness();
    harness.cache.setSnapshot(
        new Translator().translate(HoldfastFrontEnd.lowerAccepted(validation.accepted())).snapshot());
    xdsClient = GrpcXdsClient.bootstrap(harness.port(), "grpc-route-options", "holdfast-test");
    channel = xdsClient.channel("options.test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (xdsClient != null) {
      xdsClient.close();
    }
    held.forEach(StreamObserver::onCompleted);
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (harness != null) {
      harness.close();
    }
    for (Server backend : backends) {
      backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** gRFC A42: one x-user value always reaches one backend; different values spread over the backends. */
  @Test
  void aHeaderHashPolicyKeepsEachUserOnOneBackend() {
    Set<String> used = new HashSet<>();
    for (int user = 0; user < 20; user++) {
      Map<String, Integer> reached = new HashMap<>();
      for (int call = 0; call < 5; call++) {
        reached.merge(call(Map.of(CASE, "hash", USER, "user-" + user), "hi"), 1, Integer::sum);
      }
      assertThat(reached).as("backends reached by user-" + user).hasSize(1);
      used.addAll(reached.keySet());
    }
    // Twenty users all hashing onto one of three backends has a chance of about 3^-19.
    assertThat(used).hasSizeGreaterThan(1);
    assertThat(harness.nacks).isEmpty();
  }

  /** gRFC A44: the first attempt fails with UNAVAILABLE, the retry succeeds; without retries the call fails. */
  @Test
  void aRetryPolicyRetriesUnavailable() {
    assertThat(call(Map.of(CASE, "retry"), "flaky:retried")).isEqualTo("flaky");
    assertThat(attempts.get("flaky:retried")).hasValue(2);

    assertThatThrownBy(() -> call(Map.of(), "flaky:not-retried"))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(attempts.get("flaky:not-retried")).hasValue(1);
  }

  /** gRFC A33: an abort of every call with HTTP 503 fails them with UNAVAILABLE before reaching the backend. */
  @Test
  void anAbortFaultFailsCallsWithTheStatus() {
    assertThatThrownBy(() -> call(Map.of(CASE, "abort"), "flaky:aborted"))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(attempts).doesNotContainKey("flaky:aborted");
  }

  /** gRFC A33: a 50% abort with gRPC status 8 fails about half of the calls with RESOURCE_EXHAUSTED. */
  @Test
  void anAbortPercentageFailsThatShareOfCalls() {
    int calls = 200;
    int aborted = 0;
    for (int i = 0; i < calls; i++) {
      try {
        call(Map.of(CASE, "abort-half"), "hi");
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        aborted++;
      }
    }
    // Binomial(200, 0.5): standard deviation about 7 calls; 30 is more than 4 of them.
    assertThat(aborted).isBetween(70, 130);
  }

  /** gRFC A33: a delay fault holds the call for the delay, then it reaches the backend. */
  @Test
  void aDelayFaultHoldsTheCall() {
    call(Map.of(CASE, "hash", USER, "warm-up"), "hi"); // config loaded and backends connected: only the delay waits
    long start = System.nanoTime();
    String answer = call(Map.of(CASE, "delay"), "hi");
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(answer).startsWith("h");
    assertThat(elapsedMillis).isGreaterThanOrEqualTo(DELAY_MILLIS);
  }

  /** max_stream_duration becomes the call's deadline: a call the backend never answers fails with it. */
  @Test
  void maxStreamDurationBoundsTheCall() {
    assertThat(call(Map.of(CASE, "bounded"), "hi")).isEqualTo("flaky");
    assertThatThrownBy(() -> call(Map.of(CASE, "bounded"), "hang"))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
    assertThat(held).isNotEmpty();
  }

  /** A unary call with a 10 s deadline of its own; the route options must act well before it. */
  private static String call(Map<Metadata.Key<String>, String> headers, String message) {
    return UnaryCalls.unary(channel, headers, message);
  }

  /**
   * Answers with its name. Messages starting {@code flaky:} fail their first attempt with UNAVAILABLE; the
   * message {@code hang} is never answered.
   */
  private static Server backend(String name) throws IOException {
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            String message = request.getRequestMessage();
            if (message.equals("hang")) {
              held.add(response);
              return;
            }
            if (message.startsWith("flaky:")
                && attempts.computeIfAbsent(message, m -> new AtomicInteger()).incrementAndGet() == 1) {
              response.onError(Status.UNAVAILABLE.withDescription("first attempt fails").asRuntimeException());
              return;
            }
            response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
            response.onCompleted();
          }
        })
        .build()
        .start();
    backends.add(server);
    return server;
  }
}
