package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.election.Leadership;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.kube.source.KubeConfigSource;
import io.holdfast.kube.source.ObservedObject;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The writer under steady spec churn, wired as the server wires it (statuses built from the source's view, writes
 * based on the source's informer copies), against an API that answers a stale status write with 409: it keeps up,
 * and conflicts stay rare (each costs a re-read and a second write). Edits come as a Poisson stream, mean gap
 * 100 ms, 30 of them.
 */
class StatusWriterChurnTest {
  private static final ResourceKey UPSTREAM = ResourceKey.upstream(Statuses.NS, "churn");
  private static final String USER_AGENT = "holdfast-status/churn";
  private static final int EDITS = 30;
  private static final Duration EDIT_EVERY = Duration.ofMillis(100);
  /** Conflicts per successful status write allowed; without the informer copies every write after an edit is one. */
  private static final double MAX_CONFLICTS_PER_WRITE = 0.5;

  /** What the pipeline would publish: every observed resource accepted, at the generation the source saw. */
  private static Map<ResourceKey, DesiredStatus> desired(Map<ResourceKey, ObservedObject> observed) {
    Map<ResourceKey, DesiredStatus> out = new LinkedHashMap<>();
    observed.forEach((k, o) -> out.put(k, DesiredStatus.of(Statuses.verdict(k, o.generation(), State.ACCEPTED))));
    return out;
  }

  @Test
  void underSteadySpecChurnTheWriterConvergesWithFewConflictsPerWrite() {
    ScheduledExecutorService editor = Executors.newSingleThreadScheduledExecutor();
    try (StatusKubeApi api = StatusKubeApi.start();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(
            MockKubeApi.configFor(api.port())).withUserAgent(USER_AGENT).withRequestTimeout(2_000).build()).build()) {
      applySpec(api, 0);
      AtomicReference<StatusWriter> writer = new AtomicReference<>();
      AtomicReference<KubeConfigSource> source = new AtomicReference<>();
      source.set(KubeConfigSource.builder(client, config -> writer.get().publish(desired(source.get().observed())))
          .namespace(Statuses.NS).build());
      writer.set(StatusWriter.builder(client, Leadership.alwaysLeader("churn")).callsPerSecond(100)
          .objectCache(source.get()::cached).build().start());
      source.get().start();
      await().atMost(Duration.ofSeconds(10)).until(() -> observedGeneration(api) == generation(api));
      long churnStart = System.nanoTime();

      AtomicInteger edits = new AtomicInteger();
      Random random = new Random(42);
      editor.schedule(new Runnable() {
        @Override
        public void run() {
          applySpec(api, edits.get() + 1);
          if (edits.incrementAndGet() < EDITS) {
            // Exponential gaps (a Poisson stream of edits), mean EDIT_EVERY: users do not edit on a beat.
            long gap = (long) (-Math.log(1 - random.nextDouble()) * EDIT_EVERY.toNanos());
            editor.schedule(this, gap, TimeUnit.NANOSECONDS);
          }
        }
      }, 0, TimeUnit.MILLISECONDS);
      await().atMost(Duration.ofSeconds(15)).until(() -> edits.get() == EDITS);
      long finalGeneration = generation(api);
      await().atMost(Duration.ofSeconds(10)).until(() -> observedGeneration(api) == finalGeneration);

      List<ApiWrite> writes = api.statusWritesFrom(USER_AGENT).stream()
          .filter(w -> w.receivedNanos() >= churnStart).toList();
      long written = writes.stream().filter(ApiWrite::succeeded).count();
      long conflicts = writes.stream().filter(w -> w.code() == 409).count();
      System.out.printf("FIGURE status-churn edits=%d every-ms=%d status-writes=%d conflicts=%d%n", EDITS,
          EDIT_EVERY.toMillis(), written, conflicts);
      assertThat(written).as("successful status writes during the churn").isPositive();
      assertThat((double) conflicts / written).as("409s per successful status write (%d / %d)", conflicts, written)
          .isLessThanOrEqualTo(MAX_CONFLICTS_PER_WRITE);
      writer.get().close();
      source.get().close();
    } finally {
      editor.shutdownNow();
    }
  }

  /** Sets the Upstream's spec (creating it the first time), retrying when a status write slipped in between. */
  private static void applySpec(StatusKubeApi api, int n) {
    var upstreams = api.admin.genericKubernetesResources(GatewayCrds.context(UPSTREAM.kind()))
        .inNamespace(UPSTREAM.namespace());
    Map<String, Object> spec = Map.of("static", Map.of("hosts", List.of(Map.of("address", "127.0.0.1",
        "port", 1000 + n))));
    for (int attempt = 0; attempt < 10; attempt++) {
      GenericKubernetesResource current = upstreams.withName(UPSTREAM.name()).get();
      try {
        if (current == null) {
          GenericKubernetesResource created = new GenericKubernetesResource();
          created.setApiVersion(HoldfastKinds.API_VERSION);
          created.setKind(UPSTREAM.kind());
          created.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
              .withNamespace(UPSTREAM.namespace()).withName(UPSTREAM.name()).build());
          created.setAdditionalProperty("spec", spec);
          upstreams.resource(created).create();
        } else {
          current.setAdditionalProperty("spec", spec);
          upstreams.resource(current).update();
        }
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
    }
    throw new IllegalStateException("spec edit " + n + " kept conflicting");
  }

  private static long generation(StatusKubeApi api) {
    return api.get(UPSTREAM).getMetadata().getGeneration();
  }

  private static long observedGeneration(StatusKubeApi api) {
    return api.status(UPSTREAM) instanceof Map<?, ?> s && s.get("observedGeneration") instanceof Number g
        ? g.longValue() : -1;
  }
}
