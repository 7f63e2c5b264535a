package io.holdfast.xds.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * The xDS server's meters: {@code holdfast_xds_streams} (open streams), {@code holdfast_xds_pushes_total} and
 * {@code holdfast_xds_nacks_total}, both tagged {@code type} with the resource message name (e.g. Listener).
 */
final class XdsMetrics {

  static final String STREAMS = "holdfast.xds.streams";
  static final String PUSHES = "holdfast.xds.pushes";
  static final String NACKS = "holdfast.xds.nacks";

  private final MeterRegistry registry;
  private final Map<String, Counter> pushes = new ConcurrentHashMap<>();
  private final Map<String, Counter> nacks = new ConcurrentHashMap<>();
  private Gauge streams;

  XdsMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Registers the stream gauge; {@code openStreams} must stay reachable (the server holds it). */
  void bindStreams(IntSupplier openStreams) {
    streams = Gauge.builder(STREAMS, openStreams, s -> s.getAsInt())
        .description("Open xDS streams")
        .strongReference(true)
        .register(registry);
  }

  void pushed(String typeUrl) {
    counter(pushes, PUSHES, "xDS responses sent", typeUrl).increment();
  }

  void nacked(String typeUrl) {
    counter(nacks, NACKS, "xDS responses rejected by proxies", typeUrl).increment();
  }

  /** Removes the gauge, which would otherwise keep reporting a closed server. Counters stay. */
  void close() {
    if (streams != null) {
      registry.remove(streams);
    }
  }

  private Counter counter(Map<String, Counter> cache, String name, String description, String typeUrl) {
    return cache.computeIfAbsent(typeUrl, t -> Counter.builder(name)
        .description(description)
        .tag("type", TypeUrls.shortName(t))
        .register(registry));
  }
}
