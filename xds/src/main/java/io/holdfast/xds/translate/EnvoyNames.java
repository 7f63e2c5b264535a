package io.holdfast.xds.translate;

import io.holdfast.xds.model.ResourceKey;

/**
 * Names of the Envoy resources Holdfast generates. They are unique across all types except where two resources
 * of one origin share a name (a cluster and its load assignment; a listener and its route configuration), so a
 * name alone identifies the Holdfast resource it came from.
 * <ul>
 *   <li>Upstream {@code ns/name}: Cluster and ClusterLoadAssignment {@code ns/name}.</li>
 *   <li>Gateway {@code ns/name}: Listener and RouteConfiguration {@code gateway/ns/name}.</li>
 *   <li>VirtualService domain {@code d} (not a wildcard): API Listener and RouteConfiguration {@code d}, the name
 *       grpc-java asks for when a channel targets {@code xds:///d}.</li>
 *   <li>Virtual host of VirtualService {@code ns/name}: {@code ns/name}; its route {@code i}: the route's name,
 *       else {@code routes[i]}.</li>
 * </ul>
 * Kubernetes names contain no {@code /} and domains none at all, so the three forms cannot collide.
 */
public final class EnvoyNames {

  private EnvoyNames() {
  }

  public static String cluster(ResourceKey upstream) {
    return upstream.namespace() + "/" + upstream.name();
  }

  public static String gatewayListener(ResourceKey gateway) {
    return "gateway/" + gateway.namespace() + "/" + gateway.name();
  }

  public static String gatewayRoutes(ResourceKey gateway) {
    return gatewayListener(gateway);
  }

  public static String apiListener(String domain) {
    return domain;
  }

  public static String apiRoutes(String domain) {
    return domain;
  }

  public static String virtualHost(ResourceKey virtualService) {
    return virtualService.namespace() + "/" + virtualService.name();
  }
}
