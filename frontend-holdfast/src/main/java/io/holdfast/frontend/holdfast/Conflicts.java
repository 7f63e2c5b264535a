package io.holdfast.frontend.holdfast;

import com.google.common.net.InetAddresses;
import io.holdfast.api.Cidr;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.Reasons;
import io.holdfast.api.TcpGateway;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Claims.Claim;
import io.holdfast.ir.Claims.Claimant;
import io.holdfast.ir.Claims.Loss;
import io.holdfast.ir.Claims;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Resources that cannot coexist in one Envoy config: two VirtualServices claiming one domain (Envoy rejects a
 * route table with a duplicate domain, and the proxyless-gRPC listener is named by the domain), and two Gateways
 * or TcpGateways on one address and port. {@link Claims} settles them: the oldest claimant wins; every loser is
 * rejected naming the winner. Only candidates not rejected for other reasons take part, so a rejected resource
 * never blocks one that would otherwise be served.
 */
final class Conflicts {

  private Conflicts() {
  }

  static Claimant claimant(GatewayResource resource) {
    return new Claimant(resource.key(), resource.metadata().creationTimestamp());
  }

  static void domains(List<VirtualService> candidates, Ledger ledger) {
    List<Claim<String>> claims = candidates.stream().map(vs -> new Claim<>(claimant(vs), vs.domains())).toList();
    for (Loss<String> loss : Claims.settleEqual(claims)) {
      ledger.error(loss.loser().key(), "spec.domains[" + loss.index() + "]", Reasons.DUPLICATE_DOMAIN, "domain \""
          + loss.value() + "\" is already served by " + loss.winner().key() + ", which is older");
    }
  }

  /**
   * Gateways and TcpGateways share the address and port space: each is one Envoy listener, and two listeners on
   * overlapping sockets cannot both bind. Gateways that {@link #share} one socket are one listener instead.
   */
  static void listeners(List<Gateway> gateways, List<TcpGateway> tcpGateways, Ledger ledger) {
    List<Bound> candidates = new ArrayList<>();
    gateways.forEach(g -> candidates.add(new Bound(g, g.bindAddress(), g.port())));
    tcpGateways.forEach(g -> candidates.add(new Bound(g, g.bindAddress(), g.port())));
    List<Claim<Bound>> claims = candidates.stream().map(b -> new Claim<>(claimant(b.resource()), List.of(b))).toList();
    for (Loss<Bound> loss : Claims.settle(claims, Bound::port, Conflicts::overlaps)) {
      Bound socket = loss.value();
      Bound owner = loss.held();
      ledger.error(socket.resource().key(), "spec.port", Reasons.DUPLICATE_LISTENER, "address " + socket.address()
          + " port " + socket.port() + " is already used by " + owner.resource().key() + " (" + owner.address()
          + "), which is older" + (socket.resource() instanceof Gateway && owner.resource() instanceof Gateway
              ? " (Gateways share a socket only on the same address, with different sourcePrefixRanges, the same"
              + " proxyNames, PROXY protocol and buffer limit, and no grpcServer)" : ""));
    }
  }

  /** The socket one resource binds. */
  private record Bound(GatewayResource resource, String address, int port) {
  }

  /** Same port, and the same address or either one is the any-address, unless the two share the socket. */
  private static boolean overlaps(Bound a, Bound b) {
    return a.port() == b.port() && overlaps(a.address(), b.address()) && !(a.resource() instanceof Gateway first
        && b.resource() instanceof Gateway second && share(first, second));
  }

  /**
   * True if two Gateways on one port are served as one listener: the same address, different sets of client
   * networks (so their chains never match the same connection; Envoy picks the most specific range), and the same
   * socket-wide settings (proxies, PROXY protocol, buffer limit), neither served to a gRPC server (one chain each).
   * Call only on validated Gateways.
   */
  static boolean share(Gateway a, Gateway b) {
    return a.port() == b.port() && !a.grpcServer() && !b.grpcServer()
        && InetAddresses.forString(a.bindAddress()).equals(InetAddresses.forString(b.bindAddress()))
        && !canonicalRanges(a).equals(canonicalRanges(b))
        && Set.copyOf(a.proxyNames()).equals(Set.copyOf(b.proxyNames()))
        && a.options().proxyProtocol() == b.options().proxyProtocol()
        && a.options().perConnectionBufferLimitBytes().equals(b.options().perConnectionBufferLimitBytes());
  }

  private static Set<String> canonicalRanges(Gateway gateway) {
    Set<String> out = new HashSet<>();
    gateway.sourcePrefixRanges().forEach(range -> out.add(TcpGatewayRules.canonical(Cidr.parse(range))));
    return out;
  }

  static boolean overlaps(String a, String b) {
    InetAddress first = InetAddresses.forString(a);
    InetAddress second = InetAddresses.forString(b);
    return first.equals(second) || first.isAnyLocalAddress() || second.isAnyLocalAddress();
  }
}
