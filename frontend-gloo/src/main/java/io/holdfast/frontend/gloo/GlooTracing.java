package io.holdfast.frontend.gloo;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.TrafficOptions;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo's {@code httpConnectionManagerSettings.tracing} (its tracing plugin) as Holdfast's Gateway {@code tracing}:
 * an {@code openTelemetryConfig} collector (an Upstream by {@code collectorUpstreamRef}, or a static cluster named as
 * a Gloo Upstream's {@code <name>_<namespace>}), its {@code serviceName} and {@code grpcService.authority};
 * {@code verbose}; {@code tracePercentages} (each 100 when unset, as Gloo writes them); and
 * {@code requestHeadersForTags} (each header a tag of its own name). Zipkin, Datadog and OpenCensus providers and
 * environment or literal tags have no Holdfast equivalent and reject the Gateway naming the field.
 */
final class GlooTracing {

  private static final Set<String> TRACING = Set.of("openTelemetryConfig", "verbose", "tracePercentages",
      "requestHeadersForTags");
  private static final Set<String> OTEL = Set.of("collectorUpstreamRef", "clusterName", "serviceName",
      "grpcService");
  private static final Set<String> GRPC_SERVICE = Set.of("authority");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> PERCENTAGES = Set.of("clientSamplePercentage", "randomSamplePercentage",
      "overallSamplePercentage");

  private GlooTracing() {
  }

  /** The tracing of {@code hcm} ({@code httpConnectionManagerSettings}); empty when absent or unreadable. */
  static Optional<TrafficOptions.Tracing> read(Node hcm) {
    if (!hcm.has("tracing")) {
      return Optional.empty();
    }
    Node tracing = hcm.child("tracing").only("tracing", TRACING);
    if (!tracing.has("openTelemetryConfig")) {
      tracing.error(tracing.path, GlooFeatures.UNSUPPORTED, "tracing without openTelemetryConfig is not supported"
          + " by Holdfast, whose tracing sends spans to an OpenTelemetry collector; the Gateway is rejected rather"
          + " than served without its tracing");
      return Optional.empty();
    }
    Node otel = tracing.child("openTelemetryConfig").only("openTelemetryConfig", OTEL);
    Optional<ObjectRef> collector = collector(otel);
    Node grpc = otel.child("grpcService").only("grpcService", GRPC_SERVICE);
    Node percentages = tracing.child("tracePercentages").only("tracePercentages", PERCENTAGES);
    return collector.map(upstream -> new TrafficOptions.Tracing(upstream, otel.string("serviceName"),
        grpc.string("authority"), percentages.number("clientSamplePercentage"),
        percentages.number("randomSamplePercentage"), percentages.number("overallSamplePercentage"),
        tracing.bool("verbose").orElse(false), tracing.strings("requestHeadersForTags")));
  }

  private static Optional<ObjectRef> collector(Node otel) {
    if (otel.has("collectorUpstreamRef") == otel.has("clusterName")) {
      otel.error(otel.path, otel.has("clusterName") ? io.holdfast.api.Reasons.CONFLICTING_FIELDS
          : io.holdfast.api.Reasons.MISSING_FIELD, "openTelemetryConfig has one of collectorUpstreamRef,"
          + " clusterName");
      return Optional.empty();
    }
    if (otel.has("clusterName")) {
      Optional<ObjectRef> upstream = otel.string("clusterName").flatMap(GlooListenerOptions::upstreamOfCluster);
      if (upstream.isEmpty()) {
        otel.error(otel.at("clusterName"), GlooFeatures.UNSUPPORTED, "a clusterName other than a Gloo Upstream's"
            + " (<name>_<namespace>) names a cluster of Gloo's bootstrap, which Holdfast's proxies do not have;"
            + " name the collector's Upstream in collectorUpstreamRef");
      }
      return upstream;
    }
    Node ref = otel.child("collectorUpstreamRef").only("collectorUpstreamRef", REF);
    return ref.requiredString("name").map(name -> new ObjectRef(name, ref.string("namespace")));
  }
}
