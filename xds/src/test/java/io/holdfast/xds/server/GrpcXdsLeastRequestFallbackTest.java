package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.LoadBalancerProvider;
import io.grpc.LoadBalancerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.Server;
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
import io.holdfast.xds.translate.Translator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A gRPC client without least request: grpc-java with its legacy LEAST_REQUEST support switched off (as in
 * clients that read only ROUND_ROBIN and RING_HASH from the {@code lb_policy} enum) and its least_request
 * policy unregistered (as in clients without gRFC A48). An upstream with {@code loadBalancing: LEAST_REQUEST}
 * must still be accepted and route, through the round_robin fallback in {@code load_balancing_policy}. Own
 * class: the switch, the LB registry and the xDS bootstrap are JVM-wide.
 */
class GrpcXdsLeastRequestFallbackTest {

  /** grpc-java's xDS client, bootstrapped at the server under test (once per JVM). */
  private static GrpcXdsClient xdsClient;
  private static final String LEAST_REQUEST_SWITCH = "io.grpc.xds.experimentalEnableLeastRequest";

  private static Server backend;
  private static ServerHarness harness;
  private static ManagedChannel channel;
  private static LoadBalancerProvider leastRequest;

  @BeforeAll
  static void start() throws IOException {
    // Read once, when grpc-java first parses a Cluster: set before any xDS traffic.
    System.setProperty(LEAST_REQUEST_SWITCH, "false");
    leastRequest = LoadBalancerRegistry.getDefaultRegistry().getProvider("least_request_experimental");
    assertThat(leastRequest).as("grpc-xds registers least_request").isNotNull();
    LoadBalancerRegistry.getDefaultRegistry().deregister(leastRequest);

    backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage("backend").build());
            response.onCompleted();
          }
        })
        .build()
        .start();
    ValidationResult validation = new Validator().validate(TestManifests.config(
        TestManifests.upstream("busy", backend.getPort()) + "  http2: true\n  loadBalancing: LEAST_REQUEST\n",
        TestManifests.virtualService("echo", "echo.test", "busy")));
    harness = new ServerHarness();
    harness.cache.setSnapshot(new Translator().translate(HoldfastFrontEnd.lowerAccepted(validation.accepted())).snapshot());
    xdsClient = GrpcXdsClient.bootstrap(harness.port(), "grpc-without-least-request", "holdfast-test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (xdsClient != null) {
      xdsClient.close();
    }
    System.clearProperty(LEAST_REQUEST_SWITCH);
    if (leastRequest != null) {
      LoadBalancerRegistry.getDefaultRegistry().register(leastRequest);
    }
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (harness != null) {
      harness.close();
    }
    if (backend != null) {
      backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Regression: the cluster carried LEAST_REQUEST in the enum only, and such a client NACKed it. */
  @Test
  void aLeastRequestUpstreamIsAcceptedAndRoutesWithRoundRobinInstead() {
    channel = xdsClient.channel("echo.test");
    String answer = SimpleServiceGrpc.newBlockingStub(channel)
        .withWaitForReady()
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.newBuilder().setRequestMessage("hi").build())
        .getResponseMessage();
    assertThat(answer).isEqualTo("backend");
    assertThat(harness.nacks).isEmpty();
  }
}
