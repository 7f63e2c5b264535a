package io.holdfast.frontend.holdfast;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Cidr;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.HostLiterals;
import io.holdfast.api.Reasons;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.UpstreamTarget;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Where a proxy may be told to connect and listen ({@link AccessPolicy}). A static upstream host in a denied network
 * is an error ({@code AddressNotPermitted}), as is a listener port outside the allowed range or reserved
 * ({@code PortNotPermitted}). Only what the front end can know without resolving anything is checked: IP literals,
 * the names RFC 6761 reserves for loopback ({@code localhost} and {@code *.localhost}, which resolvers answer
 * without asking DNS), and host names that C resolvers read as IPv4 numbers ({@code 0x7f000001}). Any other DNS
 * name is not checked: the proxy resolves it later, and a name that resolves into a denied network is not refused
 * (README says so). Pure.
 */
final class AddressRules {

  private AddressRules() {
  }

  static void upstream(Upstream upstream, AccessPolicy policy, Ledger.Sink sink) {
    sdsAgent(upstream, policy, sink);
    if (!(upstream.target() instanceof UpstreamTarget.Static hosts)) {
      return;
    }
    for (int i = 0; i < hosts.hosts().size(); i++) {
      String address = hosts.hosts().get(i).address();
      Optional<InetAddress> literal = literal(address);
      if (literal.isEmpty()) {
        continue;
      }
      Cidr denied = policy.deniedNetworkOf(literal.get());
      if (denied != null) {
        sink.error("spec.static.hosts[" + i + "].address", Reasons.ADDRESS_NOT_PERMITTED, "\"" + address + "\" ("
            + literal.get().getHostAddress() + ") is in the denied network " + denied + "; upstreams may not point"
            + " at the proxy itself, link-local or metadata addresses (--upstream-deny-cidr, --upstream-allow-loopback)");
      }
    }
  }

  /**
   * An SDS agent ({@code tls.sds}) is always on loopback: the proxy pod's own agent, which hands out the pod's
   * identity (a mesh certificate) to whichever Upstream names it. So it is allowed exactly where loopback
   * upstreams are: by default in file mode and {@code validate} (one machine), and in Kubernetes mode only with
   * {@code --upstream-allow-loopback}, an operator's decision that tenants may use the proxy's identity.
   */
  private static void sdsAgent(Upstream upstream, AccessPolicy policy, Ledger.Sink sink) {
    upstream.options().tls().flatMap(UpstreamOptions.Tls::sds).flatMap(UpstreamOptions.Sds::agent)
        .flatMap(agent -> literal(agent.ip())).ifPresent(ip -> {
          Cidr denied = policy.deniedNetworkOf(ip);
          if (denied != null) {
            sink.error("spec.tls.sds.address", Reasons.ADDRESS_NOT_PERMITTED, ip.getHostAddress() + " is in the"
                + " denied network " + denied + "; an SDS agent on loopback gives this Upstream the proxy pod's own"
                + " identity, which in Kubernetes mode needs --upstream-allow-loopback");
          }
        });
  }

  /**
   * The Kubernetes endpoints of a Service an Upstream names may not be in a denied network either (a Service
   * without a selector takes any address its EndpointSlices give): those are left out of the cluster, with a
   * warning, since they change without the Upstream changing.
   */
  static void kubeEndpoints(Upstream upstream, GatewayConfig config, AccessPolicy policy, Ledger.Sink sink) {
    if (!(upstream.target() instanceof UpstreamTarget.Kube kube)) {
      return;
    }
    List<Endpoint> all = config.endpointsOf(kube.service(upstream.metadata().namespace()));
    List<Endpoint> denied = all.stream().filter(e -> !policy.permits(e)).toList();
    if (!denied.isEmpty()) {
      sink.warn("spec.kube", Reasons.ADDRESS_NOT_PERMITTED, denied.size() + " of the " + all.size()
          + " endpoints of Service " + kube.service(upstream.metadata().namespace()).namespace() + "/" + kube.name()
          + " (" + denied.get(0).address() + (denied.size() > 1 ? ", ..." : "") + ") are in denied networks and"
          + " left out (--upstream-deny-cidr, --upstream-allow-loopback)");
    }
  }

  /** {@code endpoints} without those in denied networks. */
  static List<Endpoint> permitted(List<Endpoint> endpoints, AccessPolicy policy) {
    return policy.permittedEndpoints(endpoints);
  }

  static void listenerPort(int port, Ledger.Sink sink, AccessPolicy policy) {
    if (!Syntax.isPort(port)) {
      return; // PortOutOfRange already
    }
    String problem = policy.listenerPortProblem(port);
    if (problem != null) {
      sink.error("spec.port", Reasons.PORT_NOT_PERMITTED, problem);
    }
  }

  /** The address the proxy would connect to without asking DNS, if {@code host} names one. */
  static Optional<InetAddress> literal(String host) {
    return HostLiterals.literal(host);
  }
}
