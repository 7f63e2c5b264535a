package io.holdfast.xds.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * The xDS server's meters: {@code holdfast_xds_streams} (open streams), {@code holdfast_xds_pushes_total} and
 * {@code holdfast_xds_nacks_total}, both tagged {@code type} with the resource message name (e.g. Listener),
 * registered at 0 for every type the server sends; {@code holdfast_xds_refused_streams_total{reason}}, streams
 * closed for exceeding a limit or for want of a proxy identity ({@link Refusal}), registered at 0 for every
 * reason; {@code holdfast_xds_refused_resources_total{type}}, resource names a stream asked for that exist but
 * are outside its proxy's scope (answered as absent), registered at 0 for every type; and
 * {@code holdfast_xds_proxy_streams{node}} ({@link ProxyPresence}).
 */
final class XdsMetrics {

  static final String STREAMS = "holdfast.xds.streams";
  static final String PUSHES = "holdfast.xds.pushes";
  static final String NACKS = "holdfast.xds.nacks";
  private static final String PUSHES_HELP = "xDS responses sent";
  private static final String NACKS_HELP = "xDS responses rejected by proxies";
  static final String REFUSED = "holdfast.xds.refused.streams";
  static final String REFUSED_RESOURCES = "holdfast.xds.refused.resources";
  private static final String REFUSED_RESOURCES_HELP =
      "xDS resource names asked for outside the asking proxy's scope, answered as absent";

  private final MeterRegistry registry;
  private final Map<String, Counter> pushes = new ConcurrentHashMap<>();
  private final Map<String, Counter> nacks = new ConcurrentHashMap<>();
  private final Map<String, Counter> refusedResources = new ConcurrentHashMap<>();
  private final Map<Refusal, Counter> refused = new java.util.EnumMap<>(Refusal.class);
  private Gauge streams;
  private ProxyPresence presence;

  XdsMetrics(MeterRegistry registry) {
    this.registry = registry;
    // Every type this server sends counts from 0 at start: a rate() or an alert needs no absent() for the
    // time before the first push or NACK.
    for (String typeUrl : TypeUrls.SENT) {
      counter(pushes, PUSHES, PUSHES_HELP, typeUrl);
      counter(nacks, NACKS, NACKS_HELP, typeUrl);
      counter(refusedResources, REFUSED_RESOURCES, REFUSED_RESOURCES_HELP, typeUrl);
    }
    for (Refusal reason : Refusal.values()) {
      refused.put(reason, Counter.builder(REFUSED)
          .description("xDS streams closed for exceeding a limit or for want of a proxy identity")
          .tag("reason", reason.label())
          .register(registry));
    }
  }

  void refused(Refusal reason) {
    refused.get(reason).increment();
  }

  /** Registers the stream gauge; {@code openStreams} must stay reachable (the server holds it). */
  void bindStreams(IntSupplier openStreams) {
    streams = Gauge.builder(STREAMS, openStreams, s -> s.getAsInt())
        .description("Open xDS streams")
        .strongReference(true)
        .register(registry);
  }

  void pushed(String typeUrl) {
    counter(pushes, PUSHES, PUSHES_HELP, typeUrl).increment();
  }

  /** {@code count} names of {@code typeUrl} were asked for outside the asking proxy's scope. */
  void refusedResources(String typeUrl, int count) {
    if (count > 0 && TypeUrls.SENT.contains(typeUrl)) {
      counter(refusedResources, REFUSED_RESOURCES, REFUSED_RESOURCES_HELP, typeUrl).increment(count);
    }
  }

  void nacked(String typeUrl) {
    counter(nacks, NACKS, NACKS_HELP, typeUrl).increment();
  }

  /** The per-node stream gauges ({@link ProxyPresence}), created once. */
  synchronized ProxyPresence proxyPresence(java.time.Clock clock) {
    if (presence == null) {
      presence = new ProxyPresence(registry, clock);
    }
    return presence;
  }

  /** Removes the gauges, which would otherwise keep reporting a closed server. Counters stay. */
  void close() {
    if (streams != null) {
      registry.remove(streams);
    }
    if (presence != null) {
      presence.close();
    }
  }

  private Counter counter(Map<String, Counter> cache, String name, String description, String typeUrl) {
    return cache.computeIfAbsent(typeUrl, t -> Counter.builder(name)
        .description(description)
        .tag("type", TypeUrls.shortName(t))
        .register(registry));
  }
}
