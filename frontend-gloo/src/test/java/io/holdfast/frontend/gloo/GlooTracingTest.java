package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.TrafficReasons;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A Gloo Gateway's {@code httpConnectionManagerSettings.tracing} read as Holdfast's Gateway {@code tracing}; what has
 * no Holdfast equivalent rejects the Gateway naming the field, and a collector Upstream that does not exist is a
 * named reason at Gloo's field.
 */
class GlooTracingTest {

  private static final String COLLECTOR = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: opentelemetry-collector, namespace: default}
      spec:
        useHttp2: true
        static: {hosts: [{addr: 192.0.2.40, port: 4317}]}
      ---
      """;

  private static String gateway(String tracing) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 18080
          httpGateway:
            options:
              httpConnectionManagerSettings:
                tracing:
        %s
        """.formatted(tracing.indent(10).stripTrailing());
  }

  private static ObjectStatus status(String yaml) {
    return GlooFixtures.gateway(GlooFixtures.build(GlooFixtures.load(yaml)), "gloo-system", "gw");
  }

  private static TrafficOptions.Listener read(String yaml) {
    GlooReading reading = GlooReading.of(GlooFixtures.load(yaml));
    assertThat(reading.rejected()).as("rejected").isEmpty();
    return reading.holdfastConfig().gateways().stream().filter(g -> g.metadata().name().equals("gw")).findFirst()
        .orElseThrow().options();
  }

  private static List<Finding> errors(String yaml) {
    ObjectStatus status = status(yaml);
    assertThat(status.isAccepted()).as("%s", status.findings()).isFalse();
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  @Test
  void theCorpusCollectorWithAnAuthorityIsHoldfastsOpenTelemetryTracing() {
    String yaml = COLLECTOR + gateway("""
        openTelemetryConfig:
          collectorUpstreamRef: {name: opentelemetry-collector, namespace: default}
          grpcService: {authority: test-authority}
        """);
    assertThat(read(yaml).tracing()).contains(new TrafficOptions.Tracing(
        ObjectRef.of("default", "opentelemetry-collector"), Optional.empty(), Optional.of("test-authority"),
        Optional.empty(), Optional.empty(), Optional.empty(), false, List.of()));
    assertThat(status(yaml).isAccepted()).as("%s", status(yaml).findings()).isTrue();
  }

  @Test
  void serviceNamePercentagesVerboseAndHeaderTagsAreKept() {
    String yaml = COLLECTOR + gateway("""
        verbose: true
        requestHeadersForTags: [x-tenant]
        tracePercentages: {randomSamplePercentage: 10, overallSamplePercentage: 50.5}
        openTelemetryConfig:
          clusterName: opentelemetry-collector_default
          serviceName: edge
        """);
    assertThat(read(yaml).tracing()).contains(new TrafficOptions.Tracing(
        ObjectRef.of("default", "opentelemetry-collector"), Optional.of("edge"), Optional.empty(),
        Optional.empty(), Optional.of(10.0), Optional.of(50.5), true, List.of("x-tenant")));
  }

  @Test
  void aMissingCollectorUpstreamIsNamedAtGloosField() {
    assertThat(errors(gateway("""
        openTelemetryConfig:
          collectorUpstreamRef: {name: nowhere, namespace: default}
        """))).extracting(Finding::field, Finding::reason).contains(org.assertj.core.groups.Tuple.tuple(
            "spec.httpGateway.options.httpConnectionManagerSettings.tracing.openTelemetryConfig.collectorUpstreamRef",
            TrafficReasons.TRACING_UPSTREAM_NOT_FOUND));
  }

  @Test
  void anOutOfRangePercentageIsNamedAtGloosField() {
    assertThat(errors(COLLECTOR + gateway("""
        tracePercentages: {clientSamplePercentage: 150}
        openTelemetryConfig:
          collectorUpstreamRef: {name: opentelemetry-collector, namespace: default}
        """))).extracting(Finding::field, Finding::reason).contains(org.assertj.core.groups.Tuple.tuple(
            "spec.httpGateway.options.httpConnectionManagerSettings.tracing.tracePercentages.clientSamplePercentage",
            TrafficReasons.INVALID_TRACING));
  }

  @Test
  void providersAndTagsWithoutAHoldfastEquivalentRejectTheGatewayByField() {
    String at = "spec.httpGateway.options.httpConnectionManagerSettings.tracing";
    assertThat(errors(COLLECTOR + gateway("""
        zipkinConfig:
          collectorUpstreamRef: {name: opentelemetry-collector, namespace: default}
          collectorEndpoint: /api/v2/spans
        """))).extracting(Finding::field, Finding::reason).contains(
            org.assertj.core.groups.Tuple.tuple(at + ".zipkinConfig", GlooFeatures.UNSUPPORTED),
            org.assertj.core.groups.Tuple.tuple(at, GlooFeatures.UNSUPPORTED));
    assertThat(errors(COLLECTOR + gateway("""
        literalsForTags: [{tag: team, value: edge}]
        openTelemetryConfig:
          collectorUpstreamRef: {name: opentelemetry-collector, namespace: default}
        """))).extracting(Finding::field).contains(at + ".literalsForTags");
    assertThat(errors(COLLECTOR + gateway("""
        openTelemetryConfig:
          clusterName: bootstrap-collector
        """))).extracting(Finding::field).contains(at + ".openTelemetryConfig.clusterName");
  }
}
