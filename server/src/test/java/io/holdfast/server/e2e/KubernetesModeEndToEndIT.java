package io.holdfast.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.election.ElectionSettings;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.NamedBackends;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code holdfast serve --kubernetes} end to end: the emulated API (CRUD mock with Holdfast's CRDs) behind a
 * fault proxy, one replica that elects itself through a Lease, writes statuses and serves grpc-java's real
 * xDS client. The tests build on each other (one replica's life through an outage and a restart), in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubernetesModeEndToEndIT {
  /** grpc-java's xDS client, bootstrapped at the server under test (once per JVM). */
  private static GrpcXdsClient xdsClient;
  private static final Duration CONVERGE = Duration.ofSeconds(20);
  private static final String NS = "demo";

  @TempDir
  static Path snapshotDir;
  private static NamedBackends backends;
  private static MockKubeApi api;
  private static FaultProxy proxy;
  /** The address in the clients' bootstrap: stable across restarts of a replica that binds port 0 each time. */
  private static FaultProxy xdsFront;
  private static HoldfastServer holdfast;
  private static final List<ManagedChannel> channels = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    backends = new NamedBackends("a", "b", "c");
    api = MockKubeApi.start();
    for (String file : List.of("upstreams", "virtualservices", "gateways")) {
      try (InputStream in = Files.newInputStream(Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
        CustomResourceDefinition crd = api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        api.admin().apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
    }
    proxy = FaultProxy.start("kube-api", api.port());
    // grpc-java reads its xDS bootstrap once per JVM, possibly as soon as a replica starts: name the front now.
    // It follows each replica's port (replicas bind port 0); until the first starts it leads to the API's port,
    // and no client dials it before then.
    xdsFront = FaultProxy.start("xds-front", api.port());
    xdsClient = GrpcXdsClient.bootstrap(xdsFront.port(), "kube-e2e-client", "holdfast-e2e");
  }

  @AfterAll
  static void stop() throws Exception {
    if (xdsClient != null) {
      xdsClient.close();
    }
    for (ManagedChannel c : channels) {
      c.shutdownNow();
    }
    if (holdfast != null) {
      holdfast.close();
    }
    if (proxy != null) {
      proxy.close();
    }
    if (xdsFront != null) {
      xdsFront.close();
    }
    if (api != null) {
      api.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  private static HoldfastServer startReplica() throws IOException {
    ElectionSettings election = ElectionSettings.builder().identity("replica-1").leaseNamespace("holdfast-system")
        .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500)).retryPeriod(Duration.ofMillis(300))
        .lockTimeout(Duration.ofMillis(500)).leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150))
        .build();
    ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.of(snapshotDir),
        LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(NS),
        Optional.of("http://127.0.0.1:" + proxy.port()))), election)
        // The backends are local processes: loopback upstreams allowed, as --upstream-allow-loopback does.
        .withAccess(io.holdfast.api.AccessPolicy.FILE_DEFAULTS);
    HoldfastServer h = HoldfastServer.start(settings, Clock.systemUTC());
    xdsFront.retarget(h.xdsPort());
    return h;
  }

  @Test
  @Order(1)
  void resourcesAppliedThroughTheApiAreServedAndAnInvalidOneGetsARejectedCondition() throws Exception {
    apply(upstream("a"), upstream("b"), virtualService("echo", "a", "echo.test", "fresh.test"),
        virtualService("broken", "missing", "broken.test"));
    holdfast = startReplica();
    await().atMost(CONVERGE).until(() -> call("echo.test").equals("a"));
    await().atMost(CONVERGE).until(() -> condition("VirtualService", "broken").map(c -> c.get("reason"))
        .equals(Optional.of("UpstreamNotFound")));
    assertThat(condition("VirtualService", "broken").orElseThrow()).containsEntry("status", "False");
    await().atMost(CONVERGE).until(() -> condition("VirtualService", "echo").map(c -> c.get("status"))
        .equals(Optional.of("True")));
    assertThat(condition("Upstream", "a").orElseThrow()).containsEntry("status", "True");
    assertThat(holdfast.state()).containsEntry("role", "leader");
  }

  @Test
  @Order(2)
  void aVirtualServiceCreatedDuringAnOutageIsAcceptedAndServedAfterRecovery() throws Exception {
    proxy.blackhole();
    apply(virtualService("late", "b", "late.test")); // straight to the API: the replica is cut off
    await().atMost(CONVERGE).until(() -> holdfast.staleSince().isPresent());
    assertThat(call("echo.test")).as("still served while the API is away").isEqualTo("a");

    proxy.pass();
    await().atMost(CONVERGE).until(() -> call("late.test").equals("b"));
    await().atMost(CONVERGE).until(() -> condition("VirtualService", "late").map(c -> c.get("status"))
        .equals(Optional.of("True")));
    await().atMost(CONVERGE).until(() -> holdfast.staleSince().isEmpty());
  }

  @Test
  @Order(3)
  void aReplicaRestartedDuringAnOutageServesTheLastKnownSnapshotToANewClient() throws Exception {
    await().atMost(CONVERGE).until(() -> Files.exists(snapshotDir.resolve("xds-snapshot.bin")));
    proxy.reset();
    holdfast.close();
    holdfast = startReplica();
    // A target this JVM never asked for: its xDS client is new, so only the restarted replica can answer it.
    assertThat(call("fresh.test")).isEqualTo("a");
    assertThat(holdfast.staleSince()).as("serving from disk, unconfirmed").isPresent();
    proxy.pass();
    await().atMost(CONVERGE).until(() -> holdfast.staleSince().isEmpty());
  }

  @Test
  @Order(4)
  void aKubeServiceUpstreamFollowsEndpointSliceChanges() throws Exception {
    KubernetesClient admin = api.admin();
    admin.load(new java.io.ByteArrayInputStream("""
        apiVersion: v1
        kind: Service
        metadata: {name: svc, namespace: demo}
        spec:
          ports: [{name: grpc, port: 80, targetPort: 8080}]
        """.getBytes())).create();
    applySlice("svc-1", backends.port("c"));
    apply("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: svc, namespace: demo}
        spec:
          kube: {name: svc, port: 80}
          http2: true
        """, virtualService("svc", "svc", "svc.test"));
    await().atMost(CONVERGE).until(() -> call("svc.test").equals("c"));
    applySlice("svc-1", backends.port("b"));
    await().atMost(CONVERGE).until(() -> call("svc.test").equals("b"));
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  private static void applySlice(String name, int port) {
    String yaml = """
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata:
          name: %s
          namespace: demo
          labels: {kubernetes.io/service-name: svc}
        addressType: IPv4
        ports: [{name: grpc, port: %d}]
        endpoints:
          - addresses: [127.0.0.1]
            conditions: {ready: true}
        """.formatted(name, port);
    var slice = api.admin().getKubernetesSerialization()
        .unmarshal(yaml, io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice.class);
    api.admin().discovery().v1().endpointSlices().inNamespace(NS).resource(slice)
        .createOr(io.fabric8.kubernetes.client.dsl.NonDeletingOperation::update);
  }

  private static String call(String domain) {
    ManagedChannel channel = channels.stream().filter(c -> c.authority().equals(domain)).findFirst().orElseGet(() -> {
      ManagedChannel c = xdsClient.channel(domain);
      channels.add(c);
      return c;
    });
    try {
      return SimpleServiceGrpc.newBlockingStub(channel).withWaitForReady().withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.newBuilder().build()).getResponseMessage();
    } catch (StatusRuntimeException e) {
      return "error: " + e.getStatus();
    }
  }

  @SuppressWarnings("unchecked")
  private static Optional<Map<String, Object>> condition(String kind, String name) {
    GenericKubernetesResource r = api.admin().genericKubernetesResources("gateway.holdfast.io/v1", kind)
        .inNamespace(NS).withName(name).get();
    if (r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("conditions") instanceof List<?> conditions)) {
      return Optional.empty();
    }
    return conditions.stream().map(c -> (Map<String, Object>) c).filter(c -> "Accepted".equals(c.get("type"))).findFirst();
  }

  private static void apply(String... yamls) {
    for (String yaml : yamls) {
      GenericKubernetesResource r = api.admin().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
      api.admin().genericKubernetesResources(r.getApiVersion(), r.getKind()).inNamespace(NS).resource(r).create();
    }
  }

  private static String upstream(String name) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: %s, namespace: demo}
        spec:
          static:
            hosts: [{address: 127.0.0.1, port: %d}]
          http2: true
        """.formatted(name, backends.port(name));
  }

  private static String virtualService(String name, String upstream, String... domains) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: demo}
        spec:
          domains: [%s]
          routes:
            - match: {prefix: /}
              route: {upstream: %s}
        """.formatted(name, String.join(", ", domains), upstream);
  }
}
