package io.holdfast.frontend.gloo;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.RouteAction;
import io.holdfast.api.SslConfig;
import io.holdfast.api.TcpGateway;
import io.holdfast.frontend.holdfast.ReferenceConsent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Gloo's {@code destination.forwardSniClusterName} on a TCP host, served statically. In Gloo, Envoy's
 * {@code sni_cluster} filter forwards a connection to the cluster its SNI names, and Gloo names an Upstream's
 * cluster {@code <name>_<namespace>}. Holdfast's cluster names are its own, so the host becomes one TcpGateway host
 * per Upstream the Gateway may reach, each taking SNI {@code <name>_<namespace>} and forwarding to that Upstream
 * (with the host's {@code sslConfig}, when it terminates TLS): a client naming an Upstream's cluster reaches it, and
 * any other SNI reaches nothing, as in Gloo. Reachable: the Upstreams read without error whose namespace the
 * Gateway's may name ({@link ReferenceConsent}: under {@code --cross-namespace-refs=grant} another namespace's
 * Upstream needs a ReferenceGrant, and without one it is left out, so its SNI reaches nothing). The synthetic
 * Upstreams of {@code kube} destinations are not Gloo Upstreams and are not reachable this way.
 */
final class SniClusters {

  /**
   * At most this many hosts from one {@code forwardSniClusterName}: each is an Envoy filter chain (with its own TLS
   * context when the host terminates TLS), and a listener's chains are matched, sent and rebuilt as a whole, so an
   * unbounded cluster-wide set of Upstreams must not grow one listener without limit. Beyond it the Gateway is
   * rejected ({@link #TOO_MANY}) rather than served to some Upstreams only.
   */
  static final int MAX_HOSTS = 1024;
  static final String TOO_MANY = "TooManySniClusters";
  /** The longest TLS server name Holdfast matches (a DNS name's limit). */
  private static final int MAX_SERVER_NAME = 253;
  private static final Set<String> FORWARD_SNI = Set.of();

  private final Set<ResourceKey> upstreams;
  private final ReferenceConsent consent;

  /**
   * @param upstreams the Holdfast keys of the Gloo Upstreams read without error
   * @param mode      the access policy's cross-namespace setting; the grants are {@code config}'s
   */
  SniClusters(Set<ResourceKey> upstreams, AccessPolicy.CrossNamespaceRefs mode, GatewayConfig config) {
    this.upstreams = new TreeSet<>(upstreams);
    this.consent = ReferenceConsent.of(mode, config);
  }

  /** Gloo's cluster name of an Upstream, which is the SNI a client names it by. */
  static String clusterName(ResourceKey upstream) {
    return upstream.name() + "_" + upstream.namespace();
  }

  /**
   * The hosts {@code destination} (a {@code forwardSniClusterName}) of the TCP host {@code name} of Gateway
   * {@code gateway} stands for, in Upstream key order; empty, with an error at {@code destination}, beyond
   * {@link #MAX_HOSTS}.
   */
  Optional<List<TcpGateway.Host>> expand(ResourceKey gateway, String name, Node destination,
      Optional<SslConfig> ssl) {
    destination.child("forwardSniClusterName").only("forwardSniClusterName", FORWARD_SNI);
    List<TcpGateway.Host> hosts = new ArrayList<>();
    for (ResourceKey upstream : upstreams) { // bounded: stops at MAX_HOSTS + 1
      String serverName = clusterName(upstream);
      if (serverName.length() > MAX_SERVER_NAME || !consent.permits(gateway, upstream)) {
        continue;
      }
      if (hosts.size() == MAX_HOSTS) {
        destination.error(destination.at("forwardSniClusterName"), TOO_MANY, "forwardSniClusterName would serve"
            + " more than " + MAX_HOSTS + " Upstreams (one filter chain each); Holdfast serves at most "
            + MAX_HOSTS + ", so the Gateway is rejected rather than served to some of them");
        return Optional.empty();
      }
      hosts.add(new TcpGateway.Host(name + "-" + hosts.size(), List.of(serverName),
          new RouteAction.Forward(ObjectRef.of(upstream.namespace(), upstream.name())), ssl));
    }
    if (hosts.isEmpty()) {
      destination.warn(destination.at("forwardSniClusterName"), "NoSniCluster", "no Upstream the Gateway may reach"
          + " exists, so forwardSniClusterName forwards no connection");
    }
    return Optional.of(hosts);
  }
}
