package io.holdfast.server;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.admin.ProxyStanding;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The meters behind the status page's verdict, so an alert can say what the banner says:
 * {@code holdfast_config_rejected_resources{api,kind}}, {@code holdfast_config_manifest_errors},
 * {@code holdfast_xds_proxies_nacking{type}}; plus {@code holdfast_build_info{version,commit}} and the JVM's and
 * process's own meters (Micrometer's binders). Build failures are counted where they are contained
 * ({@code holdfast_config_build_failures_total{stage}}, by the pipeline).
 */
final class DataPlaneMetrics implements AutoCloseable {
  /** The xDS types a proxy can NACK, by the short name the other {@code holdfast_xds_*} meters use. */
  static final List<String> TYPES = List.of("Cluster", "ClusterLoadAssignment", "Listener", "RouteConfiguration",
      "Secret");

  private final MultiGauge rejected;
  private final JvmGcMetrics gc = new JvmGcMetrics();

  /**
   * @param standing read on each scrape: which connected proxies reject the current version
   */
  DataPlaneMetrics(MeterRegistry registry, StatusBoard board, Supplier<ProxyStanding> standing) {
    rejected = MultiGauge.builder("holdfast.config.rejected.resources")
        .description("Objects of the served build that are rejected (not served), by API group and kind; 0 for the"
            + " other kinds in the build")
        .register(registry);
    // Holdfast's own kinds are always there (at 0 before the first build), so the series exist from start-up like
    // the other meters; other kinds appear with their first object.
    rejected.register(rows(holdfastKinds()));
    board.onPublish(() -> board.current().ifPresent(build -> {
      // Bounded by the kinds the front ends know: only objects of those get a verdict.
      Map<List<String>, Integer> byKind = holdfastKinds();
      build.statuses().forEach((key, status) -> byKind.merge(List.of(key.group(), key.kind()),
          status.state() == ResourceStatus.State.REJECTED ? 1 : 0, Integer::sum));
      rejected.register(rows(byKind), true);
    }));
    Gauge.builder("holdfast.config.manifest.errors", board,
            b -> b.current().map(build -> build.manifestErrors().size()).orElse(0))
        .description("Problems reading the config's manifests (unreadable files, malformed YAML); each file's last"
            + " good version is served meanwhile")
        .register(registry);
    for (String type : TYPES) {
      Gauge.builder("holdfast.xds.proxies.nacking", standing,
              s -> s.get().nackingByType().getOrDefault(type, 0))
          .description("Connected proxies whose latest answer to the current version is a NACK, by the type of that"
              + " NACK")
          .tag("type", type)
          .strongReference(true) // the supplier is a method reference nothing else holds
          .register(registry);
    }
    BuildInfo info = BuildInfo.current();
    Gauge.builder("holdfast.build.info", () -> 1)
        .description("Always 1; the labels name the running build")
        .tag("version", info.version())
        .tag("commit", info.commit())
        .register(registry);
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  /** Holdfast's kinds, each at 0, as (API group, kind). */
  private static Map<List<String>, Integer> holdfastKinds() {
    Map<List<String>, Integer> out = new TreeMap<>(java.util.Comparator.comparing(List::toString));
    Stream.of(ResourceKey.UPSTREAM, ResourceKey.VIRTUAL_SERVICE, ResourceKey.GATEWAY, ResourceKey.TCP_GATEWAY,
        ResourceKey.ROUTE_TABLE).forEach(kind -> out.put(List.of(ResourceKey.HOLDFAST_GROUP, kind), 0));
    return out;
  }

  private static List<MultiGauge.Row<?>> rows(Map<List<String>, Integer> byKind) {
    return byKind.entrySet().stream().<MultiGauge.Row<?>>map(e -> MultiGauge.Row.of(
        Tags.of("api", e.getKey().get(0), "kind", e.getKey().get(1)), e.getValue())).toList();
  }

  @Override
  public void close() {
    gc.close(); // unregisters its GC notification listeners
  }
}
