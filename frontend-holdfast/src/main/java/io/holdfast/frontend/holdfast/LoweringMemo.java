package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.RouteTable;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Listener;
import io.holdfast.ir.VirtualHost;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The IR elements of the previous lowering, by source object, so that lowering the next revision of a config
 * returns the very same instances for the objects that did not change: the translator then finds them by identity
 * (no hashing or comparing of their content) and an edit costs in proportion to what it changed. What an element
 * depends on is its key: a cluster depends on its Upstream and, for a Kubernetes Service target, that Service's
 * endpoints; a virtual host and its client listeners on the VirtualService and the accepted RouteTables (which
 * delegation may reach), compared as a whole list, so any RouteTable change re-lowers every virtual host.
 * Holds the elements of one revision only: each {@link #begin} drops what the previous revision did not reuse.
 * Not thread-safe.
 */
final class LoweringMemo {

  private Map<ResourceKey, ClusterEntry> clusters = new HashMap<>();
  private Map<ResourceKey, HostEntry> hosts = new HashMap<>();
  private List<RouteTable> tables = List.of();
  private List<RouteTable> nextTables = List.of();
  private Map<ResourceKey, ClusterEntry> nextClusters = new HashMap<>();
  private Map<ResourceKey, HostEntry> nextHosts = new HashMap<>();
  /** This revision's clusters' keys, each to the cluster's own instance (see {@link Lowering#virtualHost}). */
  private Map<ResourceKey, ResourceKey> clusterKeys = new HashMap<>();
  private boolean tablesUnchanged;
  /** The grants delegation follows this revision; a change re-lowers every virtual host, as a table change does. */
  private Consent consent;
  private Consent nextConsent;
  private int lowered;
  private final InputLimits limits;

  /** @param limits the delegation bounds lowering keeps to, whatever it is given */
  LoweringMemo(InputLimits limits) {
    this.limits = limits;
  }

  /** Starts a revision: elements asked for until {@link #end} are remembered for the next one. */
  void begin(GatewayConfig accepted, Consent revisionConsent) {
    tablesUnchanged = accepted.routeTables().equals(tables) && revisionConsent.equals(consent);
    nextConsent = revisionConsent;
    nextTables = accepted.routeTables();
    nextClusters = new HashMap<>();
    nextHosts = new HashMap<>();
    clusterKeys = new HashMap<>();
    lowered = 0;
  }

  /** Ends a revision: only what it used is kept. A revision that failed before its end leaves the memo as it was. */
  void end() {
    tables = nextTables;
    consent = nextConsent;
    clusters = nextClusters;
    hosts = nextHosts;
    nextClusters = new HashMap<>();
    nextHosts = new HashMap<>();
  }

  /** The cluster of {@code upstream}: the previous revision's instance if neither it nor its endpoints changed. */
  Cluster cluster(Upstream upstream, GatewayConfig config) {
    Object endpoints = upstream.target() instanceof UpstreamTarget.Kube kube
        ? config.endpointsOf(kube.service(upstream.metadata().namespace())) : List.of();
    ClusterEntry previous = clusters.get(upstream.key());
    ClusterEntry entry = previous != null && sameSource(previous.upstream(), upstream)
        && previous.endpoints().equals(endpoints) ? previous
        : new ClusterEntry(upstream, endpoints, lowered(Lowering.cluster(upstream, config)));
    nextClusters.put(upstream.key(), entry);
    clusterKeys.put(entry.cluster().origin().object(), entry.cluster().origin().object());
    return entry.cluster();
  }

  /**
   * The virtual host of {@code vs} and its client listeners, reused while it and the RouteTables are unchanged.
   * Call after this revision's {@link #cluster}s, whose key instances its routes then share.
   */
  HostEntry virtualHost(VirtualService vs, List<RouteTable> routeTables) {
    HostEntry previous = hosts.get(vs.key());
    HostEntry entry;
    if (previous != null && tablesUnchanged && sameSource(previous.source(), vs)) {
      entry = previous;
    } else {
      VirtualHost host = lowered(Lowering.virtualHost(vs, routeTables, clusterKeys, limits, nextConsent));
      entry = new HostEntry(vs, host, Lowering.clientListeners(vs, host));
    }
    nextHosts.put(vs.key(), entry);
    return entry;
  }

  /** How many clusters and virtual hosts the current (or latest) revision lowered anew rather than reused. */
  int lowered() {
    return lowered;
  }

  private <T> T lowered(T element) {
    lowered++;
    return element;
  }

  private static boolean sameSource(Object previous, Object current) {
    return previous == current || previous.equals(current);
  }

  private record ClusterEntry(Upstream upstream, Object endpoints, Cluster cluster) {
  }

  /** A VirtualService's virtual host and client listeners (one per gRPC domain). */
  record HostEntry(VirtualService source, VirtualHost host, List<Listener.ClientApi> clientListeners) {
  }
}
