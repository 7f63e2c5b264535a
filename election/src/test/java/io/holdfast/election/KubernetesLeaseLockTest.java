package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.holdfast.testkit.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How the Kubernetes lock classifies the API's answers, against a mock API that answers what each test expects. */
class KubernetesLeaseLockTest {
  private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/%s/leases";
  private static final LeaseRecord RECORD = new LeaseRecord("a", 15, Instant.EPOCH, Instant.EPOCH, 0);

  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = new KubernetesMockServer(false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  private static Status notFound(String message) {
    return new StatusBuilder().withStatus("Failure").withCode(404).withReason("NotFound").withMessage(message).build();
  }

  /** Regression: a 404 on create (the namespace is missing) was classified as a lost race with a deletion. */
  @Test
  void aNotFoundOnCreateNamesTheMissingNamespace() {
    server.expect().post().withPath(String.format(LEASES, "typo")).andReturn(404, notFound("namespaces \"typo\" not found"))
        .always();
    KubernetesLeaseLock lock = KubernetesLeaseLock.using(client, "typo", "holdfast");
    assertThatThrownBy(() -> lock.create(RECORD)).isInstanceOfSatisfying(LockException.class, e -> {
      assertThat(e.cause()).isEqualTo(LockException.Cause.NAMESPACE_NOT_FOUND);
      assertThat(e.getMessage()).isEqualTo("lease namespace 'typo' not found (HTTP 404 on create of Lease typo/holdfast)");
    });
  }

  @Test
  void aNotFoundOnUpdateIsStillARaceWithADeletion() {
    server.expect().put().withPath(String.format(LEASES, "ns") + "/holdfast").andReturn(404, notFound("gone")).always();
    KubernetesLeaseLock lock = KubernetesLeaseLock.using(client, "ns", "holdfast");
    assertThatThrownBy(() -> lock.update(new VersionedRecord(RECORD, "5"), RECORD))
        .isInstanceOfSatisfying(LockException.class, e -> assertThat(e.cause()).isEqualTo(LockException.Cause.NOT_FOUND));
  }

  /** End to end: a typo in the lease namespace is an error in the log, a metric and lastError(), not a debug line. */
  @Test
  void anElectorWithAMissingLeaseNamespaceReportsItVisibly() {
    server.expect().post().withPath(String.format(LEASES, "typo")).andReturn(404, notFound("namespaces \"typo\" not found"))
        .always(); // and GET answers 404 too (no expectation): the lease reads as absent
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ManualClock clock = new ManualClock();
    LeaderElector e = LeaderElector.builder(ElectionCluster.fastTimings().identity("a").leaseNamespace("typo").build(),
            KubernetesLeaseLock.using(client, "typo", "holdfast"))
        .clock(ElectionClock.of(clock, clock)).random(() -> 0.0).listenerExecutor(Runnable::run).meterRegistry(registry).build();
    try (LogCapture logs = LogCapture.of(LeaderElector.class)) {
      for (int i = 0; i < 3; i++) {
        clock.advance(Duration.ofNanos(e.step()));
      }
      assertThat(logs.atLeast(Level.WARN)).singleElement().asString()
          .startsWith("ERROR").contains("namespace=typo", "lease namespace 'typo' not found");
    } finally {
      e.close();
    }
    assertThat(e.isLeader()).isFalse();
    assertThat(e.lastError()).contains("lease namespace 'typo' not found (HTTP 404 on create of Lease typo/holdfast)");
    assertThat(registry.get("holdfast.election.acquire.failures").tag("cause", "namespace_not_found").counter().count())
        .isEqualTo(3);
  }
}
