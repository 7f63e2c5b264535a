package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;
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
  void http1OptionsNeedAnHttp1Cluster() {
    Cluster.Connection http1 = new Cluster.Connection(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty())
        .withHttp1(Optional.of(new Cluster.Http1(true, Optional.empty(), Optional.empty())));
    assertThatThrownBy(() -> cluster(true, List.of(), Optional.empty(), List.of()).withConnection(http1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("HTTP/1.1 options");
    assertThat(cluster(false, List.of(), Optional.empty(), List.of()).withConnection(http1).connection()
        .flatMap(Cluster.Connection::http1)).isPresent();
  }

  @Test
  void http2OptionsNeedAnHttp2ClusterAndEnvoysRanges() {
    Cluster.Connection http2 = new Cluster.Connection(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty())
        .withHttp2(Optional.of(new Cluster.Http2(Optional.of(1), Optional.empty(), Optional.empty(),
            Optional.empty())));
    assertThatThrownBy(() -> cluster(false, List.of(), Optional.empty(), List.of()).withConnection(http2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("HTTP/2 options");
    assertThat(cluster(true, List.of(), Optional.empty(), List.of()).withConnection(http2).connection()
        .flatMap(Cluster.Connection::http2)).isPresent();
    assertThatThrownBy(() -> new Cluster.Http2(Optional.empty(), Optional.of(65_534), Optional.empty(),
        Optional.empty())).hasMessageContaining("initialStreamWindowSize 65534");
    assertThatThrownBy(() -> new Cluster.Http2(Optional.of(0), Optional.empty(), Optional.empty(),
        Optional.empty())).hasMessageContaining("maxConcurrentStreams 0");
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
    assertThatThrownBy(() -> new UpstreamTls(Optional.empty(), UpstreamTls.Verify.TRUSTED_CA))
        .hasMessageContaining("and no trusted CA");
    assertThatThrownBy(() -> new UpstreamTls(Optional.of("a.test"), UpstreamTls.Verify.SYSTEM_CAS,
        Optional.of("ca/file/ca.crt"), Optional.empty())).hasMessageContaining("and a trusted CA");
    assertThatThrownBy(() -> new Cluster.Dns(Cluster.DnsResolution.STRICT, Cluster.DnsLookupFamily.ALL,
        Optional.of(Duration.ZERO), false)).hasMessageContaining("refreshRate");
  }

  @Test
  void theSecretsAnUpstreamTlsNamesMustBeInTheIrWithTheRightContent() {
    UpstreamTls tls = new UpstreamTls(Optional.empty(), UpstreamTls.Verify.TRUSTED_CA, Optional.of("ca/file/ca.crt"),
        Optional.of("file/client.crt"));
    Cluster withTls = new Cluster(ORIGIN, Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false, List.of(),
        Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.of(tls));
    Secret ca = new Secret(ORIGIN, "ca/file/ca.crt", new Secret.Content.TrustedCa("ca pem"));
    Secret client = new Secret(ORIGIN, "file/client.crt", new Secret.Content.CertificateAndKey("chain", "key"));

    assertThat(new Ir(List.of(), List.of(withTls), List.of(ca, client)).secrets()).hasSize(2);
    assertThatThrownBy(() -> new Ir(List.of(), List.of(withTls), List.of(ca)))
        .hasMessageContaining("refers to secret file/client.crt, which is not in the IR");
    Secret caAsCertificate = new Secret(ORIGIN, "ca/file/ca.crt", new Secret.Content.CertificateAndKey("c", "k"));
    assertThatThrownBy(() -> new Ir(List.of(), List.of(withTls), List.of(caAsCertificate, client)))
        .hasMessageContaining("needs secret ca/file/ca.crt to hold TrustedCa");
  }
}
