package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.IrBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An Upstream's connection settings ({@code spec.connection}): parsed, range-checked and lowered. */
class UpstreamConnectionTest {

  private static final ResourceKey BACKEND = ResourceKey.upstream("default", "backend");

  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC));

  private static String upstream(String spec) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: backend}
        spec:
          static:
            hosts: [{address: 127.0.0.1, port: 8080}]
        """ + spec.indent(2);
  }

  private IrBuilder.Result lower(String upstream) {
    IrBuilder builder = new IrBuilder();
    frontEnd.lower(TestManifests.config(upstream, TestManifests.virtualService("web", "web.example", "backend"),
        TestManifests.gateway("public", 10080)), builder);
    return builder.build();
  }

  private static List<Problem> problems(IrBuilder.Result result) {
    return ResourceStatus.of(result.statuses().get(BACKEND)).problems();
  }

  private static Optional<Cluster> cluster(IrBuilder.Result result) {
    return result.ir().clusters().stream().filter(c -> c.origin().object().equals(BACKEND)).findFirst();
  }

  @Test
  void settingsReachTheCluster() {
    IrBuilder.Result result = lower(upstream("""
        connection:
          maxRequestsPerConnection: 1
          perConnectionBufferLimitBytes: 4294967295
          idleTimeout: 0s
          maxHeadersCount: 1
          maxStreamDuration: 2m
          tcpKeepalive: {probes: 127, time: 32767, interval: 1}
        """));

    assertThat(problems(result)).isEmpty();
    assertThat(cluster(result).orElseThrow().connection()).contains(new Cluster.Connection(Optional.of(1),
        Optional.of(4_294_967_295L), Optional.of(127), Optional.of(32767), Optional.of(1),
        Optional.of(Duration.ZERO), Optional.of(1), Optional.of(Duration.ofMinutes(2))));
  }

  @Test
  void http1OptionsReachTheCluster() {
    IrBuilder.Result result = lower(upstream("""
        connection:
          http1: {enableTrailers: true, headerKeyFormat: PROPER_CASE, streamErrorOnInvalidHttpMessage: true}
        """));

    assertThat(problems(result)).isEmpty();
    assertThat(cluster(result).orElseThrow().connection().orElseThrow().http1()).contains(new Cluster.Http1(true,
        Optional.of(Cluster.HeaderKeyFormat.PROPER_CASE), Optional.of(true)));
  }

  @Test
  void http1OptionsOnAnHttp2UpstreamRejectItByField() {
    IrBuilder.Result result = lower(upstream("""
        http2: true
        connection:
          idleTimeout: 10s
          http1: {headerKeyFormat: PRESERVE_CASE}
        """));

    assertThat(cluster(result)).isEmpty();
    assertThat(problems(result)).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.connection.http1", Reasons.INVALID_UPSTREAM_CONNECTION));
  }

  @Test
  void http2OptionsReachTheClusterAtEnvoysBounds() {
    IrBuilder.Result result = lower(upstream("""
        http2: true
        connection:
          http2: {maxConcurrentStreams: 2147483647, initialStreamWindowSize: 65535,
            initialConnectionWindowSize: 2147483647, streamErrorOnInvalidHttpMessage: false}
        """));

    assertThat(problems(result)).isEmpty();
    assertThat(cluster(result).orElseThrow().connection().orElseThrow().http2()).contains(new Cluster.Http2(
        Optional.of(Integer.MAX_VALUE), Optional.of(65_535), Optional.of(Integer.MAX_VALUE), Optional.of(false)));
  }

  @Test
  void http2OptionsOutOfRangeOrOnAnHttp1UpstreamRejectItByField() {
    IrBuilder.Result result = lower(upstream("""
        http2: true
        connection:
          http2: {maxConcurrentStreams: 0, initialStreamWindowSize: 65534, initialConnectionWindowSize: 2147483648}
        """));
    assertThat(cluster(result)).isEmpty();
    assertThat(problems(result)).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.connection.http2.maxConcurrentStreams", Reasons.INVALID_UPSTREAM_CONNECTION),
        tuple("spec.connection.http2.initialStreamWindowSize", Reasons.INVALID_UPSTREAM_CONNECTION),
        tuple("spec.connection.http2.initialConnectionWindowSize", Reasons.INVALID_UPSTREAM_CONNECTION));

    IrBuilder.Result http1 = lower(upstream("connection: {http2: {maxConcurrentStreams: 10}}"));
    assertThat(cluster(http1)).isEmpty();
    assertThat(problems(http1)).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.connection.http2", Reasons.INVALID_UPSTREAM_CONNECTION));
  }

  @Test
  void absentMeansTheProxyDefaults() {
    assertThat(cluster(lower(upstream("http2: true"))).orElseThrow().connection()).isEmpty();
  }

  @Test
  void outOfRangeValuesRejectTheUpstreamByField() {
    IrBuilder.Result result = lower(upstream("""
        connection:
          maxRequestsPerConnection: 0
          perConnectionBufferLimitBytes: 4294967296
          maxHeadersCount: 0
          tcpKeepalive: {probes: 128, time: 0, interval: 32768}
        """));

    assertThat(cluster(result)).isEmpty();
    assertThat(problems(result)).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.connection.maxRequestsPerConnection", Reasons.INVALID_UPSTREAM_CONNECTION),
        tuple("spec.connection.perConnectionBufferLimitBytes", Reasons.INVALID_UPSTREAM_CONNECTION),
        tuple("spec.connection.maxHeadersCount", Reasons.INVALID_UPSTREAM_CONNECTION),
        tuple("spec.connection.tcpKeepalive.probes", Reasons.INVALID_UPSTREAM_CONNECTION),
        tuple("spec.connection.tcpKeepalive.time", Reasons.INVALID_UPSTREAM_CONNECTION),
        tuple("spec.connection.tcpKeepalive.interval", Reasons.INVALID_UPSTREAM_CONNECTION));
  }

  @Test
  void unknownFieldsAreRejectedByName() {
    IrBuilder.Result result = lower(upstream("""
        connection:
          tcpKeepalive: {probes: 3, idle: 5}
        """));

    assertThat(cluster(result)).isEmpty();
    assertThat(problems(result)).extracting(Problem::field).anyMatch(f -> f.contains("idle"));
  }
}
