package io.holdfast.it.bench.xds;

import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.controlplane.cache.v3.SimpleCache;
import io.envoyproxy.controlplane.cache.v3.Snapshot;
import io.envoyproxy.controlplane.server.V3DiscoveryServer;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.endpoint.v3.ClusterLoadAssignment;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * java-control-plane's {@link SimpleCache} behind {@link V3DiscoveryServer} on a plain grpc-netty-shaded server:
 * the peer setup. Each type gets its own content version (the careful way to use it: an unchanged type is not
 * re-sent), all nodes one group.
 */
final class SimpleCacheTarget implements XdsTarget {
  private static final String GROUP = "all";
  private final SimpleCache<String> cache = new SimpleCache<>(node -> GROUP);
  private final Server server;

  SimpleCacheTarget(XdsSnapshot initial) {
    publish(initial);
    V3DiscoveryServer discovery = new V3DiscoveryServer(cache);
    try {
      server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
          .addService(discovery.getAggregatedDiscoveryServiceImpl())
          .build()
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String label() {
    return "java-control-plane SimpleCache";
  }

  @Override
  public int port() {
    return server.getPort();
  }

  @Override
  public Map<String, String> versions(XdsSnapshot s, Set<String> types) {
    Map<String, String> versions = new TreeMap<>();
    types.forEach(t -> versions.put(t, typeVersion(s, t)));
    return versions;
  }

  private static String typeVersion(XdsSnapshot s, String type) {
    return XdsSnapshot.contentVersion(new TreeMap<>(Map.of(type, s.ofType(type))));
  }

  @Override
  public void publish(XdsSnapshot s) {
    Map<String, String> versions = new TreeMap<>();
    for (String t : List.of(Resources.V3.CLUSTER_TYPE_URL, Resources.V3.ENDPOINT_TYPE_URL,
        Resources.V3.LISTENER_TYPE_URL, Resources.V3.ROUTE_TYPE_URL)) {
      versions.put(t, typeVersion(s, t));
    }
    cache.setSnapshot(GROUP, Snapshot.create(
        of(s, Resources.V3.CLUSTER_TYPE_URL, Cluster.class), versions.get(Resources.V3.CLUSTER_TYPE_URL),
        of(s, Resources.V3.ENDPOINT_TYPE_URL, ClusterLoadAssignment.class), versions.get(Resources.V3.ENDPOINT_TYPE_URL),
        of(s, Resources.V3.LISTENER_TYPE_URL, Listener.class), versions.get(Resources.V3.LISTENER_TYPE_URL),
        of(s, Resources.V3.ROUTE_TYPE_URL, RouteConfiguration.class), versions.get(Resources.V3.ROUTE_TYPE_URL),
        List.of(), "none"));
  }

  private static <T extends Message> List<T> of(XdsSnapshot s, String type, Class<T> cls) {
    return s.ofType(type).values().stream().map(cls::cast).toList();
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
