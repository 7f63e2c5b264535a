package io.holdfast.it.bench.election;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.election.ElectionSettings;
import io.holdfast.election.KubernetesLeaseLock;
import io.holdfast.election.LeaderElector;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** Holdfast's elector as the server wires it: its own client with bounded calls, default 1 s lock timeout. */
final class HoldfastContender implements Contender {
  private final String identity;
  private final FaultProxy proxy;
  private final KubernetesClient client;
  private final LeaderElector elector;
  private final AtomicBoolean stopped = new AtomicBoolean();

  HoldfastContender(MockKubeApi api, String namespace, String lease, String identity, Timings timings) {
    this.identity = identity;
    this.proxy = FaultProxy.start(identity, api.port());
    ElectionSettings settings = ElectionSettings.builder()
        .identity(identity)
        .leaseNamespace(namespace)
        .leaseName(lease)
        .leaseDuration(timings.leaseDuration())
        .renewDeadline(timings.renewDeadline())
        .retryPeriod(timings.retryPeriod())
        .build();
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
