package io.holdfast.xds.translate;

import io.envoyproxy.controlplane.cache.Resources;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RoutePolicies;
import io.holdfast.xds.snapshot.ProxyScopes;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Collects, during one translation, what each proxy may be served ({@link ProxyScopes}): per listener, its Envoy
 * listener and route configurations, the clusters its routes and TCP chains use (mirrors included), their
 * load assignments, and the secrets of its TLS chains, of its HTTP filters (OAuth2 credentials) and of those
 * clusters; then, per proxy name, the union over
 * the listeners that name it ({@link Listener#proxyNames()}). A cluster or secret used by two proxies' listeners
 * is in both scopes; one used by none is in no scope.
 */
final class ProxyScoping {

  private static final String LISTENER = Resources.V3.LISTENER_TYPE_URL;
  private static final String ROUTE = Resources.V3.ROUTE_TYPE_URL;
  private static final String CLUSTER = Resources.V3.CLUSTER_TYPE_URL;
  private static final String ENDPOINT = Resources.V3.ENDPOINT_TYPE_URL;
  private static final String SECRET = Resources.V3.SECRET_TYPE_URL;

  /**
   * What a cluster brings into a scope: its Envoy name, whether it has a load assignment, its secrets, and the
   * clusters it needs itself (the SDS agent's, {@link SdsAgents}).
   */
  private record ClusterUse(String name, boolean eds, List<String> secrets, List<String> clusters) {
  }

  private final Map<ResourceKey, ClusterUse> clusters = new HashMap<>();
  /** Proxy name to type URL to names. */
  private final Map<String, Map<String, SortedSet<String>>> byProxy = new TreeMap<>();

  /** Notes a cluster of the IR, before the listeners that use it. */
  void cluster(Cluster cluster, String name, boolean eds) {
    List<String> secrets = cluster.tls().map(tls -> {
      List<String> names = new java.util.ArrayList<>(2);
      tls.trustedCa().ifPresent(names::add);
      tls.clientCertificate().ifPresent(names::add);
      return names;
    }).orElse(List.of());
    List<String> needed = cluster.tls().flatMap(io.holdfast.ir.UpstreamTls::sds).map(SdsAgents::clusterName)
        .map(List::of).orElse(List.of());
    clusters.put(cluster.origin().object(), new ClusterUse(name, eds, secrets, needed));
  }

  /**
   * Adds a listener to the scopes of its proxies.
   *
   * @param listenerName  its Envoy listener name
   * @param routeNames    its route configurations' names
   * @param usedClusters  the clusters its routes and TCP chains use
   */
  void listener(Listener listener, String listenerName, List<String> routeNames, Set<ResourceKey> usedClusters) {
    listener(listener, listenerName, routeNames, usedClusters, Set.of());
  }

  /**
   * Adds a listener to the scopes of its proxies, with the SDS secrets its HTTP filters name
   * ({@code usedSecrets}: OAuth2 credentials) besides those of its TLS chains and clusters.
   */
  void listener(Listener listener, String listenerName, List<String> routeNames, Set<ResourceKey> usedClusters,
      Set<String> usedSecrets) {
    if (listener.proxyNames().isEmpty()) {
      return;
    }
    Map<String, Set<String>> names = new HashMap<>();
    if (!usedSecrets.isEmpty()) {
      names.computeIfAbsent(SECRET, t -> new LinkedHashSet<>()).addAll(usedSecrets);
    }
    names.computeIfAbsent(LISTENER, t -> new LinkedHashSet<>()).add(listenerName);
    names.computeIfAbsent(ROUTE, t -> new LinkedHashSet<>()).addAll(routeNames);
    for (Listener.FilterChain chain : listener.filterChains()) {
      chain.tls().ifPresent(tls -> {
        names.computeIfAbsent(SECRET, t -> new LinkedHashSet<>()).add(tls.certificate());
        tls.clientCa().ifPresent(ca -> names.get(SECRET).add(ca));
      });
    }
    for (ResourceKey key : usedClusters) {
      ClusterUse use = clusters.get(key);
      if (use == null) {
        continue; // the IR guarantees every used cluster exists; nothing to scope if it ever did not
      }
      names.computeIfAbsent(CLUSTER, t -> new LinkedHashSet<>()).add(use.name());
      names.get(CLUSTER).addAll(use.clusters());
      if (use.eds()) {
        names.computeIfAbsent(ENDPOINT, t -> new LinkedHashSet<>()).add(use.name());
      }
      names.computeIfAbsent(SECRET, t -> new LinkedHashSet<>()).addAll(use.secrets());
    }
    for (String proxy : listener.proxyNames()) {
      Map<String, SortedSet<String>> scope = byProxy.computeIfAbsent(proxy, p -> new TreeMap<>());
      names.forEach((type, ofType) -> scope.computeIfAbsent(type, t -> new TreeSet<>()).addAll(ofType));
    }
  }

  ProxyScopes scopes() {
    Map<String, ProxyScopes.Scope> scopes = new TreeMap<>();
    byProxy.forEach((proxy, names) -> scopes.put(proxy, new ProxyScopes.Scope(new TreeMap<>(names))));
    return ProxyScopes.of(scopes);
  }

  /** The clusters {@code routes} forward or mirror to, in order of first use. */
  static Set<ResourceKey> clustersOf(List<Route> routes) {
    Set<ResourceKey> used = new LinkedHashSet<>();
    for (Route route : routes) {
      if (route.action() instanceof RouteAction.Forwarding forwarding) {
        used.addAll(forwarding.clusters());
        Optional<RoutePolicies.Mirror> mirror = forwarding.policy().mirror();
        mirror.ifPresent(m -> used.add(m.cluster()));
      }
    }
    return java.util.Collections.unmodifiableSet(used);
  }
}
