package io.holdfast.xds.translate;

import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Secret;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.Map;
import java.util.TreeMap;

/**
 * Translates the IR to Envoy v3 resources. Pure and deterministic: equal IR gives byte-identical resources and an
 * equal snapshot version. Output, named by {@code EnvoyNames}:
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
 *       its virtual host, in the flavour proxyless gRPC clients understand.</li>
 * </ul>
 * The IR is consistent by construction; a name generated twice (two IR elements whose names collide) is a
 * programming error and throws {@link IllegalArgumentException}. Stateless and thread-safe.
 */
public final class Translator {

  public Translation translate(Ir ir) {
    Output out = new Output();
    for (Cluster cluster : ir.clusters()) {
      String name = EnvoyNames.cluster(cluster.origin().object());
      out.put(Resources.V3.CLUSTER_TYPE_URL, ClusterTranslator.cluster(cluster), cluster.origin(), name);
      if (cluster.dns().isEmpty()) {
        out.put(Resources.V3.ENDPOINT_TYPE_URL, ClusterTranslator.loadAssignment(cluster), cluster.origin(), name);
      }
    }
    for (Listener listener : ir.listeners()) {
      if (listener instanceof Listener.Socket socket) {
        String name = EnvoyNames.socket(socket);
        for (Listener.FilterChain chain : socket.filterChains()) {
          if (chain instanceof Listener.FilterChain.Http http) {
            String routesName = EnvoyNames.chainRoutes(socket, chain);
            RouteConfiguration.Builder routes = RouteConfiguration.newBuilder().setName(routesName);
            http.virtualHosts().forEach(host ->
                routes.addVirtualHosts(RouteTranslator.virtualHost(host, RouteTranslator.Flavor.ENVOY)));
            // A lone chain's routes carry the listener's name and origin, as they always have.
            out.put(Resources.V3.ROUTE_TYPE_URL, routes.build(),
                routesName.equals(name) ? socket.origin() : chain.origin(), routesName);
          }
        }
        out.put(Resources.V3.LISTENER_TYPE_URL, ListenerTranslator.socket(socket), socket.origin(), name);
      } else if (listener instanceof Listener.ClientApi client) {
        out.put(Resources.V3.LISTENER_TYPE_URL, ListenerTranslator.api(client.target(), client.virtualHost()),
            client.origin(), EnvoyNames.apiListener(client.target()));
        RouteConfiguration routes = RouteConfiguration.newBuilder()
            .setName(EnvoyNames.apiRoutes(client.target()))
            .addVirtualHosts(RouteTranslator.virtualHost(client.virtualHost(), RouteTranslator.Flavor.GRPC))
            .build();
        out.put(Resources.V3.ROUTE_TYPE_URL, routes, client.origin(), EnvoyNames.apiRoutes(client.target()));
      }
    }
    for (Secret secret : ir.secrets()) {
      out.put(Resources.V3.SECRET_TYPE_URL, TlsTranslator.secret(secret), secret.origin(), secret.name());
    }
    Map<String, ResourceKey> objects = new TreeMap<>();
    out.origins.forEach((name, origin) -> objects.put(name, origin.object()));
    return new Translation(XdsSnapshot.of(out.resources), objects, out.origins);
  }

  /** Accumulates resources by type and name, refusing duplicates. */
  private static final class Output {
    final Map<String, Map<String, Message>> resources = new TreeMap<>();
    final Map<String, Origin> origins = new TreeMap<>();

    void put(String typeUrl, Message resource, Origin origin, String name) {
      Message previous = resources.computeIfAbsent(typeUrl, t -> new TreeMap<>()).putIfAbsent(name, resource);
      if (previous != null) {
        throw new IllegalArgumentException("Envoy resource " + name + " of " + typeUrl
            + " generated twice (from " + origins.get(name) + " and " + origin + ")");
      }
      Origin other = origins.putIfAbsent(name, origin);
      if (other != null && !other.equals(origin)) {
        throw new IllegalArgumentException("Envoy name " + name + " claimed by " + other + " and " + origin);
      }
    }
  }
}
