package io.holdfast.xds.translate;

import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Secret;
import io.holdfast.xds.snapshot.ProxyScopes;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Translates the IR to Envoy v3 resources. Deterministic: equal IR gives byte-identical resources and an equal
 * snapshot version. Output, named by {@code EnvoyNames}:
 * <ul>
 *   <li>per cluster: an EDS Cluster (over ADS) and its ClusterLoadAssignment, or a DNS Cluster with its
 *       endpoints inline;</li>
 *   <li>per socket listener: a Listener on address:port whose HttpConnectionManager fetches its
 *       RouteConfiguration over ADS, and that RouteConfiguration with the listener's virtual hosts in order (no
 *       RouteConfiguration when the listener has only TCP chains, which {@code tcp_proxy} its clusters);</li>
 *   <li>per HTTPS socket listener: one filter chain and RouteConfiguration per IR chain, TLS terminated with
 *       certificates named as SDS secrets;</li>
 *   <li>per IR secret: an SDS {@code Secret} (certificate and key, or a trusted CA), fetched over ADS;</li>
 *   <li>per client listener: an {@code api_listener} Listener named by its target and its RouteConfiguration with
 *       its virtual host, in the flavour proxyless gRPC clients understand;</li>
 *   <li>per socket listener served to proxyless gRPC servers: the Listener and RouteConfiguration they accept
 *       ({@link GrpcServerListeners}).</li>
 * </ul>
 * The IR is consistent by construction; a name generated twice (two IR elements whose names collide) is a
 * programming error and throws {@link IllegalArgumentException}.
 *
 * <p>Incremental: the translator remembers, for the IR elements of its latest translation only (so memory stays
 * that of one build), the Envoy message each became with its digest (see {@link XdsSnapshot#digest}), and reuses
 * them for equal elements of the next IR. IR elements are records, so "equal" is value equality; an element
 * that is the very same instance as last time is found without comparing its content, which is what keeps the
 * cost of an edit proportional to the edit when the IR shares its unchanged elements (as
 * {@code HoldfastFrontEnd.lowerIncrementally} gives it); the first translation indexes nothing by value, so the
 * second finds its elements by identity only. A route configuration is re-assembled from its virtual hosts'
 * remembered messages, its digest a hash tree over theirs ({@link XdsSnapshot#routeConfigurationDigest}), a
 * listener's HTTP filters come from its virtual hosts' remembered facts, and the snapshot version is computed
 * from the per-resource digests ({@link XdsSnapshot#versionOfDigests}), so an unchanged resource is never
 * serialised or hashed again. The output is exactly that of a fresh translator. One translation at a time ({@code translate} is
 * synchronized); create one translator per config history.
 */
public final class Translator {

  /** Results remembered from the latest translation; null before the first. */
  private Memo last;

  public synchronized Translation translate(Ir ir) {
    // The first build has nothing to reuse, so it indexes nothing by value (hashing every IR element would cost a
    // full build about a tenth); the second finds the first's elements by identity only.
    Memo memo = new Memo(last != null);
    Memo last = this.last != null ? this.last : new Memo(false);
    Output out = new Output();
    ProxyScoping scoping = new ProxyScoping();
    Set<String> sdsAgents = new java.util.HashSet<>();
    for (Cluster cluster : ir.clusters()) {
      ClusterEntry entry = memo.clusters.get(last.clusters, cluster, Translator::cluster);
      out.put(Resources.V3.CLUSTER_TYPE_URL, entry.cluster(), cluster.origin(), entry.name());
      if (entry.loadAssignment() != null) {
        out.put(Resources.V3.ENDPOINT_TYPE_URL, entry.loadAssignment(), cluster.origin(), entry.name());
      }
      scoping.cluster(cluster, entry.name(), entry.loadAssignment() != null);
      // One cluster per SDS agent address, however many clusters fetch their secrets there.
      cluster.tls().flatMap(io.holdfast.ir.UpstreamTls::sds).filter(sds -> sdsAgents.add(SdsAgents.clusterName(sds)))
          .ifPresent(sds -> out.put(Resources.V3.CLUSTER_TYPE_URL, Built.of(SdsAgents.cluster(sds)), cluster.origin(),
              SdsAgents.clusterName(sds)));
    }
    for (Listener listener : ir.listeners()) {
      List<String> routeNames = new ArrayList<>();
      Set<ResourceKey> usedClusters = new LinkedHashSet<>();
      Set<String> usedSecrets = new LinkedHashSet<>();
      if (listener instanceof Listener.Socket socket && socket.dataPlane() == Listener.DataPlane.GRPC_SERVER) {
        // A gRPC server handles its calls itself: no clusters, only its listener and routes.
        String name = EnvoyNames.socket(socket);
        for (Listener.FilterChain chain : socket.filterChains()) {
          String routesName = EnvoyNames.chainRoutes(socket, chain);
          List<Built> hosts = chain instanceof Listener.FilterChain.Http http ? http.virtualHosts().stream()
              .map(host -> memo.grpcServerHosts.get(last.grpcServerHosts, host,
                  h -> Built.of(GrpcServerListeners.virtualHost(h))))
              .toList() : List.of();
          out.put(Resources.V3.ROUTE_TYPE_URL, memo.routes.get(last.routes,
                  new RoutesKey(routesName, hosts, List.of()), Translator::routes),
              routesName.equals(name) ? socket.origin() : chain.origin(), routesName);
          routeNames.add(routesName);
        }
        out.put(Resources.V3.LISTENER_TYPE_URL, Built.of(GrpcServerListeners.listener(socket)), socket.origin(),
            name);
        scoping.listener(socket, name, routeNames, usedClusters);
      } else if (listener instanceof Listener.Socket socket) {
        String name = EnvoyNames.socket(socket);
        // Each HTTP chain's filters, from its virtual hosts' remembered facts rather than a scan of every route.
        Map<Listener.FilterChain.Http, List<HttpFilter>> filters = new IdentityHashMap<>();
        for (Listener.FilterChain chain : socket.filterChains()) {
          if (chain instanceof Listener.FilterChain.Http http) {
            String routesName = EnvoyNames.chainRoutes(socket, chain);
            List<Built> hosts = new ArrayList<>(http.virtualHosts().size());
            boolean cors = false;
            boolean faults = false;
            TrafficFilters.Usage traffic = TrafficFilters.Usage.NONE;
            for (io.holdfast.ir.VirtualHost host : http.virtualHosts()) {
              HostEntry entry = memo.envoyHosts.get(last.envoyHosts, host, Translator::envoyHost);
              hosts.add(entry.built());
              usedClusters.addAll(entry.clusters());
              cors |= entry.cors();
              faults |= entry.faults();
              traffic = traffic.and(entry.traffic());
            }
            filters.put(http, HttpFilters.beforeRouter(cors, SecurityFilters.filters(http), faults, traffic,
                http.options()));
            // JWKS, authorisation, access log and rate-limit services: the proxy needs their clusters too.
            usedClusters.addAll(SecurityFilters.clusters(http));
            // Credentials the security filters name over SDS: only this listener's proxies may fetch them.
            usedSecrets.addAll(SecurityFilters.secrets(http));
            http.options().clusters().forEach(key -> usedClusters.add(key));
            Built routes = memo.routes.get(last.routes, new RoutesKey(routesName, hosts,
                ConnectionOptions.responseHeadersToRemove(http.options())), Translator::routes);
            // A lone chain's routes carry the listener's name and origin, as they always have.
            out.put(Resources.V3.ROUTE_TYPE_URL, routes, routesName.equals(name) ? socket.origin() : chain.origin(),
                routesName);
            routeNames.add(routesName);
          } else if (chain instanceof Listener.FilterChain.Tcp tcp) {
            tcp.clusters().forEach(target -> usedClusters.add(target.cluster()));
          }
        }
        // Rebuilt every time: there are few, and remembering one would mean comparing all its routes.
        out.put(Resources.V3.LISTENER_TYPE_URL, Built.of(ListenerTranslator.socket(socket, filters::get)),
            socket.origin(), name);
        scoping.listener(socket, name, routeNames, usedClusters, usedSecrets);
      } else if (listener instanceof Listener.ClientApi client) {
        Built host = memo.grpcHosts.get(last.grpcHosts, client.virtualHost(),
            h -> Built.of(RouteTranslator.virtualHost(h, RouteTranslator.Flavor.GRPC)));
        // The listener depends on the target and on the virtual host only, and equal hosts share one Built.
        out.put(Resources.V3.LISTENER_TYPE_URL, memo.apiListeners.get(last.apiListeners,
                new ApiKey(client.target(), host, client.virtualHost()),
                k -> Built.of(ListenerTranslator.api(k.target(), k.irHost()))),
            client.origin(), EnvoyNames.apiListener(client.target()));
        String routesName = EnvoyNames.apiRoutes(client.target());
        out.put(Resources.V3.ROUTE_TYPE_URL, memo.routes.get(last.routes, new RoutesKey(routesName, List.of(host), List.of()),
            Translator::routes), client.origin(), routesName);
        usedClusters.addAll(memo.clientClusters.get(last.clientClusters, client.virtualHost(),
            h -> ProxyScoping.clustersOf(h.routes())));
        scoping.listener(client, EnvoyNames.apiListener(client.target()), List.of(routesName), usedClusters);
      }
    }
    for (Secret secret : ir.secrets()) {
      out.put(Resources.V3.SECRET_TYPE_URL, memo.secrets.get(last.secrets, secret,
          s -> Built.of(TlsTranslator.secret(s))), secret.origin(), secret.name());
    }
    Translation translation = out.translation(scoping.scopes());
    this.last = memo; // only after success: a failed translation keeps the previous memory
    return translation;
  }

  private static ClusterEntry cluster(Cluster cluster) {
    String name = EnvoyNames.cluster(cluster.origin().object());
    return new ClusterEntry(name, Built.of(ClusterTranslator.cluster(cluster)),
        cluster.dns().isEmpty() ? Built.of(ClusterTranslator.loadAssignment(cluster)) : null);
  }

  private static HostEntry envoyHost(io.holdfast.ir.VirtualHost host) {
    return new HostEntry(Built.of(RouteTranslator.virtualHost(host, RouteTranslator.Flavor.ENVOY)),
        HttpFilters.usesCors(host), HttpFilters.injectsFaults(host), TrafficFilters.Usage.of(host),
        ProxyScoping.clustersOf(host.routes()));
  }

  /**
   * A RouteConfiguration of a name and virtual hosts, with its digest ({@link XdsSnapshot#routeConfigurationDigest})
   * from the hosts' remembered digests: an edit of one host hashes that host only.
   */
  private static Built routes(RoutesKey key) {
    RouteConfiguration.Builder routes = RouteConfiguration.newBuilder().setName(key.name())
        .addAllResponseHeadersToRemove(key.responseHeadersToRemove());
    List<byte[]> digests = new ArrayList<>(key.hosts().size());
    for (Built host : key.hosts()) {
      routes.addVirtualHosts((VirtualHost) host.message());
      digests.add(host.digest);
    }
    return new Built(routes.build(), XdsSnapshot.routeConfigurationDigest(
        RouteConfiguration.newBuilder().setName(key.name())
            .addAllResponseHeadersToRemove(key.responseHeadersToRemove()).build(), digests));
  }

  /**
   * An Envoy message with its digest ({@link XdsSnapshot#digest}). Compared by identity: equal IR elements map to
   * the same instance within a translator.
   */
  private static final class Built {
    private final Message message;
    private final byte[] digest;

    Built(Message message, byte[] digest) {
      this.message = message;
      this.digest = digest;
    }

    /** Not for RouteConfigurations, whose digest is a hash tree: see {@link #routes}. */
    static Built of(Message message) {
      return new Built(message, XdsSnapshot.sha256().digest(XdsSnapshot.serialize(message)));
    }

    Message message() {
      return message;
    }
  }

  /**
   * An Envoy virtual host and the facts about its routes the listener's HTTP filters and the proxies' scopes
   * depend on (the clusters its routes use), so a listener is rebuilt from its hosts' facts without reading their
   * routes.
   */
  private record HostEntry(Built built, boolean cors, boolean faults, TrafficFilters.Usage traffic,
      Set<ResourceKey> clusters) {
  }

  /** A cluster and, for EDS, its load assignment (null for DNS clusters, whose endpoints are inline). */
  private record ClusterEntry(String name, Built cluster, Built loadAssignment) {
  }

  /** An API listener by target and its virtual host ({@code irHost} is what {@code host} was built from). */
  private record ApiKey(String target, Built host, io.holdfast.ir.VirtualHost irHost) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ApiKey other && target.equals(other.target) && host == other.host;
    }

    @Override
    public int hashCode() {
      return target.hashCode() * 31 + System.identityHashCode(host);
    }
  }

  /**
   * A route configuration by name, its virtual hosts ({@link Built} compares by identity, so this is cheap) and the
   * response headers it removes ({@link ConnectionOptions#responseHeadersToRemove}).
   */
  private record RoutesKey(String name, List<Built> hosts, List<String> responseHeadersToRemove) {
  }

  /** What one translation built, by IR element. */
  private static final class Memo {
    final Cache<Cluster, ClusterEntry> clusters;
    final Cache<io.holdfast.ir.VirtualHost, HostEntry> envoyHosts;
    final Cache<io.holdfast.ir.VirtualHost, Built> grpcHosts;
    final Cache<io.holdfast.ir.VirtualHost, Built> grpcServerHosts;
    final Cache<RoutesKey, Built> routes;
    final Cache<ApiKey, Built> apiListeners;
    final Cache<Secret, Built> secrets;
    final Cache<io.holdfast.ir.VirtualHost, Set<ResourceKey>> clientClusters;

    /** @param byValue whether elements are also indexed by value, for the next build to find equal copies */
    Memo(boolean byValue) {
      clusters = new Cache<>(byValue);
      envoyHosts = new Cache<>(byValue);
      grpcHosts = new Cache<>(byValue);
      grpcServerHosts = new Cache<>(byValue);
      routes = new Cache<>(byValue);
      apiListeners = new Cache<>(byValue);
      secrets = new Cache<>(byValue);
      clientClusters = new Cache<>(byValue);
    }
  }

  /**
   * Values by key, looked up first by identity (an unchanged IR element passed on as the same instance costs no
   * comparison) and then by value, if indexed by value.
   */
  private static final class Cache<K, V> {
    private final Map<K, V> byIdentity = new IdentityHashMap<>();
    private final boolean indexed;
    private final Map<K, V> byValue = new HashMap<>();

    Cache(boolean indexByValue) {
      indexed = indexByValue;
    }

    /** This build's value for {@code key}: this build's, else the previous build's, else newly built. */
    V get(Cache<K, V> previous, K key, Function<K, V> build) {
      V value = byIdentity.get(key);
      if (value != null) {
        return value;
      }
      value = previous.byIdentity.get(key);
      if (value != null) {
        // Remembered by identity only: hashing it by value would cost the comparison this lookup avoided. A later
        // build that passes an equal copy instead of this instance rebuilds it (same output, more work).
        byIdentity.put(key, value);
        return value;
      }
      if (indexed) {
        value = byValue.get(key);
        if (value == null && previous.indexed) {
          value = previous.byValue.get(key);
        }
      }
      if (value == null) {
        value = build.apply(key);
      }
      byIdentity.put(key, value);
      if (indexed) {
        byValue.putIfAbsent(key, value);
      }
      return value;
    }
  }

  /**
   * Accumulates resources by type and name, refusing duplicates. Hash maps while collecting, sorted once at the end
   * (the names mostly arrive in order, so sorting is about linear) and handed to sorted maps in linear time:
   * inserting thousands of names into sorted maps one by one was a third of an incremental build.
   */
  private static final class Output {
    private final Map<String, Map<String, Built>> resources = new HashMap<>();
    private final Map<String, Origin> origins = new HashMap<>();

    void put(String typeUrl, Built built, Origin origin, String name) {
      Built previous = resources.computeIfAbsent(typeUrl, t -> new HashMap<>()).putIfAbsent(name, built);
      if (previous != null) {
        throw new IllegalArgumentException("Envoy resource " + name + " of " + typeUrl
            + " generated twice (from " + origins.get(name) + " and " + origin + ")");
      }
      Origin other = origins.putIfAbsent(name, origin);
      if (other != null && !other.equals(origin)) {
        throw new IllegalArgumentException("Envoy name " + name + " claimed by " + other + " and " + origin);
      }
    }

    Translation translation(ProxyScopes scopes) {
      SortedMap<String, SortedMap<String, Message>> messages = new TreeMap<>();
      SortedMap<String, SortedMap<String, byte[]>> digests = new TreeMap<>();
      resources.forEach((type, byName) -> {
        List<Map.Entry<String, Built>> sorted = sortedByKey(byName);
        messages.put(type, Sorted.of(sorted, built -> built.message));
        digests.put(type, Sorted.of(sorted, built -> built.digest));
      });
      List<Map.Entry<String, Origin>> sortedOrigins = sortedByKey(origins);
      String version = XdsSnapshot.scopedVersion(XdsSnapshot.versionOfDigests(digests), scopes);
      return new Translation(new XdsSnapshot(version, messages, scopes),
          Sorted.of(sortedOrigins, Origin::object), Sorted.of(sortedOrigins, origin -> origin));
    }

    private static <V> List<Map.Entry<String, V>> sortedByKey(Map<String, V> map) {
      List<Map.Entry<String, V>> entries = new ArrayList<>(map.entrySet());
      entries.sort(Map.Entry.comparingByKey());
      return entries;
    }
  }

  /**
   * Entries already sorted by key, as a sorted map that only passes them on: a {@link TreeMap} built from a
   * {@link SortedMap} takes its entries in order in linear time, one by one it takes O(n log n) comparisons.
   * Read-only; views by range are not supported (nothing but the copy reads it).
   */
  private static final class Sorted<V> extends AbstractMap<String, V> implements SortedMap<String, V> {
    private final List<Map.Entry<String, V>> entries;

    private Sorted(List<Map.Entry<String, V>> entries) {
      this.entries = entries;
    }

    /** A sorted map of {@code sorted}'s keys, in its order, to their values mapped by {@code value}. */
    static <T, V> SortedMap<String, V> of(List<Map.Entry<String, T>> sorted, Function<T, V> value) {
      List<Map.Entry<String, V>> mapped = new ArrayList<>(sorted.size());
      sorted.forEach(entry -> mapped.add(Map.entry(entry.getKey(), value.apply(entry.getValue()))));
      return new TreeMap<>(new Sorted<>(mapped));
    }

    @Override
    public Set<Map.Entry<String, V>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<String, V>> iterator() {
          return Collections.unmodifiableList(entries).iterator();
        }

        @Override
        public int size() {
          return entries.size();
        }
      };
    }

    @Override
    public Comparator<? super String> comparator() {
      return null; // natural order, as TreeMap's default
    }

    @Override
    public String firstKey() {
      return entries.get(0).getKey();
    }

    @Override
    public String lastKey() {
      return entries.get(entries.size() - 1).getKey();
    }

    @Override
    public SortedMap<String, V> subMap(String fromKey, String toKey) {
      throw new UnsupportedOperationException("only copied");
    }

    @Override
    public SortedMap<String, V> headMap(String toKey) {
      throw new UnsupportedOperationException("only copied");
    }

    @Override
    public SortedMap<String, V> tailMap(String fromKey) {
      throw new UnsupportedOperationException("only copied");
    }
  }
}
