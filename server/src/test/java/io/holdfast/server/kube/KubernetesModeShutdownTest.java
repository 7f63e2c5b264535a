package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.holdfast.election.ElectionSettings;
import io.holdfast.pipeline.ConfigPipeline;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.FencingAudit;
import io.holdfast.testkit.MockKubeApi;
import io.holdfast.xds.server.XdsCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Graceful shutdown of a leader with a status write in flight, through {@link KubernetesMode#close()} as SIGTERM
 * does it: the write must reach the API before the successor's first Lease write. Two replicas share the emulated
 * API; the leader's status client holds its status PUTs (as a slow network would) until the test releases them.
 * Audited on the API's write record, not on what the replicas say. The config includes a Gloo Edge Upstream, whose
 * status is written through the whole object (its CRD has no /status): those writes are audited too.
 */
class KubernetesModeShutdownTest {
  private static final String NS = "demo";
  /** Within the settings' bound: leaderRequestTimeout 1 s, so the held write is neither abandoned nor timed out. */
  private static final Duration HOLD = Duration.ofMillis(600);

  private final MockKubeApi api = MockKubeApi.start();
  private final HoldStatusWrites hold = new HoldStatusWrites();
  private KubernetesMode a;
  private KubernetesMode b;

  @BeforeEach
  void crds() throws Exception {
    for (String file : List.of("upstreams", "virtualservices", "gateways")) {
      try (InputStream in = Files.newInputStream(Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
        CustomResourceDefinition crd = api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        api.admin().apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
    }
    try (InputStream in = Files.newInputStream(Path.of("..", "deploy", "crds-gloo", "gloo.solo.io_upstreams.yaml"))) {
      CustomResourceDefinition crd = api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      api.admin().apiextensions().v1().customResourceDefinitions().resource(crd).create();
    }
  }

  @AfterEach
  void stop() {
    hold.release.countDown();
    for (KubernetesMode m : new KubernetesMode[] {a, b}) {
      if (m != null) {
        m.close();
      }
    }
    api.close();
  }

  private KubernetesMode replica(String identity, KubernetesMode.ClientFactory clients) {
    ElectionSettings election = ElectionSettings.builder().identity(identity).leaseNamespace("holdfast-system")
        .leaseDuration(Duration.ofSeconds(4)).renewDeadline(Duration.ofSeconds(2)).retryPeriod(Duration.ofMillis(300))
        .lockTimeout(Duration.ofMillis(500)).leaderRequestTimeout(Duration.ofSeconds(1)).fenceSlack(Duration.ofMillis(500))
        .build();
    ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(), LogFormat.TEXT,
        Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(NS),
        Optional.of("http://127.0.0.1:" + api.port()))), election)
        // The backends are local processes: loopback upstreams allowed, as --upstream-allow-loopback does.
        .withAccess(io.holdfast.api.AccessPolicy.FILE_DEFAULTS);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StatusBoard board = new StatusBoard();
    ConfigPipeline pipeline = new ConfigPipeline(new XdsCache(), board, Clock.systemUTC(), registry, t -> { });
    return KubernetesMode.start(settings, pipeline, board, registry, Clock.systemUTC(),
        KubernetesMode.Observers.NONE, clients);
  }

  private static KubernetesClient plain(String name, io.fabric8.kubernetes.client.Config config,
      io.micrometer.core.instrument.MeterRegistry registry) {
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  @Test
  void aLeaderStoppedWithAStatusWriteInFlightLetsItLandBeforeTheSuccessorTakesTheLease() throws Exception {
    applyUpstream(1001);
    applyGlooUpstream();
    a = replica("a", (name, config, registry) -> name.equals("status")
        ? new KubernetesClientBuilder().withConfig(config)
            .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("hold", hold)).build()
        : plain(name, config, registry));
    await().atMost(Duration.ofSeconds(10)).until(() -> a.leadership().isLeader());
    await().atMost(Duration.ofSeconds(10)).until(() -> observedGeneration().equals(Optional.of(1L)));
    await().atMost(Duration.ofSeconds(10)).until(this::glooStatusWritten);
    b = replica("b", KubernetesModeShutdownTest::plain);
    await().atMost(Duration.ofSeconds(10)).until(() -> b.leadership().observedLeader().equals(Optional.of("a")));

    hold.armed = true;
    applyUpstream(1002); // a new generation: the leader writes its status, and the PUT is held
    assertThat(hold.entered.await(10, TimeUnit.SECONDS)).as("the leader's status PUT started").isTrue();

    Thread sigterm = new Thread(a::close, "sigterm-a");
    sigterm.start();
    boolean tookOverWhileInFlight = within(HOLD, () -> b.leadership().isLeader());
    hold.release.countDown(); // the network delivers the write
    sigterm.join(5_000);
    assertThat(sigterm.isAlive()).as("close() still running").isFalse();
    await().atMost(Duration.ofSeconds(10)).until(() -> b.leadership().isLeader());

    List<ApiWrite> record = api.writes();
    ApiWrite held = record.stream().filter(w -> w.isStatus() && w.userAgent().equals("holdfast/a")).reduce((x, y) -> y)
        .orElseThrow();
    ApiWrite takeover = record.stream().filter(w -> w.isLease() && w.succeeded()
        && w.leaseHolder().equals(Optional.of("b"))).findFirst().orElseThrow();
    System.out.printf("FIGURE shutdown-in-flight write-before-takeover-ms=%d%n",
        (takeover.receivedNanos() - held.receivedNanos()) / 1_000_000);
    assertThat(held.succeeded()).as("the held write landed: " + held).isTrue();
    assertThat(held.receivedNanos()).as("the held write arrived before the successor's first Lease write")
        .isLessThan(takeover.receivedNanos());
    List<FencingAudit.Entry> audited = api.auditEntries(ApiWrite.replicasByPrefix("holdfast/"));
    assertThat(FencingAudit.violations(audited)).isEmpty();
    List<ApiWrite> glooWrites = record.stream().filter(w -> w.isStatus() && w.isStatusInObjectKind()).toList();
    assertThat(glooWrites).as("the Gloo Upstream's status writes (whole-object PUTs) by the leader").isNotEmpty()
        .allSatisfy(w -> assertThat(w.auditEntry(ApiWrite.replicasByPrefix("holdfast/")))
            .hasValueSatisfying(e -> assertThat(audited).contains(e)));
    assertThat(tookOverWhileInFlight).as("the successor led while the old leader's write was in flight").isFalse();
  }

  /** Whether {@code condition} became true within {@code d} (false if it did not). */
  private static boolean within(Duration d, java.util.concurrent.Callable<Boolean> condition) {
    try {
      await().atMost(d).until(condition);
      return true;
    } catch (ConditionTimeoutException e) {
      return false;
    }
  }

  private void applyUpstream(int port) {
    String yaml = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: u, namespace: demo}
        spec:
          static:
            hosts: [{address: 127.0.0.1, port: %d}]
        """.formatted(port);
    GenericKubernetesResource r = api.admin().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    var upstreams = api.admin().genericKubernetesResources("gateway.holdfast.io/v1", "Upstream").inNamespace(NS);
    GenericKubernetesResource current = upstreams.withName("u").get();
    if (current == null) {
      upstreams.resource(r).create();
    } else {
      current.setAdditionalProperty("spec", r.getAdditionalProperties().get("spec"));
      upstreams.resource(current).update();
    }
  }

  private void applyGlooUpstream() {
    String yaml = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: gu, namespace: demo}
        spec:
          static:
            hosts: [{addr: 127.0.0.1, port: 1003}]
        """;
    GenericKubernetesResource r = api.admin().getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    api.admin().genericKubernetesResources("gloo.solo.io/v1", "Upstream").inNamespace(NS).resource(r).create();
  }

  /** Whether the Gloo Upstream carries Holdfast's entry in Gloo's status shape. */
  private boolean glooStatusWritten() {
    GenericKubernetesResource r = api.admin().genericKubernetesResources("gloo.solo.io/v1", "Upstream")
        .inNamespace(NS).withName("gu").get();
    return r != null && r.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        && status.get("statuses") instanceof Map<?, ?> entries && entries.containsKey("holdfast-system");
  }

  private Optional<Long> observedGeneration() {
    GenericKubernetesResource r = api.admin().genericKubernetesResources("gateway.holdfast.io/v1", "Upstream")
        .inNamespace(NS).withName("u").get();
    return r != null && r.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        && status.get("observedGeneration") instanceof Number g ? Optional.of(g.longValue()) : Optional.empty();
  }

  /** Holds status PUTs once armed, before they leave the client, until released: a network that is slow. */
  private static final class HoldStatusWrites implements Interceptor {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean armed;

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      if (!armed || !request.method().equals("PUT") || !request.uri().getPath().endsWith("/status")) {
        return;
      }
      entered.countDown();
      boolean interrupted = false;
      long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (release.getCount() > 0 && System.nanoTime() - giveUp < 0) {
        try {
          // A client giving up does not stop bytes already on the way: only the release lets them through.
          release.await(giveUp - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
