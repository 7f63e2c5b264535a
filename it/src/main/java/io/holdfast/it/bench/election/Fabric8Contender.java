package io.holdfast.it.bench.election;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * fabric8 8.0.0's elector configured as its documentation shows (release on cancel), on a client with fabric8's
 * default timeouts; whether it leads is what its callbacks last said.
 */
final class Fabric8Contender implements Contender {
  private final String identity;
  private final FaultProxy proxy;
  private final KubernetesClient client;
  private final CompletableFuture<?> running;
  private final AtomicBoolean leading = new AtomicBoolean();
  private final AtomicReference<String> observed = new AtomicReference<>();

  Fabric8Contender(MockKubeApi api, String namespace, String lease, String identity, Timings timings) {
    this.identity = identity;
    this.proxy = FaultProxy.start(identity, api.port());
    this.client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(proxy.port())).build();
    this.running = client.leaderElector()
        .withConfig(new LeaderElectionConfigBuilder()
            .withName(lease)
            .withLeaseDuration(timings.leaseDuration())
            .withRenewDeadline(timings.renewDeadline())
            .withRetryPeriod(timings.retryPeriod())
            .withLock(new LeaseLock(namespace, lease, identity))
            .withReleaseOnCancel(true)
            .withLeaderCallbacks(new LeaderCallbacks(
                () -> leading.set(true),
                () -> leading.set(false),
                observed::set))
            .build())
        .build()
        .start();
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
    return leading.get();
  }

  @Override
  public Optional<String> observedLeader() {
    return Optional.ofNullable(observed.get()).filter(s -> !s.isEmpty());
  }

  @Override
  public boolean settled() {
    return observedLeader().isPresent();
  }

  @Override
  public boolean finished() {
    return running.isDone();
  }

  @Override
  public void stopGracefully() {
    running.cancel(true);
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
