package io.holdfast.it.bench.startup;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.it.bench.Stats;
import io.holdfast.it.bench.TranslationBenchmark;
import io.holdfast.server.snapshot.SnapshotStore;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Time from {@code java} process start to a client receiving the restored snapshot. A snapshot of the 10k-route,
 * 2,000-upstream benchmark config ({@link TranslationBenchmark#config}) is saved with {@link SnapshotStore}; each
 * repetition starts {@code server/target/holdfast.jar serve --kubernetes --snapshot-dir DIR} in a child JVM with
 * the Kubernetes API unreachable (a closed loopback port: the restart-during-an-outage case), then connects a raw
 * ADS stream as soon as the xDS port accepts and asks for clusters. The clock starts just before the child is
 * forked and stops when a CDS response with the stored version and all 2,000 clusters arrives; the child's CPU time
 * (user + system) is read then too, a figure a loaded machine inflates less than the wall-clock one. One run per
 * JVM variant also counts the classes loaded ({@code -Xlog:class+load}) up to then.
 */
public final class StartupBench {

  /** Give up on one start after this long. */
  private static final long START_TIMEOUT_MS = 60_000;

  private final Path root;
  private final Path work;
  private final int reps;

  public StartupBench(Path root, Path work, int reps) {
    this.root = root;
    this.work = work;
    this.reps = reps;
  }

  public String describe() {
    return reps + " starts per JVM variant, snapshot of 10,000 routes / 2,000 upstreams";
  }

  /** JVM options compared: the default, and with an AppCDS archive of the classes a start loads. */
  record Variant(String name, List<String> jvmOptions) {
  }

  public String run() {
    try {
      Path snapshots = Files.createDirectories(work.resolve("startup-snapshot"));
      XdsSnapshot snapshot = new Translator().translate(HoldfastFrontEnd.lowerAccepted(
          new Validator().validate(TranslationBenchmark.config(10_000, 0)).accepted())).snapshot();
      SnapshotStore.open(snapshots, "bench", Clock.systemUTC(), new SimpleMeterRegistry()).save(snapshot);
      long fileBytes = Files.size(snapshots.resolve("xds-snapshot.bin"));
      int clusters = snapshot.ofType(Resources.V3.CLUSTER_TYPE_URL).size();
      Path jar = root.resolve("server/target/holdfast.jar");
      Path archive = work.resolve("holdfast-startup.jsa");
      Files.deleteIfExists(archive);
      // One start writes the archive (-XX:ArchiveClassesAtExit, written when the child exits on SIGTERM).
      start(jar, snapshots, List.of("-XX:ArchiveClassesAtExit=" + archive), snapshot.version(), clusters, false);
      List<Variant> variants = new ArrayList<>(List.of(new Variant("default JVM options", List.of())));
      if (Files.exists(archive)) {
        variants.add(new Variant("AppCDS archive (-XX:SharedArchiveFile)",
            List.of("-XX:SharedArchiveFile=" + archive)));
      }
      StringBuilder md = new StringBuilder();
      md.append("Snapshot file ").append(fileBytes / 1024).append(" KiB, ").append(snapshot.resources().values()
          .stream().mapToInt(java.util.Map::size).sum()).append(" resources (version ").append(snapshot.version())
          .append("). Child: `java <options> -jar server/target/holdfast.jar serve --kubernetes --kube-api-url "
              + "http://127.0.0.1:<closed port> --snapshot-dir DIR --xds-port P --admin-port 0`.\n\n");
      md.append("| JVM | process start -> CDS response with the stored snapshot (p50 / p90 / max) "
          + "| child CPU time by then, user + system (p50) | classes loaded |\n");
      md.append("|---|---|---|---|\n");
      for (Variant variant : variants) {
        List<Double> times = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        long classes = start(jar, snapshots, variant.jvmOptions(), snapshot.version(), clusters, true).classes();
        for (int i = 0; i < reps; i++) {
          Start one = start(jar, snapshots, variant.jvmOptions(), snapshot.version(), clusters, false);
          times.add(one.millis());
          cpu.add(one.cpuMillis());
        }
        Stats stats = Stats.of(times);
        md.append("| ").append(variant.name()).append(" | ").append(Stats.millis(stats.p50())).append(" / ")
            .append(Stats.millis(stats.p90())).append(" / ").append(Stats.millis(stats.max())).append(" (n=")
            .append(stats.n()).append(") | ").append(Stats.millis(Stats.of(cpu).p50())).append(" | ")
            .append(classes).append(" |\n");
      }
      return md.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Start(double millis, double cpuMillis, long classes) {
  }

  /** Starts the server once and measures until the stored snapshot is received; stops it again. */
  private Start start(Path jar, Path snapshots, List<String> jvmOptions, String version, int clusters,
      boolean countClasses) throws IOException {
    int xdsPort = freePort();
    int closedPort = freePort();
    Path log = Files.createTempFile(work, "startup-", ".log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    if (countClasses) {
      command.add("-Xlog:class+load=info:file=" + log + ".classes");
    }
    command.addAll(List.of("-jar", jar.toString(), "serve", "--kubernetes",
        "--kube-api-url", "http://127.0.0.1:" + closedPort, "--snapshot-dir", snapshots.toString(),
        "--xds-address", "127.0.0.1", "--xds-port", Integer.toString(xdsPort), "--admin-port", "0",
        "--identity", "bench-startup"));
    long started = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      awaitListening(xdsPort, started, process, log);
      receiveSnapshot(xdsPort, version, clusters, started);
      double millis = (System.nanoTime() - started) / 1e6;
      double cpuMillis = process.info().totalCpuDuration().map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
      long classes = 0;
      if (countClasses) {
        try (Stream<String> lines = Files.lines(Path.of(log + ".classes"))) {
          classes = lines.count();
        }
      }
      return new Start(millis, cpuMillis, classes);
    } finally {
      process.destroy(); // SIGTERM: a graceful stop, which also writes an -XX:ArchiveClassesAtExit archive
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }

  /** Polls a TCP connect every 2 ms: gRPC's reconnect back-off would add its own delay to the figure. */
  private static void awaitListening(int port, long started, Process process, Path log) throws IOException {
    while (true) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 100);
        return;
      } catch (IOException refused) {
        if (!process.isAlive()) {
          throw new IllegalStateException("server exited with " + process.exitValue() + ": "
              + Files.readString(log));
        }
        if ((System.nanoTime() - started) / 1_000_000 > START_TIMEOUT_MS) {
          throw new IllegalStateException("xDS port not listening after " + START_TIMEOUT_MS + " ms: "
              + Files.readString(log));
        }
        try {
          Thread.sleep(2);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }
  }

  /** One ADS stream asking for every cluster; returns once the response of {@code version} arrives. */
  private static void receiveSnapshot(int port, String version, int clusters, long started) {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    try {
      CompletableFuture<DiscoveryResponse> received = new CompletableFuture<>();
      StreamObserver<DiscoveryRequest> requests = AggregatedDiscoveryServiceGrpc.newStub(channel)
          .streamAggregatedResources(new StreamObserver<>() {
            @Override
            public void onNext(DiscoveryResponse response) {
              if (response.getVersionInfo().equals(version)) {
                received.complete(response);
              }
            }

            @Override
            public void onError(Throwable t) {
              received.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
              received.completeExceptionally(new IllegalStateException("stream closed before the snapshot"));
            }
          });
      requests.onNext(DiscoveryRequest.newBuilder()
          .setNode(Node.newBuilder().setId("bench-startup").setCluster("bench"))
          .setTypeUrl(Resources.V3.CLUSTER_TYPE_URL)
          .build());
      long left = START_TIMEOUT_MS - (System.nanoTime() - started) / 1_000_000;
      DiscoveryResponse response = received.get(Math.max(left, 1), TimeUnit.MILLISECONDS);
      if (response.getResourcesCount() != clusters) {
        throw new IllegalStateException("got " + response.getResourcesCount() + " clusters, stored " + clusters);
      }
      requests.onCompleted();
    } catch (Exception e) {
      throw new IllegalStateException("no snapshot received: " + e, e);
    } finally {
      channel.shutdownNow();
    }
  }

  /** A port free a moment ago: the child needs a known port, and a closed one stands for the unreachable API. */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
