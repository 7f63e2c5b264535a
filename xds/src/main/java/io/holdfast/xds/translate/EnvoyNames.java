package io.holdfast.xds.translate;

import io.holdfast.api.ResourceKey;

/**
 * Names of the Envoy resources Holdfast generates, derived from the origin of each IR element. They are unique
 * across all types except where two resources of one origin share a name (a cluster and its load assignment; a
 * listener and its route configuration), so a name alone identifies the object it came from.
 * <ul>
 *   <li>Cluster of an Upstream {@code ns/name}: Cluster and ClusterLoadAssignment {@code ns/name}.</li>
 *   <li>Socket listener of a Gateway {@code ns/name}: Listener and RouteConfiguration {@code gateway/ns/name}.</li>
 *   <li>Socket listener of a TcpGateway {@code ns/name}: Listener {@code TcpGateway/ns/name} (its key, as below;
 *       it has no route configuration).</li>
 *   <li>HTTP filter chain {@code c} of that listener: RouteConfiguration {@code gateway/ns/name}, the listener's
 *       name, when it is the listener's only chain, in plain text and for every server name; else
 *       {@code gateway/ns/name/c} (a chain name of a TLS chain is its VirtualService's {@code ns/name}).</li>
 *   <li>Secret of the IR: its IR name ({@code secret/ns/name}, {@code ca/secret/ns/name}, {@code file/PATH},
 *       {@code ca/file/PATH} from the Holdfast front end).</li>
 *   <li>Client listener for domain {@code d} (not a wildcard): API Listener and RouteConfiguration {@code d}, the
 *       name grpc-java asks for when a channel targets {@code xds:///d}.</li>
 *   <li>Virtual host of a VirtualService {@code ns/name}: {@code ns/name}; its route {@code i}: the route's name,
 *       else {@code routes[i]}.</li>
 *   <li>Socket listener of another kind: its key and {@code :port}; virtual host of another kind: its key,
 *       {@code /} and its first domain (see {@link #socket}, {@link #virtualHost(io.holdfast.ir.VirtualHost)}).</li>
 *   <li>Any other element of another kind (or of a kind of the same name in another API group): its
 *       {@link ResourceKey#toString()}, e.g. a cluster for {@code Service/demo/echo}, a listener for
 *       {@code Gateway.gateway.networking.k8s.io/demo/edge}.</li>
 * </ul>
 * Kubernetes names and namespaces are lower case and contain no {@code /}, domains are lower case and contain no
 * {@code /}, and kinds start with an upper-case letter, so none of these forms can collide: an Upstream and an
 * object of another kind with the same namespace and name get different cluster names.
 */
final class EnvoyNames {

  private EnvoyNames() {
  }

  /** The name of the cluster lowered from {@code origin}. */
  static String cluster(ResourceKey origin) {
    return perKind(origin, ResourceKey.UPSTREAM, "");
  }

  /** The name of the socket listener lowered from {@code origin}, and of its route configuration. */
  static String listener(ResourceKey origin) {
    return perKind(origin, ResourceKey.GATEWAY, "gateway/");
  }

  /**
   * The name of a socket listener and of its lone chain's route configuration: {@link #listener} of its origin for
   * Holdfast's kinds (one socket each); for other kinds, which may have one socket per port (a Gateway API Gateway),
   * the key followed by {@code :port}.
   */
  static String socket(io.holdfast.ir.Listener.Socket socket) {
    ResourceKey origin = socket.origin().object();
    return origin.group().equals(ResourceKey.HOLDFAST_GROUP) ? listener(origin) : origin + ":" + socket.port();
  }

  static String gatewayListener(ResourceKey gateway) {
    return listener(gateway);
  }

  static String gatewayRoutes(ResourceKey gateway) {
    return listener(gateway);
  }

  /**
   * The route configuration of an HTTP filter chain: the listener's name for a lone plain-text catch-all chain (the
   * name it always had), else the listener's name and the chain's.
   */
  static String chainRoutes(io.holdfast.ir.Listener.Socket socket, io.holdfast.ir.Listener.FilterChain chain) {
    String listener = socket(socket);
    boolean lonePlain = socket.filterChains().size() == 1 && chain.tls().isEmpty()
        && chain.match().serverNames().isEmpty();
    return lonePlain ? listener : listener + "/" + chain.name();
  }

  static String apiListener(String domain) {
    return domain;
  }

  static String apiRoutes(String domain) {
    return domain;
  }

  static String virtualHost(ResourceKey origin) {
    return perKind(origin, ResourceKey.VIRTUAL_SERVICE, "");
  }

  /**
   * The name of a virtual host: {@link #virtualHost(ResourceKey)} of its origin for Holdfast's kinds (one virtual
   * host each); for other kinds, which may hold several virtual hosts on one listener (a Gateway API Gateway, one
   * per hostname), the key followed by {@code /} and its first domain, unique on a listener.
   */
  static String virtualHost(io.holdfast.ir.VirtualHost host) {
    ResourceKey origin = host.origin().object();
    return origin.group().equals(ResourceKey.HOLDFAST_GROUP) ? virtualHost(origin)
        : origin + "/" + host.domains().get(0);
  }

  /** {@code prefix + ns/name} for the Holdfast kind these names were first made for (kept stable), else the key. */
  private static String perKind(ResourceKey origin, String holdfastKind, String prefix) {
    return origin.isHoldfast(holdfastKind)
        ? prefix + origin.namespace() + "/" + origin.name()
        : origin.toString();
  }
}
