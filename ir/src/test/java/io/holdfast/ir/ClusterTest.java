package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The cluster policies the IR refuses, whatever the front end: each would make the proxy reject the cluster. */
class ClusterTest {

  private static final Origin ORIGIN = Origin.of(ResourceKey.upstream("default", "up"));
  private static final List<Cluster.WeightedEndpoint> TWO_NAMES =
      List.of(new Cluster.WeightedEndpoint("a.test", 80, 1), new Cluster.WeightedEndpoint("b.test", 80, 1));

  private static Cluster cluster(boolean http2, List<Cluster.WeightedEndpoint> endpoints, Optional<Cluster.Dns> dns,
      List<HealthCheck> checks) {
    return new Cluster(ORIGIN, Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, http2, endpoints, dns,
        Optional.empty(), Optional.empty(), checks, Optional.empty());
  }

  @Test
  void logicalDnsTakesExactlyOneEndpoint() {
    Cluster.Dns logical = new Cluster.Dns(Cluster.DnsResolution.LOGICAL, Cluster.DnsLookupFamily.V4_ONLY,
        Optional.empty(), false);
    assertThatThrownBy(() -> cluster(false, TWO_NAMES, Optional.of(logical), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exactly one endpoint, got 2");
  }

  @Test
  void aGrpcHealthCheckNeedsHttp2() {
    HealthCheck grpc = new HealthCheck(Duration.ofSeconds(1), Duration.ofSeconds(5), 1, 3,
        new HealthCheck.Probe.Grpc(Optional.empty()));
    assertThatThrownBy(() -> cluster(false, List.of(), Optional.empty(), List.of(grpc)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("HTTP/2");
  }

  @Test
  void valuesOutOfTheirRangesAreRefused() {
    assertThatThrownBy(() -> new Cluster.OutlierDetection(Optional.of(5), Optional.empty(), Optional.empty(),
        Optional.empty(), Duration.ofSeconds(10), Duration.ofSeconds(30), 101))
        .hasMessageContaining("maxEjectionPercent 101");
    assertThatThrownBy(() -> new Cluster.CircuitBreakers(Optional.empty(), Optional.empty(), Optional.of(0),
        Optional.empty())).hasMessageContaining("maxRequests 0");
    assertThatThrownBy(() -> new HealthCheck.StatusRange(200, 200)).hasMessageContaining("[200, 200)");
    assertThatThrownBy(() -> new HealthCheck(Duration.ZERO, Duration.ofSeconds(5), 1, 3, new HealthCheck.Probe.Tcp()))
        .hasMessageContaining("timeout must be greater than 0");
    assertThatThrownBy(() -> new UpstreamTls(Optional.empty(), UpstreamTls.Verify.SYSTEM_CAS))
        .hasMessageContaining("needs an sni");
    assertThatThrownBy(() -> new Cluster.Dns(Cluster.DnsResolution.STRICT, Cluster.DnsLookupFamily.ALL,
        Optional.of(Duration.ZERO), false)).hasMessageContaining("refreshRate");
  }
}
