package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one tenant's objects may reach: the settings of the Holdfast API's consent and address rules (README,
 * "Tenancy: references across namespaces, upstream addresses, listener ports"), which the Gateway API front end
 * follows too. One value for the process, like {@code InputLimits}: the server, {@code holdfast validate} and the
 * admission webhook judge with the same.
 *
 * <ul>
 *   <li>A Secret in another namespace is never used without a ReferenceGrant there: that is not a setting.</li>
 *   <li>{@code crossNamespaceRefs}: whether a route (or TcpGateway) may name an Upstream, and a VirtualService or
 *       RouteTable delegate to a RouteTable, in another namespace without a ReferenceGrant ({@link
 *       CrossNamespaceRefs#ALLOW}, Gloo Edge's behaviour) or only with one ({@link CrossNamespaceRefs#GRANT}).</li>
 *   <li>{@code deniedUpstreamNetworks}: static upstream addresses in these networks are refused
 *       ({@code AddressNotPermitted}); Kubernetes endpoints there (of an Upstream's or a backendRef's Service) are
 *       left out with a warning.</li>
 *   <li>Listener ports (Gateway, TcpGateway, a Gateway API Gateway's listeners) outside
 *       {@code minListenerPort}-{@code maxListenerPort}, or in {@code reservedListenerPorts}, are refused
 *       ({@code PortNotPermitted}).</li>
 * </ul>
 */
public record AccessPolicy(CrossNamespaceRefs crossNamespaceRefs, List<Cidr> deniedUpstreamNetworks,
    int minListenerPort, int maxListenerPort, Set<Integer> reservedListenerPorts) {

  /** Whether references to Upstreams and RouteTables in other namespaces need a ReferenceGrant. */
  public enum CrossNamespaceRefs {
    /** Any namespace's Upstreams and RouteTables may be named (Gloo Edge's behaviour). */
    ALLOW,
    /** Only those whose namespace has a ReferenceGrant from the referring kind and namespace. */
    GRANT;

    /**
     * @throws IllegalArgumentException naming {@code setting} unless {@code text} is allow or grant
     */
    public static CrossNamespaceRefs parse(String setting, String text) {
      return switch (text.trim().toLowerCase(Locale.ROOT)) {
        case "allow" -> ALLOW;
        case "grant" -> GRANT;
        default -> throw new IllegalArgumentException(setting + " must be allow or grant, got '" + text + "'");
      };
    }
  }

  /** The proxy itself: 127.0.0.0/8 and ::1 (Envoy's admin listens there). */
  public static final List<Cidr> LOOPBACK = List.of(Cidr.parse("127.0.0.0/8"), Cidr.parse("::1/128"));
  /**
   * Link-local (169.254.0.0/16 holds the cloud metadata services at 169.254.169.254, fe80::/10) and the
   * unspecified addresses (0.0.0.0/8, which Linux connects to the host itself, and ::).
   */
  public static final List<Cidr> LINK_LOCAL_AND_UNSPECIFIED = List.of(Cidr.parse("169.254.0.0/16"),
      Cidr.parse("fe80::/10"), Cidr.parse("0.0.0.0/8"), Cidr.parse("::/128"));
  /** Binding below 1024 needs a privilege the proxy should not have (deploy/ drops every capability). */
  public static final int DEFAULT_MIN_LISTENER_PORT = 1024;
  public static final int DEFAULT_MAX_LISTENER_PORT = 65_535;
  /** Envoy's admin port in the usual bootstrap (and Holdfast's examples): a listener there would take it over. */
  public static final Set<Integer> DEFAULT_RESERVED_LISTENER_PORTS = Set.of(19000);

  /**
   * The defaults of Kubernetes mode (and of the webhook): cross-namespace references allowed, every default
   * network denied, loopback included.
   */
  public static final AccessPolicy KUBERNETES_DEFAULTS = new AccessPolicy(CrossNamespaceRefs.ALLOW,
      concat(LOOPBACK, LINK_LOCAL_AND_UNSPECIFIED), DEFAULT_MIN_LISTENER_PORT, DEFAULT_MAX_LISTENER_PORT,
      DEFAULT_RESERVED_LISTENER_PORTS);

  /**
   * The defaults of file mode ({@code serve --config-dir}) and {@code holdfast validate}: as
   * {@link #KUBERNETES_DEFAULTS} but loopback upstreams allowed, since there the proxy and its backends run on one
   * development machine (the bundled examples do).
   */
  public static final AccessPolicy FILE_DEFAULTS = KUBERNETES_DEFAULTS.withDeniedUpstreamNetworks(
      LINK_LOCAL_AND_UNSPECIFIED);

  public AccessPolicy {
    Objects.requireNonNull(crossNamespaceRefs, "crossNamespaceRefs");
    deniedUpstreamNetworks = List.copyOf(deniedUpstreamNetworks);
    if (minListenerPort < 1 || maxListenerPort > 65_535 || minListenerPort > maxListenerPort) {
      throw new IllegalArgumentException("the listener port range must lie within 1-65535 with its start not above"
          + " its end, got " + minListenerPort + "-" + maxListenerPort);
    }
    reservedListenerPorts = java.util.Collections.unmodifiableSet(new TreeSet<>(reservedListenerPorts));
  }

  public AccessPolicy withCrossNamespaceRefs(CrossNamespaceRefs value) {
    return new AccessPolicy(value, deniedUpstreamNetworks, minListenerPort, maxListenerPort, reservedListenerPorts);
  }

  public AccessPolicy withDeniedUpstreamNetworks(List<Cidr> value) {
    return new AccessPolicy(crossNamespaceRefs, value, minListenerPort, maxListenerPort, reservedListenerPorts);
  }

  public AccessPolicy withListenerPorts(int min, int max, Set<Integer> reserved) {
    return new AccessPolicy(crossNamespaceRefs, deniedUpstreamNetworks, min, max, reserved);
  }

  /** Whether a listener may bind {@code port}; why not, or null. */
  public String listenerPortProblem(int port) {
    if (port < minListenerPort || port > maxListenerPort) {
      return "port " + port + " is outside the allowed listener range " + minListenerPort + "-" + maxListenerPort
          + " (--listener-port-range)";
    }
    if (reservedListenerPorts.contains(port)) {
      return "port " + port + " is reserved (--listener-reserved-ports " + reservedListenerPorts
          + "; 19000 is Envoy's admin port)";
    }
    return null;
  }

  /** The denied network {@code address} lies in; null if it may be used. */
  public Cidr deniedNetworkOf(java.net.InetAddress address) {
    return deniedUpstreamNetworks.stream().filter(c -> c.contains(address)).findFirst().orElse(null);
  }

  /** Whether the proxy may connect to {@code endpoint}: its address is no literal in a denied network. */
  public boolean permits(Endpoint endpoint) {
    return HostLiterals.literal(endpoint.address()).map(a -> deniedNetworkOf(a) == null).orElse(true);
  }

  /** {@code endpoints} without those in denied networks (the same list if none is). */
  public List<Endpoint> permittedEndpoints(List<Endpoint> endpoints) {
    return endpoints.stream().allMatch(this::permits) ? endpoints : endpoints.stream().filter(this::permits).toList();
  }

  private static List<Cidr> concat(List<Cidr> a, List<Cidr> b) {
    List<Cidr> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
