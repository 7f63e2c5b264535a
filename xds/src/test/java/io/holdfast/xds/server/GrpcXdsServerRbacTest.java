package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.InsecureServerCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.grpc.xds.XdsServerBuilder;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.UnaryCalls;
import io.holdfast.xds.translate.Translator;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * grpc-java's xDS-enabled server ({@code XdsServerBuilder}, gRFC A36) takes its authorisation rules (gRFC A41) from
 * Holdfast: a Gateway with {@code grpcServer: true} names the listener the server's bootstrap asks for, on the
 * server's address and port, and the server enforces the routes' RBAC itself. Calls come over a plain channel, and
 * over grpc-java's xDS client ({@code xds:///echo.test}), which applies a route's fault injection (gRFC A33) before
 * the call leaves the client: both halves of a proxyless mesh configured from Holdfast kinds. Own class (and JVM,
 * see the pom): grpc-java reads its xDS bootstrap once per JVM.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GrpcXdsServerRbacTest {

  private static final String SERVER_LISTENER = "gateway/default/echo-server";
  private static final Metadata.Key<String> USER = Metadata.Key.of("x-user", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> CASE = Metadata.Key.of("x-case", Metadata.ASCII_STRING_MARSHALLER);
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** A public RSA key set: the JWT route needs a provider, whose tokens gRPC servers never get to verify. */
  private static final String JWKS = "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"k1\",\"alg\":\"RS256\",\"use\":\"sig\",\"e\":\"AQAB\",\"n\":\"ma7sQ6xUxdeY8VKCDVOgxqa9MlPymDY4f0KU75DgdYjqWszf-p0oDJjfj1bIkpzNivzirPGV-xqGPOlScQjs0PnLDUCqcXHP_NtjazUzvKZGMtyxho6axrAWE_D7sVMa4JvCyWWXgBHPXTdUbGv39qP4JDGT9zWULNdG3ugto20AcS2D2mqrs8rhWxfJxzXr3gqV59yF3iObDC-YY1bNZaiQxt0kYdXc2I9WP_L8ljQWBDygtPswfwqYkD3_T2FRVAvOK5k0S9xBIQTaHG52D-1Q-O3Liz63i6Lz2UZ32mCRPKNjMnOnVIL17WNTgGW4jRNuVV72Z-wNGyq3QxW3pw\"}]}";

  private static ServerHarness harness;
  private static GrpcXdsClient xds;
  private static Server server;
  private static int port;
  private static ManagedChannel plain;
  private static ManagedChannel mesh;
  /** Why the server last stopped serving, for the failure message if it never starts. */
  private static final java.util.List<Throwable> notServing = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    port = freeLoopbackPort();
    harness = new ServerHarness();
    ValidationResult first = publish("mallory");
    assertThat(first.status(ResourceKey.gateway("default", "echo-server")).problems())
        .extracting(Problem::reason).containsExactly(Reasons.GRPC_SERVER_DENIES_ROUTE);
    assertThat(first.status(ResourceKey.virtualService("default", "echo-client")).problems())
        .extracting(Problem::reason).containsExactly(Reasons.GRPC_IGNORED_OPTION);
    xds = GrpcXdsClient.bootstrap(harness.port(), "grpc-echo-server", "holdfast-test", SERVER_LISTENER);
    // The server binds loopback only; it compares the listener's address with 0.0.0.0:port, as it always does.
    server = XdsServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
            InsecureServerCredentials.create())
        .xdsServingStatusListener(new XdsServerBuilder.XdsServingStatusListener() {
          @Override
          public void onServing() {
          }

          @Override
          public void onNotServing(Throwable throwable) {
            notServing.add(throwable);
          }
        })
        .drainGraceTime(1, TimeUnit.SECONDS)
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage("echo " + request.getRequestMessage())
                .build());
            response.onCompleted();
          }
        })
        .build();
    startWithin(server, WAIT);
    plain = Grpc.newChannelBuilder("127.0.0.1:" + port, InsecureChannelCredentials.create()).build();
    mesh = xds.channel("echo.test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (xds != null) {
      xds.close();
    }
    for (ManagedChannel channel : new ManagedChannel[] {plain, mesh}) {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (harness != null) {
      harness.close();
    }
  }

  /** The server's RBAC lets an allowed caller through and refuses one a deny rule matches by header. */
  @Test
  @Order(1)
  void aDenyRuleOnAHeaderRefusesThatCallerOnly() {
    assertThat(call(plain, Map.of(USER, "alice"))).isEqualTo("echo hi");
    assertThat(call(plain, Map.of())).isEqualTo("echo hi");
    assertRefused(plain, Map.of(USER, "mallory"), Status.Code.PERMISSION_DENIED);
    assertThat(harness.nacks).as("grpc-java's server accepted every resource").isEmpty();
  }

  /** A rule on the client's address: the server sees the loopback peer and refuses it. */
  @Test
  @Order(2)
  void aDenyRuleOnTheClientAddressRefusesLoopbackCallers() {
    assertRefused(plain, Map.of(CASE, "ip"), Status.Code.PERMISSION_DENIED);
  }

  /** A route that requires a JWT, which gRPC servers do not verify, denies every call (fail closed). */
  @Test
  @Order(3)
  void aRouteRequiringAJwtDeniesEveryCall() {
    assertRefused(plain, Map.of(CASE, "jwt", USER, "alice"), Status.Code.PERMISSION_DENIED);
  }

  /**
   * Through grpc-java's xDS client: its fault filter aborts the route that injects one with the configured status
   * (100%: every call) before the call leaves; other calls reach the server, whose RBAC still decides.
   */
  @Test
  @Order(4)
  void theXdsClientAbortsFaultyCallsAndTheServerAuthorisesTheRest() {
    assertThat(call(mesh, Map.of(USER, "alice"))).isEqualTo("echo hi");
    assertRefused(mesh, Map.of(USER, "mallory"), Status.Code.PERMISSION_DENIED);
    for (int i = 0; i < 5; i++) {
      assertRefused(mesh, Map.of(CASE, "abort", USER, "alice"), Status.Code.RESOURCE_EXHAUSTED);
    }
    assertThat(harness.nacks).isEmpty();
  }

  /**
   * Security on a client VirtualService is for Envoy only, as its GrpcIgnoredOption warning says: the xDS client
   * gets no security filter (it would reject a listener naming one it does not implement), so the rule does not
   * refuse the call, and nothing is NACKed.
   */
  @Test
  @Order(5)
  void theXdsClientRunsNoSecurityFilterAsWarned() {
    assertThat(call(mesh, Map.of(Metadata.Key.of("x-client", Metadata.ASCII_STRING_MARSHALLER), "blocked")))
        .isEqualTo("echo hi");
    assertThat(harness.nacks).isEmpty();
  }

  /** A policy change in Holdfast reaches the running server: the denied caller flips. */
  @Test
  @Order(6)
  void changingThePolicyFlipsTheOutcome() {
    publish("alice");
    await().atMost(WAIT).untilAsserted(() -> {
      assertRefused(plain, Map.of(USER, "alice"), Status.Code.PERMISSION_DENIED);
      assertThat(call(plain, Map.of(USER, "mallory"))).isEqualTo("echo hi");
    });
    assertThat(harness.nacks).isEmpty();
  }

  /**
   * The server matches a route's path with its case, as Envoy does: a route for the upper-case service name, which
   * would refuse loopback callers, does not take a call to the service's own (mixed-case) name. grpc-java reads an
   * unset {@code case_sensitive} as false, so this holds because Holdfast states it on every gRPC route.
   */
  @Test
  @Order(7)
  void aRouteForAnotherCaseOfThePathDoesNotTakeTheCall() {
    assertThat(call(plain, Map.of(CASE, "upper"))).isEqualTo("echo hi");
    assertThat(harness.nacks).isEmpty();
  }

  /**
   * Holdfast's config: an Upstream for the server (for the xDS client's channel), a client VirtualService for
   * {@code echo.test} with a fault-injecting route (and a rule gRPC clients do not run), and the server's VirtualService served by a gRPC-server Gateway
   * on the server's port, denying {@code deniedUser} by header, loopback callers on one route (and on one for the
   * upper-case service name), and requiring a JWT on another.
   */
  private static ValidationResult publish(String deniedUser) {
    ValidationResult validation = new Validator().validate(TestManifests.config(
        TestManifests.upstream("echo", port) + "  http2: true\n", """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: echo-client}
        spec:
          domains: [echo.test]
          options:
            security:
              rbac:
                action: Deny
                rules:
                  - headers: [{name: x-client, exact: blocked}]
          routes:
            - match: {prefix: /, headers: [{name: x-case, exact: abort}]}
              route: {upstream: echo}
              options: {faults: {abort: {percentage: 100, grpcStatus: 8}}}
            - match: {prefix: /}
              route: {upstream: echo}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: echo-server}
        spec:
          domains: ["*"]
          options:
            security:
              jwtProviders:
                - name: local
                  issuer: https://local.test
                  localJwks: {inline: '%s'}
              rbac:
                action: Deny
                rules:
                  - headers: [{name: x-user, exact: %s}]
          routes:
            - match: {prefix: /GRPC.TESTING.SIMPLESERVICE/, headers: [{name: x-case, exact: upper}]}
              directResponse: {status: 200}
              options:
                security:
                  rbac:
                    action: Deny
                    rules:
                      - directClientIp: [127.0.0.1/32]
            - match: {prefix: /, headers: [{name: x-case, exact: ip}]}
              directResponse: {status: 200}
              options:
                security:
                  rbac:
                    action: Deny
                    rules:
                      - directClientIp: [127.0.0.1/32]
            - match: {prefix: /, headers: [{name: x-case, exact: jwt}]}
              directResponse: {status: 200}
              options:
                security:
                  jwt: {providers: [local]}
            - match: {prefix: /}
              directResponse: {status: 200}
        """.formatted(JWKS, deniedUser), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: echo-server}
        spec:
          port: %d
          grpcServer: true
          virtualServices: [{name: echo-server}]
        """.formatted(port)));
    assertThat(validation.accepted().virtualServices()).hasSize(2);
    assertThat(validation.accepted().gateways()).hasSize(1);
    harness.cache.setSnapshot(
        new Translator().translate(HoldfastFrontEnd.lowerAccepted(validation.accepted())).snapshot());
    return validation;
  }

  /**
   * grpc-java's xDS server binds only once it has its listener, and compares the listener's port with its own, so
   * the port is chosen first: one the system hands out on loopback, released just before the server takes it.
   */
  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** {@code start()} blocks until the server serves; bounded here, with the server's own reason if it never does. */
  private static void startWithin(Server server, Duration limit) throws Exception {
    CompletableFuture<Void> started = CompletableFuture.runAsync(() -> {
      try {
        server.start();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    try {
      started.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      server.shutdownNow();
      throw new AssertionError("the xDS server did not start serving; not serving because " + notServing, e);
    }
  }

  private static String call(ManagedChannel channel, Map<Metadata.Key<String>, String> headers) {
    return UnaryCalls.unary(channel, headers, "hi");
  }

  private static void assertRefused(ManagedChannel channel, Map<Metadata.Key<String>, String> headers,
      Status.Code code) {
    assertThatThrownBy(() -> call(channel, headers))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> assertThat(e.getStatus().getCode())
            .as(e.getStatus().toString()).isEqualTo(code));
  }
}
