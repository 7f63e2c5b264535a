package io.holdfast.server.admin;

import static io.holdfast.server.admin.RenderedDom.tableRows;
import static io.holdfast.server.admin.RenderedDom.textById;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.holdfast.election.ElectionSettings;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import io.holdfast.server.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page in a real headless Chromium (one browser for the class, a tab per page), as an on-call engineer
 * would open it, in each state its banner must name. A file-mode replica driven through its config directory and
 * real xDS clients: safe, a rejected object, an unreadable manifest, a build failing, a proxy NACKing now, the
 * proxy gone after its NACK. Kubernetes-mode replicas on the emulated API behind fault proxies: a lease leader with
 * a proxy that ACKs clusters and NACKs listeners (markup in its node id and error), the API cut off from a
 * single-replica leader, and the API cut off from the lease replica until it is a follower.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StatusPageBrowserIT {
  private static final Duration CONVERGE = Duration.ofSeconds(15);
  private static final String NS = "demo";
  private static final String NODE = "envoy-\"<script>alert('node')</script>";
  private static final String NACK_ERROR = "listener \"web\" <script>alert(\"nack\")</script> is invalid";

  private static final String SOLO_NS = "solo";
  private static final Pattern SECONDS = Pattern.compile("\\d+(\\.\\d)?s");

  @TempDir
  static Path workDir;
  @TempDir
  static Path configDir;
  private static ChromiumSession browser;
  private static HoldfastServer files;
  private static AdsProxy filesProxy;
  private static FaultProxy soloProxy;
  private static HoldfastServer solo;
  private static MockKubeApi api;
  private static FaultProxy kubeProxy;
  private static HoldfastServer holdfast;
  private static ManagedChannel channel;
  private static StreamObserver<DiscoveryRequest> requests;

  @BeforeAll
  static void start() throws Exception {
    browser = ChromiumSession.start(workDir);
    startFileMode();
    api = MockKubeApi.start();
    for (String file : List.of("upstreams", "virtualservices", "gateways")) {
      Path crdFile = Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml");
      try (InputStream in = Files.newInputStream(crdFile)) {
        CustomResourceDefinition crd = api.admin().getKubernetesSerialization()
            .unmarshal(in, CustomResourceDefinition.class);
        api.admin().apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
    }
    apply("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo, namespace: demo}
        spec:
          static:
            hosts: [{address: 127.0.0.1, port: 9}]
        """, virtualService("echo", "echo"), virtualService("broken", "missing-upstream"));
    applyIn(SOLO_NS, upstream(SOLO_NS, "192.0.2.10"), virtualService(SOLO_NS, "solo", "echo"));
    kubeProxy = FaultProxy.start("kube-api", api.port());
    ElectionSettings election = ElectionSettings.builder().identity("replica-1").leaseNamespace("holdfast-system")
        .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
        .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
        .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150))
        .build();
    holdfast = HoldfastServer.start(new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(NS),
        Optional.of("http://127.0.0.1:" + kubeProxy.port()))), election)
        // The backends are local processes: loopback upstreams allowed, as --upstream-allow-loopback does.
        .withAccess(io.holdfast.api.AccessPolicy.FILE_DEFAULTS), Clock.systemUTC());
    await().atMost(CONVERGE).until(() -> "leader".equals(holdfast.state().get("role"))
        && holdfast.state().get("snapshotVersion") != null);
    connectProxy();
    soloProxy = FaultProxy.start("kube-api-solo", api.port());
    solo = HoldfastServer.start(new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(SOLO_NS),
        Optional.of("http://127.0.0.1:" + soloProxy.port()))),
        ElectionSettings.builder().enabled(false).identity("solo-1").build()), Clock.systemUTC());
    await().atMost(CONVERGE).until(() -> "safe".equals(verdict(solo).get("level")));
  }

  /** A file-mode replica on {@link #configDir} whose front end fails on a VirtualService named "explode". */
  private static void startFileMode() throws Exception {
    Files.writeString(configDir.resolve("upstream.yaml"), upstream("demo", "192.0.2.10"));
    Files.writeString(configDir.resolve("web.yaml"), virtualService("demo", "web", "echo"));
    files = TestServers.startWithFrontEndFault(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC(),
        config -> config.virtualServices().stream().anyMatch(vs -> vs.key().name().equals("explode")));
    filesProxy = AdsProxy.connect(files.xdsPort(), "envoy-ok", false);
  }
  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {filesProxy, files, solo, soloProxy, browser}) {
      if (c != null) {
        c.close();
      }
    }
    if (channel != null) {
      channel.shutdownNow();
    }
    if (holdfast != null) {
      holdfast.close();
    }
    if (kubeProxy != null) {
      kubeProxy.close();
    }
    if (api != null) {
      api.close();
    }
  }

  // ---- file mode ---------------------------------------------------------------------------------------

  @Test
  @Order(1)
  void safeSaysTheConnectedProxyRunsTheCurrentVersion() throws Exception {
    String version = awaitVerdict(files, v -> reasons(v).isEmpty() && v.get("headline").toString().contains("runs"));

    String dom = render(files);

    assertThat(textById(dom, "summary")).isEqualTo("Safe: the connected proxy runs the current version " + version);
    assertThat(metrics(files)).contains("holdfast_config_manifest_errors 0.0")
        .contains("holdfast_config_rejected_resources{api=\"gateway.holdfast.io\",kind=\"VirtualService\"} 0.0")
        .contains("holdfast_xds_proxies_nacking{type=\"Listener\"} 0.0")
        .containsPattern("holdfast_build_info\\{commit=\"([0-9a-f]{7,40}|unknown)\",version=\"\\S+\"} 1(\\.0)?\n")
        .contains("jvm_memory_used_bytes{", "jvm_gc_", "jvm_threads_live_threads", "jvm_classes_loaded_classes",
            "process_cpu_usage", "process_uptime_seconds", "system_cpu_count");
  }

  @Test
  @Order(2)
  void aRejectedObjectIsNamedWithItsFileAndLine() throws Exception {
    Files.writeString(configDir.resolve("broken.yaml"), virtualService("demo", "broken", "missing-upstream"));
    awaitVerdict(files, v -> reasons(v).equals(List.of("ObjectsRejected")));
    String file = (String) resource(files, "VirtualService/demo/broken").get("file");

    String dom = render(files);

    assertThat(file).endsWith("broken.yaml");
    assertThat(textById(dom, "summary")).isEqualTo("At risk: 1 object is rejected and not served: "
        + "VirtualService/demo/broken (" + file + ":1).");
    assertThat(tableRows(dom, "resources").get(1)).as("problems first").startsWith(
        "VirtualService/demo/broken (" + file + ":1)", "Rejected");
    assertThat(events(dom)).anySatisfy(e -> assertThat(e).startsWith(
        "Rejected: Rejected VirtualService/demo/broken (" + file + ":1): spec.routes[0].route.upstream: "));
    assertThat(metrics(files))
        .contains("holdfast_config_rejected_resources{api=\"gateway.holdfast.io\",kind=\"VirtualService\"} 1.0");
    assertThat(resource(files, "VirtualService/demo/broken").get("problems")).asList().singleElement()
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
        .containsAllEntriesOf(Map.of("severity", "ERROR", "field", "spec.routes[0].route.upstream", "reason",
            "UpstreamNotFound", "message", "Upstream/demo/missing-upstream does not exist", "kind", "VirtualService",
            "namespace", "demo", "name", "broken"));
    Files.delete(configDir.resolve("broken.yaml"));
  }

  @Test
  @Order(3)
  void anUnreadableManifestSaysItsLastGoodVersionIsServed() throws Exception {
    awaitVerdict(files, v -> reasons(v).isEmpty());
    Files.writeString(configDir.resolve("web.yaml"), "kind: VirtualService\nmetadata: {name: web\n  bad: [\n");
    awaitVerdict(files, v -> reasons(v).equals(List.of("ManifestUnreadable")));

    String dom = render(files);

    assertThat(textById(dom, "summary")).startsWith("At risk: ").contains(
        "manifest problems (each file's last good version is served): ").contains("web.yaml:")
        .contains("serving this file's last good version because it has errors");
    assertThat(events(dom)).anySatisfy(e -> assertThat(e).startsWith("Rejected: Unreadable manifest ")
        .contains("web.yaml:"));
    assertThat(metrics(files)).containsPattern("holdfast_config_manifest_errors [1-9]");
    Files.writeString(configDir.resolve("web.yaml"), virtualService("demo", "web", "echo"));
  }

  @Test
  @Order(4)
  void aFailingBuildSaysWhatFailed() throws Exception {
    awaitVerdict(files, v -> reasons(v).isEmpty());
    Files.writeString(configDir.resolve("explode.yaml"), virtualService("demo", "explode", "echo"));
    awaitVerdict(files, v -> reasons(v).equals(List.of("BuildFailing")));

    String dom = render(files);

    assertThat(textById(dom, "summary")).startsWith("At risk: The last config build contained a failure of "
        + "Holdfast's own: frontend: ").contains("injected front-end fault");
    assertThat(events(dom)).anySatisfy(e -> assertThat(e).startsWith(
        "Build: Config build contained a failure of Holdfast's own: frontend: "));
    Files.delete(configDir.resolve("explode.yaml"));
    awaitVerdict(files, v -> reasons(v).isEmpty());
    assertThat(events(render(files))).contains("Build: Config builds succeed again");
  }

  @Test
  @Order(5)
  void aProxyNackingNowMakesItBroken() throws Exception {
    AdsProxy nacking = AdsProxy.connect(files.xdsPort(), "envoy-nack", true);
    try {
      String version = awaitVerdict(files, v -> reasons(v).equals(List.of("ProxiesNacking")));

      String dom = render(files);

      assertThat(textById(dom, "summary")).isEqualTo("Broken: 1 connected proxy rejects version " + version
          + " and keeps running the last version accepted: envoy-nack.");
      assertThat(tableRows(dom, "proxies").get(1).get(0)).as("problems first").isEqualTo("envoy-nack");
      assertThat(metrics(files)).contains("holdfast_xds_proxies_nacking{type=\"Listener\"} 1.0");
    } finally {
      nacking.close();
    }
  }

  @Test
  @Order(6)
  void aProxyGoneAfterItsNackIsAnEventAndStillARisk() throws Exception {
    String version = awaitVerdict(files, v -> reasons(v).equals(List.of("NackedThenGone")));

    String dom = render(files);

    assertThat(textById(dom, "summary")).isEqualTo("At risk: 1 proxy rejected version " + version
        + " and disconnected, so the next proxy may reject it too: envoy-nack.");
    assertThat(events(dom)).anySatisfy(e -> assertThat(e).startsWith(
        "Disconnect: Proxy envoy-nack disconnected after rejecting Listeners of version " + version + ": "));
    assertThat(tableRows(dom, "resources")).anySatisfy(row -> assertThat(row.get(3))
        .endsWith("(that proxy has since disconnected)"));
    assertThat(metrics(files)).contains("holdfast_xds_proxies_nacking{type=\"Listener\"} 0.0");
  }

  // ---- Kubernetes mode ---------------------------------------------------------------------------------

  @Test
  @Order(7)
  void aLeaderWithANackingProxyShowsItsLeaseTheProxyAndTheResourcesWithMarkupShownAsText() throws Exception {
    await().atMost(CONVERGE).until(() -> proxyState().map(p -> p.get("lastNack") != null
        && ((Map<?, ?>) p.get("ackedVersions")).containsKey("Cluster")).orElse(false));
    String version = (String) holdfast.state().get("snapshotVersion");

    String dom = render(holdfast);

    assertThat(dom).as("no markup from data became an element").doesNotContainIgnoringCase("<script");
    assertThat(textById(dom, "role")).isEqualTo("Leader");
    assertThat(textById(dom, "lease-holder")).isEqualTo("replica-1 (this replica)");
    assertThat(textById(dom, "term")).matches("replica-1#\\d+");
    assertThat(textById(dom, "since-renew")).matches("\\d+(\\.\\d)?s ago");
    assertThat(textById(dom, "api")).isEqualTo("Reachable");
    assertThat(textById(dom, "stale-for")).isEqualTo("current");
    assertThat(textById(dom, "snapshot-version")).isEqualTo(version);
    assertThat(textById(dom, "summary")).isEqualTo("Broken: 1 connected proxy rejects version " + version
        + " and keeps running the last version accepted: " + NODE + ". 1 object is rejected and not served: "
        + "VirtualService/demo/broken.");

    List<List<String>> proxies = tableRows(dom, "proxies");
    assertThat(proxies.get(0)).containsExactly("Node id", "Streams", "Clusters ACKed", "Endpoints ACKed",
        "Listeners ACKed", "Routes ACKed", "Last NACK");
    assertThat(proxies).hasSize(2);
    assertThat(proxies.get(1).get(0)).isEqualTo(NODE);
    assertThat(proxies.get(1).get(1)).isEqualTo("1");
    assertThat(proxies.get(1).get(2)).isEqualTo(version);
    assertThat(proxies.get(1).get(6)).startsWith("Listeners version " + version + " rejected, ")
        .endsWith(": " + NACK_ERROR);

    List<List<String>> resources = tableRows(dom, "resources");
    assertThat(resources.get(0)).containsExactly("Resource", "Verdict", "Problems", "Proxy rejection");
    assertThat(resources.get(1).get(0)).as("problems first").isEqualTo("VirtualService/demo/broken");
    assertThat(resources).contains(List.of("Upstream/demo/echo", "Accepted", "none", "none"),
        List.of("VirtualService/demo/broken", "Rejected",
            "spec.routes[0].route.upstream: Upstream/demo/missing-upstream does not exist (UpstreamNotFound)", "none"));
    assertThat(resources).as("the NACK is traced to the resource its listener came from").anySatisfy(row -> {
      assertThat(row.subList(0, 3)).containsExactly("VirtualService/demo/echo", "Accepted", "none");
      assertThat(row.get(3)).startsWith("Listeners version " + version + " rejected by " + NODE + ", ")
          .endsWith(": " + NACK_ERROR);
    });

    List<String> events = tableRows(dom, "timeline").stream().skip(1).map(r -> r.get(1) + ": " + r.get(2)).toList();
    assertThat(events).anySatisfy(e -> assertThat(e).startsWith("Leadership: This replica became leader (term"))
        .anySatisfy(e -> assertThat(e).isEqualTo("Snapshot: Serving snapshot " + version
            + " built from 3 resources, 1 rejected"))
        .anySatisfy(e -> assertThat(e).isEqualTo("NACK: Proxy " + NODE + " rejected Listeners of version "
            + version + ": " + NACK_ERROR));
  }

  @Test
  @Order(8)
  void aLeaderCutOffFromTheApiServesItsCachedConfigAndSaysSo() throws Exception {
    soloProxy.blackhole();
    awaitVerdict(solo, v -> reasons(v).equals(List.of("ApiUnreachable")));

    String dom = render(solo);

    assertThat(textById(dom, "role")).isEqualTo("Leader");
    assertThat(textById(dom, "api")).isEqualTo("Unreachable");
    assertThat(textById(dom, "summary")).matches("At risk: The Kubernetes API does not answer: serving the cached "
        + "config, unconfirmed for " + SECONDS + "; this replica leads but cannot write statuses\\.");
  }

  @Test
  @Order(9)
  void duringAnApiOutageTheFollowerShowsTheStaleViewTheUnreachableApiAndNoLeader() throws Exception {
    kubeProxy.blackhole();
    await().atMost(CONVERGE).until(() -> {
      Map<String, Object> state = holdfast.state();
      return "follower".equals(state.get("role")) && state.get("staleSince") != null
          && Boolean.FALSE.equals(((Map<?, ?>) state.get("kube")).get("apiAnswered"));
    });

    String dom = render(holdfast);

    assertThat(dom).doesNotContainIgnoringCase("<script");
    assertThat(textById(dom, "role")).isEqualTo("Follower");
    assertThat(textById(dom, "lease-holder")).as("its own stale record is not called this replica").matches(
        "replica-1 as last seen " + SECONDS + " ago \\(this replica's own record; it no longer leads\\)");
    assertThat(textById(dom, "term")).isEqualTo("not leading");
    assertThat(textById(dom, "api")).isEqualTo("Unreachable");
    assertThat(textById(dom, "stale-for")).matches("stale for \\d+(\\.\\d)?s \\(since .+ UTC\\)");
    assertThat(textById(dom, "summary")).matches("Broken: 1 connected proxy rejects version .+\\. "
        + "1 object is rejected and not served: VirtualService/demo/broken\\. The Kubernetes API does not answer: "
        + "serving the cached config, unconfirmed for " + SECONDS + "; changes are not picked up\\. No replica is "
        + "confirmed as leader, so no status is written to Kubernetes \\(lease holder as last seen: replica-1, seen "
        + "\\d+s ago\\)\\.");
    assertThat(tableRows(dom, "proxies")).as("proxies stay connected through an API outage").hasSize(2);
    List<String> events = tableRows(dom, "timeline").stream().skip(1).map(r -> r.get(1) + ": " + r.get(2)).toList();
    assertThat(events).anySatisfy(e -> assertThat(e).startsWith("Leadership: This replica stopped leading (term"))
        .anySatisfy(e -> assertThat(e).startsWith("API outage: Config view went stale, serving the cached config"));
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  private static String render(HoldfastServer server) throws Exception {
    return browser.render(URI.create("http://127.0.0.1:" + server.adminPort() + "/"));
  }

  private static Map<?, ?> verdict(HoldfastServer server) {
    return (Map<?, ?>) server.state().get("verdict");
  }

  private static List<String> reasons(Map<?, ?> verdict) {
    return ((List<?>) verdict.get("reasons")).stream().map(r -> (String) ((Map<?, ?>) r).get("code")).toList();
  }

  /** Waits for the server's verdict to match; returns the snapshot version then served. */
  private static String awaitVerdict(HoldfastServer server, java.util.function.Predicate<Map<?, ?>> matches) {
    await().atMost(CONVERGE).until(() -> matches.test(verdict(server)));
    return (String) server.state().get("snapshotVersion");
  }

  private static Map<?, ?> resource(HoldfastServer server, String key) {
    return (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) server.state().get("config")).get("resources")).get(key);
  }

  private static List<String> events(String dom) {
    return tableRows(dom, "timeline").stream().skip(1).map(r -> r.get(1) + ": " + r.get(2)).toList();
  }

  private static String metrics(HoldfastServer server) {
    return server.registry().scrape();
  }

  @SuppressWarnings("unchecked")
  private static Optional<Map<String, Object>> proxyState() {
    return ((List<Map<String, Object>>) holdfast.state().get("proxies")).stream()
        .filter(p -> NODE.equals(p.get("nodeId"))).findFirst();
  }

  /** An ADS client that ACKs clusters and NACKs listeners. */
  private static void connectProxy() {
    channel = NettyChannelBuilder.forAddress("127.0.0.1", holdfast.xdsPort()).usePlaintext().build();
    requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override
      public void onNext(DiscoveryResponse response) {
        DiscoveryRequest.Builder reply = request(response.getTypeUrl()).setResponseNonce(response.getNonce());
        if (response.getTypeUrl().endsWith(".Listener")) {
          reply.setErrorDetail(Status.newBuilder().setCode(3).setMessage(NACK_ERROR));
        } else {
          reply.setVersionInfo(response.getVersionInfo());
        }
        send(reply.build());
      }

      @Override
      public void onError(Throwable t) {
      }

      @Override
      public void onCompleted() {
      }
    });
    send(request("type.googleapis.com/envoy.config.cluster.v3.Cluster").build());
    send(request("type.googleapis.com/envoy.config.listener.v3.Listener").build());
  }

  private static DiscoveryRequest.Builder request(String typeUrl) {
    return DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId(NODE)).setTypeUrl(typeUrl);
  }

  private static void send(DiscoveryRequest request) {
    synchronized (StatusPageBrowserIT.class) { // gRPC stream observers are not thread-safe
      requests.onNext(request);
    }
  }

  private static void apply(String... yamls) {
    applyIn(NS, yamls);
  }

  private static void applyIn(String namespace, String... yamls) {
    for (String yaml : yamls) {
      GenericKubernetesResource r = api.admin().getKubernetesSerialization()
          .unmarshal(yaml, GenericKubernetesResource.class);
      api.admin().genericKubernetesResources(r.getApiVersion(), r.getKind()).inNamespace(namespace).resource(r)
          .create();
    }
  }

  private static String virtualService(String name, String upstream) {
    return virtualService(NS, name, upstream);
  }

  private static String virtualService(String namespace, String name, String upstream) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: %s}
        spec:
          domains: [%s.test]
          routes:
            - match: {prefix: /}
              route: {upstream: %s}
        """.formatted(name, namespace, name, upstream);
  }

  private static String upstream(String namespace, String address) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo, namespace: %s}
        spec:
          static:
            hosts: [{address: %s, port: 9}]
        """.formatted(namespace, address);
  }

  /** An ADS client for the file-mode replica: ACKs everything, or NACKs listeners. */
  private static final class AdsProxy implements AutoCloseable {
    private final ManagedChannel channel;
    private StreamObserver<DiscoveryRequest> requests;

    private AdsProxy(ManagedChannel channel) {
      this.channel = channel;
    }

    static AdsProxy connect(int port, String node, boolean nackListeners) {
      AdsProxy proxy = new AdsProxy(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build());
      proxy.requests = AggregatedDiscoveryServiceGrpc.newStub(proxy.channel).streamAggregatedResources(
          new StreamObserver<>() {
            @Override
            public void onNext(DiscoveryResponse response) {
              DiscoveryRequest.Builder reply = DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId(node))
                  .setTypeUrl(response.getTypeUrl()).setResponseNonce(response.getNonce());
              if (nackListeners && response.getTypeUrl().endsWith(".Listener")) {
                reply.setErrorDetail(Status.newBuilder().setCode(3).setMessage("listener refused by " + node));
              } else {
                reply.setVersionInfo(response.getVersionInfo());
              }
              proxy.send(reply.build());
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
            }
          });
      for (String type : List.of("type.googleapis.com/envoy.config.cluster.v3.Cluster",
          "type.googleapis.com/envoy.config.listener.v3.Listener")) {
        proxy.send(DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId(node)).setTypeUrl(type).build());
      }
      return proxy;
    }

    private synchronized void send(DiscoveryRequest request) { // stream observers are not thread-safe
      requests.onNext(request);
    }

    @Override
    public void close() {
      synchronized (this) {
        requests.onCompleted();
      }
      channel.shutdownNow();
    }
  }
}
