package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.ir.Finding;
import java.time.Duration;
import java.util.List;
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
  void http1ProtocolOptionsMapOntoTheClusterAsGlooConvertsThem() {
    assertThat(upstream("""
        connectionConfig:
          http1ProtocolOptions: {enableTrailers: true, properCaseHeaderKeyFormat: true,
            overrideStreamErrorOnInvalidHttpMessage: false}
        """).options().connection().orElseThrow().http1()).contains(new UpstreamOptions.Http1(true,
        Optional.of(UpstreamOptions.HeaderKeyFormat.PROPER_CASE), Optional.of(false)));
    assertThat(upstream("""
        connectionConfig:
          http1ProtocolOptions:
            preserveCaseHeaderKeyFormat: true
            overrideStreamErrorOnInvalidHttpMessage: {value: true}
        """).options().connection().orElseThrow().http1()).contains(new UpstreamOptions.Http1(false,
        Optional.of(UpstreamOptions.HeaderKeyFormat.PRESERVE_CASE), Optional.of(true)));
    // false is proto3's unset for the plain bools; the BoolValue stays unset when absent.
    assertThat(upstream("""
        connectionConfig:
          http1ProtocolOptions: {enableTrailers: false, properCaseHeaderKeyFormat: false}
        """).options().connection().orElseThrow().http1()).contains(new UpstreamOptions.Http1(false,
        Optional.empty(), Optional.empty()));
  }

  @Test
  void http1ProtocolOptionsAreRefusedWhereGlooRefusesThem() {
    Map<String, String> cases = Map.of(
        "useHttp2: true\nconnectionConfig: {http1ProtocolOptions: {enableTrailers: true}}", "http1ProtocolOptions",
        "connectionConfig: {http1ProtocolOptions: {properCaseHeaderKeyFormat: true,"
            + " preserveCaseHeaderKeyFormat: true}}", "preserveCaseHeaderKeyFormat",
        "connectionConfig: {http1ProtocolOptions: {allowAbsoluteUrl: true}}", "allowAbsoluteUrl",
        "connectionConfig: {commonHttpProtocolOptions: {headersWithUnderscoresAction: DROP}}",
        "headersWithUnderscoresAction");
    for (Map.Entry<String, String> entry : cases.entrySet()) {
      GlooReading reading = reading(entry.getKey());
      assertThat(reading.rejected().values()).as(entry.getKey()).flatMap(findings -> findings)
          .filteredOn(f -> f.severity() == Finding.Severity.ERROR)
          .extracting(Finding::field).anyMatch(f -> f.endsWith(entry.getValue()));
    }
  }

  @Test
  void headersWithUnderscoresActionIsReadWithAWarningThatItHasNoEffectOnACluster() {
    for (String action : List.of("REJECT_REQUEST", "DROP_HEADER")) {
      GlooReading reading = reading("connectionConfig: {commonHttpProtocolOptions: {idleTimeout: 5s,"
          + " headersWithUnderscoresAction: " + action + "}}");
      assertThat(reading.rejected()).isEmpty();
      assertThat(reading.warnings().values()).flatMap(findings -> findings)
          .extracting(Finding::field, Finding::reason).containsExactly(org.assertj.core.groups.Tuple.tuple(
              "spec.connectionConfig.commonHttpProtocolOptions.headersWithUnderscoresAction",
              UpstreamReader.NO_EFFECT_ON_UPSTREAM));
      assertThat(reading.holdfastConfig().upstreams().get(0).options().connection().orElseThrow().idleTimeout())
          .contains(Duration.ofSeconds(5));
    }
    assertThat(reading("connectionConfig: {commonHttpProtocolOptions: {headersWithUnderscoresAction: ALLOW}}")
        .warnings()).isEmpty();
  }

  @Test
  void http2SettingsMapOntoTheClusterWithUseHttp2() {
    UpstreamOptions.Connection connection = upstream("""
        useHttp2: true
        protocolSelection: USE_CONFIGURED_PROTOCOL
        maxConcurrentStreams: 50
        initialStreamWindowSize: 65535
        initialConnectionWindowSize: 1048576
        overrideStreamErrorOnInvalidHttpMessage: true
        connectionConfig: {commonHttpProtocolOptions: {idleTimeout: 20s}}
        """).options().connection().orElseThrow();
    assertThat(connection.http2()).contains(new UpstreamOptions.Http2(Optional.of(50L), Optional.of(65_535L),
        Optional.of(1_048_576L), Optional.of(true)));
    assertThat(connection.idleTimeout()).contains(Duration.ofSeconds(20));
  }

  @Test
  void http2SettingsWithoutUseHttp2HaveNoEffectAsInGlooAndSaySo() {
    GlooReading reading = reading("""
        maxConcurrentStreams: 50
        protocolSelection: USE_DOWNSTREAM_PROTOCOL
        """);
    assertThat(reading.rejected()).isEmpty();
    assertThat(reading.holdfastConfig().upstreams().get(0).options().connection()).isEmpty();
    assertThat(reading.warnings().values()).flatMap(findings -> findings)
        .extracting(Finding::field, Finding::reason).containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("spec.maxConcurrentStreams", UpstreamReader.NO_EFFECT_ON_UPSTREAM),
            org.assertj.core.groups.Tuple.tuple("spec.protocolSelection", UpstreamReader.NO_EFFECT_ON_UPSTREAM));
  }

  @Test
  void downstreamProtocolSelectionIsRejectedByName() {
    GlooReading reading = reading("useHttp2: true\nprotocolSelection: USE_DOWNSTREAM_PROTOCOL");
    assertThat(reading.rejected().values()).flatMap(findings -> findings)
        .extracting(Finding::field, Finding::reason).containsExactly(org.assertj.core.groups.Tuple.tuple(
            "spec.protocolSelection", GlooFeatures.UNSUPPORTED));
  }

  @Test
  void outOfRangeValuesRejectTheUpstreamAtTheirGlooFields() {
    var result = GlooFixtures.build(GlooFixtures.load("""
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 198.51.100.7, port: 8080}]}
          useHttp2: true
          initialStreamWindowSize: 65534
          maxConcurrentStreams: 0
          connectionConfig:
            tcpKeepalive: {keepaliveProbes: 200}
        """));
    assertThat(GlooFixtures.upstream(result, "gloo-system", "app").findings())
        .extracting(Finding::field, Finding::reason).containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("spec.initialStreamWindowSize", "InvalidUpstreamConnection"),
            org.assertj.core.groups.Tuple.tuple("spec.maxConcurrentStreams", "InvalidUpstreamConnection"),
            org.assertj.core.groups.Tuple.tuple("spec.connectionConfig.tcpKeepalive.keepaliveProbes",
                "InvalidUpstreamConnection"));
  }
}
