package io.holdfast.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.xds.testing.GrpcXdsClient;
import io.holdfast.xds.testing.NamedBackends;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code holdfast serve} end to end with a real third-party xDS client: grpc-java's ({@code xds:///echo.test}),
 * bootstrapped at this test's Holdfast on loopback, calling local gRPC backends {@code a}, {@code b}, {@code c}.
 * One class: the bootstrap is a JVM-wide system property, and one client channel stays connected throughout.
 */
class ServeEndToEndTest {
  /** grpc-java's xDS client, bootstrapped at the server under test (once per JVM). */
  private static GrpcXdsClient xdsClient;
  private static final Duration CONVERGE = Duration.ofSeconds(15);

  @TempDir
  static Path configDir;
  private static NamedBackends backends;
  /** The address in the client's bootstrap: stable across restarts of a server that binds port 0 each time. */
  private static FaultProxy xdsFront;
  private static HoldfastServer holdfast;
  private static ManagedChannel channel;

  @BeforeAll
  static void start() throws Exception {
    backends = new NamedBackends("a", "b", "c");
    writeBaseConfig();
    // grpc-java reads its xDS bootstrap once per JVM: name the front before anything else runs.
    xdsFront = FaultProxy.start("xds-front", backends.port("a")); // retargeted before any client dials it
    xdsClient = GrpcXdsClient.bootstrap(xdsFront.port(), "e2e-client", "holdfast-e2e");
    holdfast = startHoldfast();
    channel = xdsClient.channel("echo.test");
  }

  @AfterAll
  static void stop() throws Exception {
    if (xdsClient != null) {
      xdsClient.close();
    }
    if (channel != null) {
      channel.shutdownNow();
      channel.awaitTermination(5, TimeUnit.SECONDS);
    }
    if (holdfast != null) {
      holdfast.close();
    }
    if (xdsFront != null) {
      xdsFront.close();
    }
    if (backends != null) {
      backends.close();
    }
  }

  @BeforeEach
  void baseConfig() throws IOException {
    writeBaseConfig();
    await().atMost(CONVERGE).until(() -> call(Map.of()).equals("a") && call(Map.of("x-pick", "b")).equals("b"));
  }

  /** Binds port 0 (no port picked in advance for someone else to take) and points the client's front at it. */
  private static HoldfastServer startHoldfast() throws IOException {
    HoldfastServer h = HoldfastServer.start(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC());
    if (xdsFront != null) {
      xdsFront.retarget(h.xdsPort());
    }
    return h;
  }

  @Test
  void routesByHeaderMatchAndSplitsByWeight() {
    for (int i = 0; i < 10; i++) {
      assertThat(call(Map.of("x-pick", "b"))).isEqualTo("b");
      assertThat(call(Map.of())).isEqualTo("a");
    }
    Map<String, Integer> seen = new HashMap<>();
    int calls = 400;
    for (int i = 0; i < calls; i++) {
      seen.merge(call(Map.of("x-split", "yes")), 1, Integer::sum);
    }
    assertThat(seen.keySet()).containsOnly("a", "b");
    double shareOfA = seen.get("a") / (double) calls;
    assertThat(shareOfA).as("75/25 split, observed %s", seen).isBetween(0.65, 0.85);
  }

  @Test
  void editingAFileChangesRoutingForAConnectedClientWithoutARestart() throws IOException {
    write("vs.yaml", virtualService("c"));
    await().atMost(CONVERGE).until(() -> call(Map.of()).equals("c"));
    for (int i = 0; i < 20; i++) {
      assertThat(call(Map.of())).isEqualTo("c");
    }
  }

  @Test
  void aMalformedFileLeavesTheClientOnTheLastGoodConfigAndSaysWhere() throws Exception {
    String before = holdfast.cache().currentSnapshot().orElseThrow().version();
    write("vs.yaml", "apiVersion: gateway.holdfast.io/v1\nkind: VirtualService\nmetadata: {name: echo\nspec: [\n");
    await().atMost(CONVERGE).until(() -> holdfast.statusBoard().current().orElseThrow().manifestErrors().size() >= 2);
    assertThat(holdfast.statusBoard().current().orElseThrow().manifestErrors().get(0).toString())
        .startsWith(configDir.resolve("vs.yaml") + ":");
    assertThat(holdfast.cache().currentSnapshot().orElseThrow().version()).isEqualTo(before);
    for (int i = 0; i < 20; i++) {
      assertThat(call(Map.of())).isEqualTo("a");
    }
    assertThat(adminState()).contains("vs.yaml:").contains("last good version");
  }

  @Test
  void anInvalidResourceIsRejectedWithItsReasonWhileItsLastAcceptedVersionKeepsRouting() throws Exception {
    write("vs.yaml", virtualService("missing-upstream"));
    ResourceKey vs = new ResourceKey("VirtualService", "default", "echo");
    await().atMost(CONVERGE).until(() -> holdfast.statusBoard().statusOf(vs)
        .map(s -> s.state() == ResourceStatus.State.REJECTED).orElse(false));
    assertThat(holdfast.statusBoard().statusOf(vs).orElseThrow().problems().toString())
        .contains("UpstreamNotFound").contains("ServingLastAccepted");
    for (int i = 0; i < 20; i++) {
      assertThat(call(Map.of())).isEqualTo("a");
    }
    assertThat(adminState()).contains("UpstreamNotFound");
  }

