package io.holdfast.xds.server;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code holdfast_xds_proxy_streams{node}}: this replica's open streams per proxy node id. A node whose last
 * stream closed stays at 0 for {@link #RETENTION}, so summing the series of all replicas by node reaches 0 when
 * a proxy is connected to none of them (the "proxy disconnected from every replica" alert), and only then
 * disappears: after that, or if the one replica that knew it restarts, the proxy is forgotten. Bounded at
 * {@link #MAX_NODES} series; nodes beyond are not tracked (logged once). Expired nodes are removed when a stream
 * opens or closes. Thread-safe (one lock; streams open and close rarely).
 */
final class ProxyPresence {
  static final String NAME = "holdfast.xds.proxy.streams";
  static final Duration RETENTION = Duration.ofMinutes(10);
  static final int MAX_NODES = 2_000;
  private static final Logger log = LoggerFactory.getLogger(ProxyPresence.class);

  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, Node> nodes = new LinkedHashMap<>(); // guarded by this
  private boolean overflowLogged; // guarded by this

  /** One tracked node: its open streams, and since when it has had none. */
  private static final class Node {
    volatile int streams;
    Instant idleSince;
    Gauge gauge;
  }

  ProxyPresence(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /** A stream of {@code nodeId} is open (called once per stream, when its node id is first known). */
  synchronized void opened(String nodeId) {
    expire();
    Node node = nodes.get(nodeId);
    if (node == null) {
      if (nodes.size() >= MAX_NODES) {
        if (!overflowLogged) {
          overflowLogged = true;
          log.warn("more than {} proxy node ids seen: new ones get no {} series", MAX_NODES, NAME);
        }
        return;
      }
      Node created = new Node();
      created.gauge = Gauge.builder(NAME, created, n -> n.streams)
          .description("Open xDS streams of one proxy node; 0 for a while after its last stream closed")
          .tag("node", nodeId)
          .strongReference(true)
          .register(registry);
      nodes.put(nodeId, created);
      node = created;
    }
    node.streams++;
    node.idleSince = null;
  }

  /** A stream of {@code nodeId} closed. */
  synchronized void closed(String nodeId) {
    Node node = nodes.get(nodeId);
    if (node != null && node.streams > 0 && --node.streams == 0) {
      node.idleSince = clock.instant();
    }
    expire();
  }

  /** Removes every series (the server stopped: it no longer speaks for any proxy). */
  synchronized void close() {
    nodes.values().forEach(n -> registry.remove(n.gauge));
    nodes.clear();
  }

  private void expire() {
    Instant cutoff = clock.instant().minus(RETENTION);
    for (Iterator<Node> it = nodes.values().iterator(); it.hasNext(); ) {
      Node node = it.next();
      if (node.idleSince != null && !node.idleSince.isAfter(cutoff)) {
        registry.remove(node.gauge);
        it.remove();
      }
    }
  }
}
