package io.holdfast.it.bench.election;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.election.ElectionSettings;
import io.holdfast.election.KubernetesLeaseLock;
import io.holdfast.election.LeaderElector;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** Holdfast's elector as the server wires it: its own client with bounded calls, default 1 s lock timeout. */
final class HoldfastContender implements Contender {
  private final String identity;
  private final FaultProxy proxy;
  private final KubernetesClient client;
  private final LeaderElector elector;
  private final AtomicBoolean stopped = new AtomicBoolean();

  /**
   * The profile's lease timings. Holdfast also bounds its leader-only writes (none in this benchmark) and needs
   * leaseDuration - renewDeadline > leaderRequestTimeout + fenceSlack; the defaults (2 s + 1 s) fit the default
   * profile, and a profile with a smaller gap gets half and a quarter of the gap instead.
   */
  static ElectionSettings settings(String namespace, String lease, String identity, Timings timings) {
    Duration gap = timings.leaseDuration().minus(timings.renewDeadline());
    return ElectionSettings.builder()
        .identity(identity)
        .leaseNamespace(namespace)
        .leaseName(lease)
        .leaseDuration(timings.leaseDuration())
        .renewDeadline(timings.renewDeadline())
        .retryPeriod(timings.retryPeriod())
        .leaderRequestTimeout(min(Duration.ofSeconds(2), gap.dividedBy(2)))
        .fenceSlack(min(Duration.ofSeconds(1), gap.dividedBy(4)))
        .build();
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  HoldfastContender(MockKubeApi api, String namespace, String lease, String identity, Timings timings) {
    this.identity = identity;
    this.proxy = FaultProxy.start(identity, api.port());
    ElectionSettings settings = settings(namespace, lease, identity, timings);
    this.client = new KubernetesClientBuilder()
        .withConfig(KubernetesLeaseLock.electionConfig(MockKubeApi.configFor(proxy.port()), settings.lockTimeout()))
        .build();
    this.elector = LeaderElector.builder(settings, KubernetesLeaseLock.using(client, namespace, lease))
        // RECOVER never exits; should a future default differ, a benchmark must not end the JVM.
        .exitHandler((status, reason) -> { })
        .build();
    elector.start();
  }

  @Override
  public String identity() {
    return identity;
  }

  @Override
  public FaultProxy proxy() {
    return proxy;
  }

  @Override
  public boolean leads() {
    return elector.isLeader();
  }

  @Override
  public Optional<String> observedLeader() {
    return elector.observedLeader();
  }

  @Override
  public boolean settled() {
    return elector.watchHealthy() && elector.observedLeader().isPresent();
  }

  @Override
  public boolean finished() {
    return stopped.get();
  }

  @Override
  public void stopGracefully() {
    stopped.set(true);
    elector.close();
  }

  @Override
  public void close() {
    stopGracefully();
    client.close();
    proxy.close();
  }

  @Override
  public String toString() {
    return identity;
  }
}