  @Test
  void aNackedClusterIsNotResentUntilTheConfigChanges() throws IOException {
    // grpc-java supports no RANDOM load balancing: it NACKs the Cluster, a valid one for Envoy.
    write("upstreams.yaml", upstreams("RANDOM"));
    write("vs.yaml", virtualService("a", "c"));
    ResourceKey c = new ResourceKey("Upstream", "default", "c");
    await().atMost(CONVERGE).until(() -> holdfast.statusBoard().nackOf(c).isPresent());
    assertThat(holdfast.statusBoard().nackOf(c).orElseThrow().errorDetail()).isNotBlank();
    double pushes = clusterPushes();
    // The NACKed version stays NACKed: over a bounded window, no Cluster response is sent again.
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> clusterPushes() == pushes);
    assertThat(call(Map.of())).isEqualTo("a");

    write("upstreams.yaml", upstreams("ROUND_ROBIN"));
    await().atMost(CONVERGE).until(() -> call(Map.of("x-pick", "c")).equals("c"));
    assertThat(clusterPushes()).isGreaterThan(pushes);
    assertThat(holdfast.statusBoard().nackOf(c)).isEmpty();
  }

  @Test
  void clientsKeepRoutingWhileHoldfastIsDownAndResyncAfterARestart() throws Exception {
    holdfast.close();
    for (int i = 0; i < 20; i++) {
      assertThat(call(Map.of())).as("served from the client's cache while the control plane is down").isEqualTo("a");
    }
    write("vs.yaml", virtualService("b"));
    holdfast = startHoldfast();
    await().atMost(CONVERGE).until(() -> call(Map.of()).equals("b"));
  }

  @Test
  void metricsMoveWithConfigChangesAndTraffic() throws Exception {
    String before = scrape();
    assertThat(before).contains("holdfast_xds_streams", "holdfast_config_staleness_seconds 0.0",
        "holdfast_xds_pushes_total{type=\"Listener\"}", "holdfast_snapshot_build_seconds_count");
    double builds = metric(before, "holdfast_snapshot_build_seconds_count");
    double routePushes = metric(before, "holdfast_xds_pushes_total{type=\"RouteConfiguration\"}");
    assertThat(metric(before, "holdfast_xds_streams")).isGreaterThanOrEqualTo(1);

    write("vs.yaml", virtualService("c"));
    await().atMost(CONVERGE).until(() -> call(Map.of()).equals("c"));
    String after = scrape();
    assertThat(metric(after, "holdfast_snapshot_build_seconds_count")).isGreaterThan(builds);
    assertThat(metric(after, "holdfast_xds_pushes_total{type=\"RouteConfiguration\"}")).isGreaterThan(routePushes);
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  private static String call(Map<String, String> headers) {
    Metadata md = new Metadata();
    headers.forEach((k, v) -> md.put(Metadata.Key.of(k, Metadata.ASCII_STRING_MARSHALLER), v));
    try {
      return SimpleServiceGrpc.newBlockingStub(channel)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md))
          .withWaitForReady()
          .withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.newBuilder().build())
          .getResponseMessage();
    } catch (StatusRuntimeException e) {
      return "error: " + e.getStatus();
    }
  }

  private static double clusterPushes() {
    var counter = holdfast.registry().find("holdfast.xds.pushes").tag("type", "Cluster").counter();
    return counter == null ? 0 : counter.count();
  }

  private static String scrape() throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + holdfast.adminPort() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  /** The value of the sample line that starts with {@code name} (name with its labels, as exported). */
  private static double metric(String scrape, String name) {
    return scrape.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
        .filter(l -> !l.startsWith("#"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .findFirst().orElseThrow(() -> new AssertionError(name + " not in scrape"));
  }

  private static String adminState() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + holdfast.adminPort() + "/state")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  private static void writeBaseConfig() throws IOException {
    write("upstreams.yaml", upstreams("ROUND_ROBIN"));
    write("vs.yaml", virtualService("a"));
  }

  private static void write(String name, String text) throws IOException {
    Path tmp = Files.createTempFile(configDir, ".tmp-", ".part");
    Files.writeString(tmp, text);
    Files.move(tmp, configDir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static String upstreams(String lbOfC) {
    StringBuilder sb = new StringBuilder();
    for (String name : new String[] {"a", "b", "c"}) {
      sb.append("""
          apiVersion: gateway.holdfast.io/v1
          kind: Upstream
          metadata: {name: %s}
          spec:
            static:
              hosts: [{address: 127.0.0.1, port: %d}]
            http2: true
            loadBalancing: %s
          ---
          """.formatted(name, backends.port(name), name.equals("c") ? lbOfC : "ROUND_ROBIN"));
    }
    return sb.toString();
  }

  private static String virtualService(String defaultUpstream) {
    return virtualService(defaultUpstream, "b");
  }

  private static String virtualService(String defaultUpstream, String picked) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: echo}
        spec:
          domains: [echo.test]
          routes:
            - name: pick
              match:
                prefix: /
                headers: [{name: x-pick, exact: %s}]
              route: {upstream: %s}
            - name: split
              match:
                prefix: /
                headers: [{name: x-split, exact: "yes"}]
              split:
                - {upstream: a, weight: 75}
                - {upstream: b, weight: 25}
            - name: default
              match: {prefix: /}
              route: {upstream: %s}
        """.formatted(picked, picked, defaultUpstream);
  }
}
