package io.holdfast.server.admin;

import static io.holdfast.server.admin.HeadlessChromium.tableRows;
import static io.holdfast.server.admin.HeadlessChromium.textById;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page in a real headless Chromium, as an on-call engineer would open it: a Kubernetes-mode replica
 * (emulated API behind a fault proxy, lease election) with a proxy that ACKs clusters and NACKs listeners with
 * markup in its node id and error, first healthy, then with the API blackholed (stale view, demoted to follower).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StatusPageBrowserIT {
  private static final Duration CONVERGE = Duration.ofSeconds(15);
  private static final String NS = "demo";
  private static final String NODE = "envoy-\"<script>alert('node')</script>";
  private static final String NACK_ERROR = "listener \"web\" <script>alert(\"nack\")</script> is invalid";

  @TempDir
  static Path workDir;
  private static MockKubeApi api;
  private static FaultProxy kubeProxy;
  private static HoldfastServer holdfast;
  private static ManagedChannel channel;
  private static StreamObserver<DiscoveryRequest> requests;

  @BeforeAll
  static void start() throws Exception {
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
  }

  @AfterAll
  static void stop() {
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

  @Test
  @Order(1)
  void healthyTheLeaderShowsItsLeaseTheProxyAndTheResourcesWithMarkupShownAsText() throws Exception {
    await().atMost(CONVERGE).until(() -> proxyState().map(p -> p.get("lastNack") != null
        && ((Map<?, ?>) p.get("ackedVersions")).containsKey("Cluster")).orElse(false));
    String version = (String) holdfast.state().get("snapshotVersion");

    String dom = render();

    assertThat(dom).as("no markup from data became an element").doesNotContainIgnoringCase("<script");
    assertThat(textById(dom, "role")).isEqualTo("Leader");
    assertThat(textById(dom, "lease-holder")).isEqualTo("replica-1 (this replica)");
    assertThat(textById(dom, "term")).matches("replica-1#\\d+");
    assertThat(textById(dom, "since-renew")).matches("\\d+(\\.\\d)?s ago");
    assertThat(textById(dom, "api")).isEqualTo("Reachable");
    assertThat(textById(dom, "stale-for")).isEqualTo("current");
    assertThat(textById(dom, "snapshot-version")).isEqualTo(version);
    assertThat(textById(dom, "summary")).isEqualTo("1 resource is rejected. 1 proxy has NACKed a response.");

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
  @Order(2)
  void duringAnApiOutageTheFollowerShowsTheStaleViewAndTheUnreachableApi() throws Exception {
    kubeProxy.blackhole();
    await().atMost(CONVERGE).until(() -> {
      Map<String, Object> state = holdfast.state();
      return "follower".equals(state.get("role")) && state.get("staleSince") != null
          && Boolean.FALSE.equals(((Map<?, ?>) state.get("kube")).get("apiAnswered"));
    });

    String dom = render();

    assertThat(dom).doesNotContainIgnoringCase("<script");
    assertThat(textById(dom, "role")).isEqualTo("Follower");
    assertThat(textById(dom, "term")).isEqualTo("not leading");
    assertThat(textById(dom, "api")).isEqualTo("Unreachable");
    assertThat(textById(dom, "stale-for")).matches("stale for \\d+(\\.\\d)?s \\(since .+ UTC\\)");
    assertThat(textById(dom, "summary")).startsWith("The Kubernetes API does not answer. Serving cached config, "
        + "unconfirmed for ");
    assertThat(tableRows(dom, "proxies")).as("proxies stay connected through an API outage").hasSize(2);
    List<String> events = tableRows(dom, "timeline").stream().skip(1).map(r -> r.get(1) + ": " + r.get(2)).toList();
    assertThat(events).anySatisfy(e -> assertThat(e).startsWith("Leadership: This replica stopped leading (term"))
        .anySatisfy(e -> assertThat(e).startsWith("API outage: Config view went stale, serving the cached config"));
  }

  // ---- helpers ---------------------------------------------------------------------------------------

  private static String render() throws Exception {
    return HeadlessChromium.dumpDom(URI.create("http://127.0.0.1:" + holdfast.adminPort() + "/"), workDir);
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
    for (String yaml : yamls) {
      GenericKubernetesResource r = api.admin().getKubernetesSerialization()
          .unmarshal(yaml, GenericKubernetesResource.class);
      api.admin().genericKubernetesResources(r.getApiVersion(), r.getKind()).inNamespace(NS).resource(r).create();
    }
  }

  private static String virtualService(String name, String upstream) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: demo}
        spec:
          domains: [%s.test]
          routes:
            - match: {prefix: /}
              route: {upstream: %s}
        """.formatted(name, name, upstream);
  }
}
