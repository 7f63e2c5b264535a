package io.holdfast.server.monitoring;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.holdfast.election.ElectionSettings;
import io.holdfast.pki.TestCertificates;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.MockKubeApi;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Real Holdfast servers on loopback port 0, scraped once right after start: before any proxy or event. */
final class RunningServers {
  private RunningServers() {
  }

  /** The {@code /metrics} text of a file-mode server over {@code configDir}, scraped as soon as it started. */
  static String fileModeScrape(Path configDir) throws Exception {
    try (HoldfastServer server = HoldfastServer.start(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
      return scrape(server);
    }
  }

  /**
   * The {@code /metrics} text of a file-mode server over {@code configDir} once a proxy ({@code node}) has an ADS
   * stream open and has been answered: the series that exist per connected proxy are in it too. The admission
   * webhook is on (its certificate a fresh test one), so its series are too.
   */
  static String fileModeScrapeWithProxy(Path configDir, String node) throws Exception {
    Path certs = Files.createTempDirectory("holdfast-webhook-certs");
    TestCertificates.Issued leaf = TestCertificates.leaf(TestCertificates.ca("monitoring test CA"),
        "holdfast-webhook");
    Files.writeString(certs.resolve("tls.crt"), leaf.certificatePem());
    Files.writeString(certs.resolve("tls.key"), leaf.privateKeyPem());
    // Deleted in reverse order of registration: the files, then the directory.
    Stream.of(certs, certs.resolve("tls.crt"), certs.resolve("tls.key")).forEach(p -> p.toFile().deleteOnExit());
    ServeSettings settings = new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT, Optional.empty(), Optional.empty(), ServeSettings.SINGLE_REPLICA, Optional.empty(),
        Optional.of(new ServeSettings.Webhook("127.0.0.1", 0, certs.resolve("tls.crt"), certs.resolve("tls.key"))));
    try (HoldfastServer server = HoldfastServer.start(settings, Clock.systemUTC())) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.xdsPort()).usePlaintext().build();
      CountDownLatch answered = new CountDownLatch(1);
      try {
        StreamObserver<DiscoveryRequest> requests = AggregatedDiscoveryServiceGrpc.newStub(channel)
            .streamAggregatedResources(new StreamObserver<DiscoveryResponse>() {
              @Override
              public void onNext(DiscoveryResponse value) {
                answered.countDown();
              }

              @Override
              public void onError(Throwable t) {
              }

              @Override
              public void onCompleted() {
              }
            });
        requests.onNext(DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId(node))
            .setTypeUrl("type.googleapis.com/envoy.config.cluster.v3.Cluster").build());
        if (!answered.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("no CDS answer within 60 s");
        }
        return scrape(server);
      } finally {
        channel.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * The {@code /metrics} text of a Kubernetes-mode server with lease election against the emulated API (the
   * CRDs of deploy/crds applied, no objects), scraped as soon as it started.
   */
  static String kubeModeScrape() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      try (Stream<Path> crds = Files.list(Path.of("..", "deploy", "crds"))) {
        for (Path crd : crds.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
          try (InputStream in = Files.newInputStream(crd)) {
            api.admin().apiextensions().v1().customResourceDefinitions()
                .resource(api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class))
                .create();
          }
        }
      }
      ElectionSettings election = ElectionSettings.builder().identity("r1").leaseNamespace("default")
          .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
          .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
          .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
      ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
          LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of("demo"),
          Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election);
      try (HoldfastServer server = HoldfastServer.start(settings, Clock.systemUTC())) {
        return scrape(server);
      }
    }
  }

  /**
   * The server's {@code /metrics}, after one garbage collection: Micrometer registers {@code jvm.gc.pause} when it is
   * first told of a collection, and a young server may not have had one yet (the dashboard reads it).
   */
  private static String scrape(HoldfastServer server) {
    System.gc();
    return org.awaitility.Awaitility.await("a scrape with the GC pause timer").atMost(java.time.Duration.ofSeconds(10))
        .until(() -> get(server), body -> body.contains("jvm_gc_pause_seconds"));
  }

  private static String get(HoldfastServer server) throws IOException, InterruptedException {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.adminPort() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException("/metrics answered " + response.statusCode());
    }
    return response.body();
  }

  /** Each sample of a scrape, {@code name{labels}} to value, in scrape order; comments left out. */
  static Map<String, Double> samples(String scrape) {
    Map<String, Double> out = new LinkedHashMap<>();
    scrape.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(l -> {
      int split = l.lastIndexOf(' ');
      out.put(l.substring(0, split), Double.parseDouble(l.substring(split + 1)));
    });
    return out;
  }

  /** The metric names (without labels) of a scrape's samples. */
  static Set<String> names(String scrape) {
    Set<String> names = new TreeSet<>();
    samples(scrape).keySet().forEach(s -> names.add(s.contains("{") ? s.substring(0, s.indexOf('{')) : s));
    return names;
  }
}
