package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.ResourceKey;
import io.holdfast.election.ElectionSettings;
import io.holdfast.election.KubernetesLeaseLock;
import io.holdfast.election.LeaderElector;
import io.holdfast.election.Leadership;
import io.holdfast.election.LeadershipListener;
import io.holdfast.election.Term;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Replicas, each a real {@link LeaderElector} and a {@link StatusWriter}, wired as the server wires them: a lease
 * client (every call bounded by the lock timeout) and a status client (request timeout = the leader request
 * timeout), each reaching the emulated API through a {@link FaultProxy} of the replica's own (the replica's link:
 * {@link Replica#link}), with the user agent {@code holdfast-status/<name>}, so the API's record says who wrote
 * what. Election timings: lease 3 s, renew
 * deadline 2 s, retry 0.3 s, lock timeout 0.5 s, leader request timeout 0.6 s, fence slack 0.3 s.
 */
final class StatusCluster implements AutoCloseable {
  static final String LEASE_NAMESPACE = "holdfast-system";

  final StatusKubeApi api = StatusKubeApi.start();
  final List<Replica> replicas = new ArrayList<>();

  static StatusCluster start(int n) {
    return start(n, b -> b);
  }

  /** {@code n} replicas whose writers wait on {@code time}'s manual clock (their electors on the JVM's). */
  static StatusCluster start(int n, WriterTime time) {
    StatusCluster c = start(n, time::on);
    c.replicas.forEach(r -> time.add(r.writer));
    return c;
  }

  static StatusCluster start(int n, UnaryOperator<StatusWriter.Builder> tuning) {
    StatusCluster c = new StatusCluster();
    for (int i = 0; i < n; i++) {
      c.replicas.add(new Replica("r" + i, c.api, tuning, null));
    }
    return c;
  }

  /**
   * One replica that leads from the start without an election: a {@link FakeLeadership} on {@code time}'s clock,
   * which the writer also waits on. For tests of the writer against the emulated API where the election is not
   * what is tested; it has no lease link.
   */
  static StatusCluster leading(WriterTime time, UnaryOperator<StatusWriter.Builder> tuning) {
    StatusCluster c = new StatusCluster();
    FakeLeadership leadership = new FakeLeadership(time.clock);
    leadership.elect();
    c.replicas.add(new Replica("r0", c.api, b -> tuning.apply(time.on(b)), leadership));
    c.replicas.forEach(r -> time.add(r.writer));
    return c;
  }

  /** The election settings of replica {@code name}. */
  static ElectionSettings settings(String name) {
    return ElectionSettings.builder()
        .identity(name)
        .leaseNamespace(LEASE_NAMESPACE)
        .leaseName("holdfast")
        .leaseDuration(Duration.ofSeconds(3))
        .renewDeadline(Duration.ofSeconds(2))
        .retryPeriod(Duration.ofMillis(300))
        .lockTimeout(Duration.ofMillis(500))
        .leaderRequestTimeout(Duration.ofMillis(600))
        .fenceSlack(Duration.ofMillis(300))
        .build();
  }

  /**
   * The replica behind a user agent of the API's record (its name), empty for test set-up, for
   * {@link io.holdfast.testkit.FencingAudit}.
   */
  static Optional<String> writerOf(String userAgent) {
    return ApiWrite.replicasByPrefix("holdfast-status/").apply(userAgent);
  }

  List<Replica> leaders() {
    return replicas.stream().filter(r -> r.leadership.isLeader()).toList();
  }

  void publishAll(Map<ResourceKey, DesiredStatus> desired) {
    replicas.forEach(r -> r.writer.publish(desired));
  }

  @Override
  public void close() {
    replicas.forEach(Replica::close);
    api.close();
  }

  static final class Replica implements AutoCloseable, LeadershipListener {
    final String name;
    final String userAgent;
    /** The lease client's way to the API; null without an elector. */
    final FaultProxy leaseProxy;
    /** The status client's way to the API. */
    final FaultProxy statusProxy;
    /** Null without an elector. */
    final KubernetesClient leaseClient;
    final KubernetesClient statusClient;
    /** Null when the replica leads by a {@link FakeLeadership}. */
    final LeaderElector elector;
    final Leadership leadership;
    final StatusWriter writer;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final List<Long> electedAt = new CopyOnWriteArrayList<>();
    final List<Long> demotedAt = new CopyOnWriteArrayList<>();
    /** Returned by the writer's object cache when set: lets a test hand the writer a stale object. */
    volatile Function<ResourceKey, Optional<GenericKubernetesResource>> cache = k -> Optional.empty();

    Replica(String name, StatusKubeApi api, UnaryOperator<StatusWriter.Builder> tuning, FakeLeadership fake) {
      this.name = name;
      this.userAgent = "holdfast-status/" + name;
      this.statusProxy = FaultProxy.start(name + "-status", api.port());
      ElectionSettings settings = settings(name);
      int requestMillis = (int) settings.leaderRequestTimeout().toMillis();
      this.statusClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(MockKubeApi.configFor(statusProxy.port()))
          .withRequestTimeout(requestMillis).withConnectionTimeout(requestMillis).withUserAgent(userAgent).build())
          .build();
      if (fake == null) {
        this.leaseProxy = FaultProxy.start(name + "-lease", api.port());
        this.leaseClient = new KubernetesClientBuilder().withConfig(new ConfigBuilder(
            KubernetesLeaseLock.electionConfig(MockKubeApi.configFor(leaseProxy.port()), settings.lockTimeout()))
            .withUserAgent(userAgent).build()).build();
        this.elector = LeaderElector.builder(settings,
                KubernetesLeaseLock.using(leaseClient, LEASE_NAMESPACE, "holdfast"))
            .exitHandler((status, reason) -> { })
            .build();
        this.leadership = elector;
      } else {
        this.leaseProxy = null;
        this.leaseClient = null;
        this.elector = null;
        this.leadership = fake;
      }
      leadership.addListener(this);
      this.writer = tuning.apply(StatusWriter.builder(statusClient, leadership)
              .meterRegistry(registry)
              .requestTimeout(settings.leaderRequestTimeout())
              .backoff(new Backoff(Duration.ofMillis(100), Duration.ofMillis(400)))
              .callsPerSecond(200)
              .objectCache(k -> cache.apply(k)))
          .build()
          .start();
      if (elector != null) {
        elector.start();
      }
    }

    @Override
    public void onElected(Term term) {
      electedAt.add(System.nanoTime());
    }

    @Override
    public void onDemoted(Term term, String cause) {
      demotedAt.add(System.nanoTime());
    }

    /** Applies a fault to the replica's whole link: both its proxies. */
    void link(java.util.function.Consumer<FaultProxy> fault) {
      if (leaseProxy != null) {
        fault.accept(leaseProxy);
      }
      fault.accept(statusProxy);
    }

    double count(String outcome) {
      var c = registry.find(StatusMetrics.WRITES).tag("outcome", outcome).counter();
      return c == null ? 0 : c.count();
    }

    @Override
    public void close() {
      writer.close(); // leader-only work first, then the lease is released: the order the server uses
      if (elector != null) {
        elector.close();
        leaseClient.close();
        leaseProxy.close();
      }
      statusClient.close();
      statusProxy.close();
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
