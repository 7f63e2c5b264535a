package io.holdfast.election;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * N electors against one emulated API, each through its own {@link FaultProxy}, so one replica or all of
 * them can be cut off. Fast timings by default: lease 2 s, renew deadline 1.5 s, retry 0.3 s, lock timeout
 * 0.5 s, leader request timeout 250 ms, fence slack 200 ms.
 */
final class ElectionCluster implements AutoCloseable {
  static final String NAMESPACE = "holdfast-test";
  static final String LEASE = "holdfast";

  final MockKubeApi api;
  final List<Replica> replicas = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final UnaryOperator<ElectionSettings.Builder> tuning;

  /** Instants at which two replicas both held the lease by their own clocks; must stay empty. */
  final List<String> dualLeaders = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Thread sampler;
  private volatile boolean sampling = true;

  private ElectionCluster(MockKubeApi api, UnaryOperator<ElectionSettings.Builder> tuning) {
    this.api = api;
    this.tuning = tuning;
    // Samples every few ms whether more than one replica believes it leads. isLeader() is clock-based, and
    // a successor may only start lease - renewDeadline after the old fence closed, so any hit is a real overlap.
    this.sampler = new Thread(() -> {
      while (sampling) {
        List<Replica> now = leaders();
        if (now.size() > 1) {
          dualLeaders.add(System.nanoTime() / 1_000_000 + "ms " + now);
        }
        java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
      }
    }, "dual-leader-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  static ElectionSettings.Builder fastTimings() {
    return ElectionSettings.builder()
        .leaseNamespace(NAMESPACE)
        .leaseName(LEASE)
        .leaseDuration(Duration.ofSeconds(2))
        .renewDeadline(Duration.ofMillis(1500))
        .retryPeriod(Duration.ofMillis(300))
        .lockTimeout(Duration.ofMillis(500))
        // lease - renewDeadline (500 ms) > leaderRequestTimeout + fenceSlack (450 ms), as the settings require
        .leaderRequestTimeout(Duration.ofMillis(250))
        .fenceSlack(Duration.ofMillis(200));
  }

  static ElectionCluster start(int n) {
    return start(n, b -> b);
  }

  static ElectionCluster start(int n, UnaryOperator<ElectionSettings.Builder> tuning) {
    ElectionCluster c = new ElectionCluster(MockKubeApi.start(), tuning);
    for (int i = 0; i < n; i++) {
      c.add("r" + i).elector.start();
    }
    return c;
  }

  /** Adds a replica (not started) with its own proxy, client and lock. */
  Replica add(String name) {
    Replica r = new Replica(name, api, tuning.apply(fastTimings().identity(name)).build());
    replicas.add(r);
    return r;
  }

  Replica replica(int i) {
    return replicas.get(i);
  }

  List<Replica> leaders() {
    return List.copyOf(replicas).stream().filter(r -> r.elector.isLeader()).toList();
  }

  List<Replica> others(Replica than) {
    return replicas.stream().filter(r -> r != than).toList();
  }

  /** Stops everything; fails the test if two replicas ever led at once. */
  @Override
  public void close() {
    sampling = false;
    replicas.forEach(Replica::close);
    api.close();
    if (!dualLeaders.isEmpty()) {
      throw new AssertionError("two leaders at once: " + dualLeaders.subList(0, Math.min(5, dualLeaders.size())));
    }
  }

  /** One elector with its fault proxy, client, lock, recorded events and recorded exits. */
  static final class Replica implements AutoCloseable {
    final String name;
    final FaultProxy proxy;
    final KubernetesClient client;
    final KubernetesLeaseLock lock;
    final SlowWriteLock slowLock;
    final RecordingListener events = new RecordingListener();
    final List<String> exits = new java.util.concurrent.CopyOnWriteArrayList<>();
    final LeaderElector elector;

    Replica(String name, MockKubeApi api, ElectionSettings settings) {
      this.name = name;
      this.proxy = FaultProxy.start(name, api.port());
      this.client = new KubernetesClientBuilder()
          .withConfig(KubernetesLeaseLock.electionConfig(MockKubeApi.configFor(proxy.port()), settings.lockTimeout()))
          .build();
      this.lock = KubernetesLeaseLock.using(client, settings.leaseNamespace(), settings.leaseName());
      this.slowLock = new SlowWriteLock(lock);
      this.elector = LeaderElector.builder(settings, slowLock)
          .exitHandler((status, reason) -> exits.add(reason))
          .build();
      elector.addListener(events);
    }

    @Override
    public void close() {
      elector.close();
      client.close();
      proxy.close();
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
