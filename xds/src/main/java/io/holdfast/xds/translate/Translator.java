package io.holdfast.xds.translate;

import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.holdfast.xds.model.Gateway;
import io.holdfast.xds.model.GatewayConfig;
import io.holdfast.xds.model.ObjectRef;
import io.holdfast.xds.model.ResourceKey;
import io.holdfast.xds.model.Upstream;
import io.holdfast.xds.model.VirtualService;
import io.holdfast.xds.model.VirtualServiceSelection;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Translates an accepted (validated) config to Envoy v3 resources. Pure and deterministic: equal input gives
 * byte-identical resources and an equal snapshot version. Output, named by {@link EnvoyNames}:
 * <ul>
 *   <li>per Upstream: an EDS Cluster (over ADS) and its ClusterLoadAssignment;</li>
 *   <li>per Gateway: a Listener on bindAddress:port whose HttpConnectionManager fetches its RouteConfiguration
 *       over ADS, and that RouteConfiguration, one virtual host per served VirtualService in key order;</li>
 *   <li>per non-wildcard VirtualService domain: an {@code api_listener} Listener named by the domain and its
 *       RouteConfiguration with that VirtualService's routes for that domain, for proxyless gRPC clients.</li>
 * </ul>
 * The input must come from {@code Validator} ({@code ValidationResult.accepted()}): a reference to a missing
 * resource or a name generated twice is a programming error and throws {@link IllegalArgumentException}.
 * Stateless and thread-safe.
 */
public final class Translator {

  public Translation translate(GatewayConfig accepted) {
    Output out = new Output();
    for (Upstream upstream : accepted.upstreams()) {
      out.put(Resources.V3.CLUSTER_TYPE_URL, ClusterTranslator.cluster(upstream), upstream.key(),
          EnvoyNames.cluster(upstream.key()));
      out.put(Resources.V3.ENDPOINT_TYPE_URL, ClusterTranslator.loadAssignment(upstream, accepted),
          upstream.key(), EnvoyNames.cluster(upstream.key()));
    }
    Map<ResourceKey, VirtualService> byKey = new HashMap<>();
    Map<ResourceKey, VirtualHost> envoyHosts = new HashMap<>();
    for (VirtualService vs : accepted.virtualServices()) {
      byKey.put(vs.key(), vs);
      envoyHosts.put(vs.key(), RouteTranslator.virtualHost(vs, RouteTranslator.Flavor.ENVOY));
      VirtualHost grpcHost = RouteTranslator.virtualHost(vs, RouteTranslator.Flavor.GRPC);
      for (String domain : vs.grpcDomains()) {
        out.put(Resources.V3.LISTENER_TYPE_URL, ListenerTranslator.api(domain), vs.key(),
            EnvoyNames.apiListener(domain));
        RouteConfiguration routes = RouteConfiguration.newBuilder()
            .setName(EnvoyNames.apiRoutes(domain))
            .addVirtualHosts(grpcHost.toBuilder().clearDomains().addDomains(domain))
            .build();
        out.put(Resources.V3.ROUTE_TYPE_URL, routes, vs.key(), EnvoyNames.apiRoutes(domain));
      }
    }
    for (Gateway gateway : accepted.gateways()) {
      RouteConfiguration.Builder routes = RouteConfiguration.newBuilder()
          .setName(EnvoyNames.gatewayRoutes(gateway.key()));
      served(gateway, accepted, byKey).forEach(key -> routes.addVirtualHosts(envoyHosts.get(key)));
      out.put(Resources.V3.ROUTE_TYPE_URL, routes.build(), gateway.key(), EnvoyNames.gatewayRoutes(gateway.key()));
      out.put(Resources.V3.LISTENER_TYPE_URL, ListenerTranslator.gateway(gateway), gateway.key(),
          EnvoyNames.gatewayListener(gateway.key()));
    }
    return new Translation(XdsSnapshot.of(out.resources), out.origins);
  }

  /** The VirtualServices a gateway serves, in key order. */
  private static List<ResourceKey> served(Gateway gateway, GatewayConfig accepted,
      Map<ResourceKey, VirtualService> byKey) {
    String namespace = gateway.metadata().namespace();
    List<ResourceKey> keys = new ArrayList<>();
    if (gateway.selection() instanceof VirtualServiceSelection.Named named) {
      for (ObjectRef ref : named.refs()) {
        ResourceKey key = ref.resolve(ResourceKey.VIRTUAL_SERVICE, namespace);
        if (!byKey.containsKey(key)) {
          throw new IllegalArgumentException(gateway.key() + " references " + key
              + ", which is not in the accepted config; translate only Validator output");
        }
        if (!keys.contains(key)) {
          keys.add(key);
        }
      }
    } else {
      accepted.virtualServices().stream().filter(vs -> gateway.selection().selects(namespace, vs))
          .forEach(vs -> keys.add(vs.key()));
    }
    keys.sort(null);
    return keys;
  }

  /** Accumulates resources by type and name, refusing duplicates. */
  private static final class Output {
    final Map<String, Map<String, Message>> resources = new TreeMap<>();
    final Map<String, ResourceKey> origins = new TreeMap<>();

    void put(String typeUrl, Message resource, ResourceKey origin, String name) {
      Message previous = resources.computeIfAbsent(typeUrl, t -> new TreeMap<>()).putIfAbsent(name, resource);
      if (previous != null) {
        throw new IllegalArgumentException("Envoy resource " + name + " of " + typeUrl
            + " generated twice (from " + origins.get(name) + " and " + origin + "); translate only Validator output");
      }
      ResourceKey other = origins.putIfAbsent(name, origin);
      if (other != null && !other.equals(origin)) {
        throw new IllegalArgumentException("Envoy name " + name + " claimed by " + other + " and " + origin);
      }
    }
  }
}
