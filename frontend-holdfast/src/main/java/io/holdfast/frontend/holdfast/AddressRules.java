package io.holdfast.frontend.holdfast;

import com.google.common.net.InetAddresses;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Reasons;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;
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
   * The Kubernetes endpoints of a Service an Upstream names may not be in a denied network either (a Service
   * without a selector takes any address its EndpointSlices give): those are left out of the cluster, with a
   * warning, since they change without the Upstream changing.
   */
  static void kubeEndpoints(Upstream upstream, GatewayConfig config, AccessPolicy policy, Ledger.Sink sink) {
    if (!(upstream.target() instanceof UpstreamTarget.Kube kube)) {
      return;
    }
    List<Endpoint> all = config.endpointsOf(kube.service(upstream.metadata().namespace()));
    List<Endpoint> denied = all.stream().filter(e -> !permitted(e, policy)).toList();
    if (!denied.isEmpty()) {
      sink.warn("spec.kube", Reasons.ADDRESS_NOT_PERMITTED, denied.size() + " of the " + all.size()
          + " endpoints of Service " + kube.service(upstream.metadata().namespace()).namespace() + "/" + kube.name()
          + " (" + denied.get(0).address() + (denied.size() > 1 ? ", ..." : "") + ") are in denied networks and"
          + " left out (--upstream-deny-cidr, --upstream-allow-loopback)");
    }
  }

  /** {@code endpoints} without those in denied networks. */
  static List<Endpoint> permitted(List<Endpoint> endpoints, AccessPolicy policy) {
    return endpoints.stream().allMatch(e -> permitted(e, policy)) ? endpoints
        : endpoints.stream().filter(e -> permitted(e, policy)).toList();
  }

  private static boolean permitted(Endpoint endpoint, AccessPolicy policy) {
    return literal(endpoint.address()).map(a -> policy.deniedNetworkOf(a) == null).orElse(true);
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
    String bare = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    if (InetAddresses.isInetAddress(bare)) {
      return Optional.of(InetAddresses.forString(bare));
    }
    String lower = bare.toLowerCase(Locale.ROOT);
    if (lower.equals("localhost") || lower.endsWith(".localhost")) {
      return Optional.of(InetAddress.getLoopbackAddress());
    }
    return ipv4Number(lower).map(AddressRules::ipv4);
  }

  /**
   * {@code inet_aton}'s forms: one to four parts, each decimal, octal (leading 0) or hexadecimal (0x), the last
   * filling the remaining bytes. At most 4 parts of at most 253 characters in all (a host name's bound).
   */
  private static Optional<Long> ipv4Number(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length > 4 || text.length() > 253) {
      return Optional.empty();
    }
    long value = 0;
    for (int i = 0; i < parts.length; i++) {
      Optional<Long> part = number(parts[i]);
      long max = i == parts.length - 1 ? (1L << (8 * (4 - i))) - 1 : 255;
      if (part.isEmpty() || part.get() > max) {
        return Optional.empty();
      }
      value = i == parts.length - 1 ? value | part.get() : value | (part.get() << (8 * (3 - i)));
    }
    return Optional.of(value);
  }

  private static Optional<Long> number(String part) {
    if (!part.matches("[0-9a-fx]*")) {
      return Optional.empty();
    }
    try {
      if (part.startsWith("0x")) {
        return part.length() > 2 && part.length() <= 10 ? Optional.of(Long.parseLong(part.substring(2), 16))
            : Optional.empty();
      }
      if (part.isEmpty() || part.length() > 12) {
        return Optional.empty();
      }
      return Optional.of(part.length() > 1 && part.startsWith("0") ? Long.parseLong(part.substring(1), 8)
          : Long.parseLong(part));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static InetAddress ipv4(long value) {
    return InetAddresses.fromInteger((int) value);
  }
}
