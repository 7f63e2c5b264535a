package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.ir.Finding;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A Gloo Upstream's {@code connectionConfig} read into Holdfast's {@code spec.connection}. */
class GlooUpstreamConnectionTest {

  private static GlooReading reading(String spec) {
    return GlooReading.of(GlooFixtures.load("""
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 198.51.100.7, port: 8080}]}
        """ + spec.indent(2)));
  }

  private static Upstream upstream(String spec) {
    GlooReading reading = reading(spec);
    assertThat(reading.rejected()).isEmpty();
    return reading.holdfastConfig().upstreams().get(0);
  }

  @Test
  void connectionConfigMapsOntoTheCluster() {
    Upstream upstream = upstream("""
        connectionConfig:
          connectTimeout: 2s
          maxRequestsPerConnection: 50
          perConnectionBufferLimitBytes: 32768
          tcpKeepalive: {keepaliveProbes: 4, keepaliveTime: 60s, keepaliveInterval: 1.5s}
          commonHttpProtocolOptions: {idleTimeout: 90s, maxHeadersCount: 0, headersWithUnderscoresAction: ALLOW}
        """);
    assertThat(upstream.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
    // keepaliveInterval 1.5s rounds up to 2 seconds, as in Gloo.
    assertThat(upstream.options().connection()).contains(new UpstreamOptions.Connection(Optional.of(50),
        Optional.of(32768L), Optional.of(new UpstreamOptions.TcpKeepalive(Optional.of(4), Optional.of(60),
            Optional.of(2))), Optional.of(Duration.ofSeconds(90))));
  }

  @Test
  void headerCountAndStreamDurationLimitsAreMapped() {
    UpstreamOptions.Connection connection = upstream("""
        connectionConfig:
          commonHttpProtocolOptions: {maxHeadersCount: 60, maxStreamDuration: 30s}
        """).options().connection().orElseThrow();
    assertThat(connection.maxHeadersCount()).contains(60);
    assertThat(connection.maxStreamDuration()).contains(Duration.ofSeconds(30));
  }

  @Test
  void zeroesAreProtoUnsetAndLeaveTheProxyDefaults() {
    assertThat(upstream("connectionConfig: {connectTimeout: 1s, maxRequestsPerConnection: 0}").options()
        .connection()).isEmpty();
    assertThat(upstream("connectionConfig: {tcpKeepalive: {}}").options().connection().orElseThrow().tcpKeepalive())
        .contains(new UpstreamOptions.TcpKeepalive(Optional.empty(), Optional.empty(), Optional.empty()));
  }

  @Test
  void httpOptionsWithoutAnEquivalentRejectTheUpstreamByName() {
    Map<String, String> options = Map.of("commonHttpProtocolOptions: {headersWithUnderscoresAction: REJECT_REQUEST}", "headersWithUnderscoresAction",
        "http1ProtocolOptions: {enableTrailers: true}", "http1ProtocolOptions");
    for (Map.Entry<String, String> entry : options.entrySet()) {
      String option = entry.getKey();
      String field = entry.getValue();
      GlooReading reading = reading("connectionConfig: {" + option + "}");
      assertThat(reading.rejected().values()).as(option).flatMap(findings -> findings)
          .extracting(Finding::field).anyMatch(f -> f.endsWith(field));
    }
  }
}
