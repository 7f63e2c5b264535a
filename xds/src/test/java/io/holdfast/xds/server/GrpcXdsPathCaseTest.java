package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.HandlerRegistry;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerMethodDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.translate.Translator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's xDS client matches paths with the case rule Holdfast's route says, as Envoy would: a case-sensitive
 * prefix or exact path (the default) takes only calls whose path has its case, and a {@code caseSensitive: false}
 * one takes calls whatever their case. grpc-java reads an unset {@code case_sensitive} as false where Envoy's
 * default is true, so Holdfast writes the field on every prefix and exact path it serves to gRPC clients; before it
 * did, a call differing only in case took (or bypassed) a case-sensitive route. The backends answer any method with
 * their own name, so calls to paths that differ only in case show where they went. Own class (and JVM, see the
 * pom): grpc-java reads its xDS bootstrap once per JVM.
 */
class GrpcXdsPathCaseTest {

  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  private static final List<Server> backends = new ArrayList<>();
  private static ServerHarness harness;
  private static GrpcXdsClient xdsClient;
  private static ManagedChannel channel;

  @BeforeAll
  static void start() throws IOException {
    ValidationResult validation = new Validator().validate(TestManifests.config(
        TestManifests.upstream("same-case", backend("same-case")) + "  http2: true\n",
        TestManifests.upstream("one-method", backend("one-method")) + "  http2: true\n",
        TestManifests.upstream("any-case", backend("any-case")) + "  http2: true\n",
        TestManifests.upstream("rest", backend("rest")) + "  http2: true\n", """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: echo}
        spec:
          domains: [case.test]
          routes:
            - {match: {prefix: /echo.Any/}, route: {upstream: same-case}}
            - {match: {exact: /echo.Path/Call}, route: {upstream: one-method}}
            - {match: {prefix: /echo.Loose/, caseSensitive: false}, route: {upstream: any-case}}
            - {match: {prefix: /}, route: {upstream: rest}}
        """));
    assertThat(validation.statuses().values()).allMatch(ResourceStatus::isServed);
    harness = new ServerHarness();
    harness.cache.setSnapshot(new Translator().translate(HoldfastFrontEnd.lowerAccepted(validation.accepted()))
        .snapshot());
    xdsClient = GrpcXdsClient.bootstrap(harness.port(), "grpc-path-case", "holdfast-test");
    channel = xdsClient.channel("case.test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (xdsClient != null) {
      xdsClient.close();
    }
    if (harness != null) {
      harness.close();
    }
    for (Server backend : backends) {
      backend.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** A backend on loopback that answers every unary call, whatever its method, with {@code name}. */
  private static int backend(String name) throws IOException {
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .fallbackHandlerRegistry(new HandlerRegistry() {
          @Override
          public ServerMethodDefinition<?, ?> lookupMethod(String method, String authority) {
            return ServerMethodDefinition.create(unary(method), ServerCalls.asyncUnaryCall((request, response) -> {
              response.onNext(name.getBytes(StandardCharsets.UTF_8));
              response.onCompleted();
            }));
          }
        })
        .build()
        .start();
    backends.add(server);
    return server.getPort();
  }

  private static MethodDescriptor<byte[], byte[]> unary(String fullMethodName) {
    return MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(fullMethodName).setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
  }

  /** The name of the backend that answered a call to {@code /fullMethodName}. */
  private static String call(String fullMethodName) {
    byte[] answer = ClientCalls.blockingUnaryCall(channel, unary(fullMethodName),
        CallOptions.DEFAULT.withWaitForReady().withDeadlineAfter(10, TimeUnit.SECONDS), new byte[0]);
    return new String(answer, StandardCharsets.UTF_8);
  }

  @Test
  void aCaseSensitivePrefixTakesOnlyCallsWithItsCase() {
    assertThat(call("echo.Any/x")).isEqualTo("same-case");
    assertThat(call("ECHO.ANY/x")).isEqualTo("rest");
    assertThat(call("echo.any/x")).isEqualTo("rest");
    assertThat(harness.nacks).isEmpty();
  }

  @Test
  void aCaseSensitiveExactPathTakesOnlyCallsWithItsCase() {
    assertThat(call("echo.Path/Call")).isEqualTo("one-method");
    assertThat(call("echo.Path/call")).isEqualTo("rest");
    assertThat(call("ECHO.PATH/CALL")).isEqualTo("rest");
  }

  @Test
  void aCaseInsensitivePrefixTakesCallsWhateverTheCaseOfTheirPath() {
    assertThat(call("echo.Loose/Call")).isEqualTo("any-case");
    assertThat(call("ECHO.LOOSE/Call")).isEqualTo("any-case");
    assertThat(call("echo.loose/call")).isEqualTo("any-case");
    assertThat(call("echo.Looser/Call")).isEqualTo("rest");
    assertThat(harness.nacks).isEmpty();
  }
}
