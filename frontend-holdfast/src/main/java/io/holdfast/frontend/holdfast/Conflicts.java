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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
   * overlapping sockets cannot both bind. Gateways that share one socket ({@link Socket#shares}) are one listener
   * instead: such a group conflicts within itself only on equal sets of source ranges (the oldest keeps them), and
   * claims the socket as one, with its oldest member's age (any outsider overlapping one member overlaps all of
   * them, and shares with none), so thousands of Gateways on one port are not compared pair by pair.
   */
  static void listeners(List<Gateway> gateways, List<TcpGateway> tcpGateways, Ledger ledger) {
    Map<Socket.Settings, List<Gateway>> groups = new LinkedHashMap<>();
    gateways.forEach(g -> groups.computeIfAbsent(Socket.of(g).settings(), k -> new ArrayList<>()).add(g));
    List<Bound> candidates = new ArrayList<>();
    groups.forEach((settings, members) -> {
      if (settings.grpcServer()) {
        members.forEach(g -> candidates.add(new Bound(g, List.of(g), g.bindAddress(), g.port())));
        return;
      }
      List<Claim<Set<String>>> ranges = members.stream()
          .map(g -> new Claim<>(claimant(g), List.of(Socket.of(g).ranges()))).toList();
      Set<io.holdfast.api.ResourceKey> lost = new HashSet<>();
      for (Loss<Set<String>> loss : Claims.settleEqual(ranges)) {
        lost.add(loss.loser().key());
        ledger.error(loss.loser().key(), "spec.port", Reasons.DUPLICATE_LISTENER, "address "
            + members.get(0).bindAddress() + " port " + members.get(0).port() + " is already used by "
            + loss.winner().key() + " with the same sourcePrefixRanges, which is older (Gateways share a socket"
            + " only with different sourcePrefixRanges)");
      }
      List<Gateway> kept = members.stream().filter(g -> !lost.contains(g.key())).toList();
      kept.stream().min(Comparator.comparing(Conflicts::claimant, Claimant.OLDEST_FIRST)).ifPresent(oldest ->
          candidates.add(new Bound(oldest, kept, oldest.bindAddress(), oldest.port())));
    });
    tcpGateways.forEach(g -> candidates.add(new Bound(g, List.of(g), g.bindAddress(), g.port())));
    List<Claim<Bound>> claims = candidates.stream().map(b -> new Claim<>(claimant(b.resource()), List.of(b))).toList();
    for (Loss<Bound> loss : Claims.settle(claims, Bound::port, Conflicts::overlaps)) {
      Bound owner = loss.held();
      for (GatewayResource member : loss.value().members()) {
        String address = member instanceof Gateway g ? g.bindAddress() : ((TcpGateway) member).bindAddress();
        ledger.error(member.key(), "spec.port", Reasons.DUPLICATE_LISTENER, "address " + address + " port "
            + loss.value().port() + " is already used by " + owner.resource().key() + " (" + owner.address()
            + "), which is older" + (member instanceof Gateway && owner.resource() instanceof Gateway
                ? " (Gateways share a socket only on the same address, with different sourcePrefixRanges, the"
                + " same proxyNames, PROXY protocol and buffer limit, and no grpcServer)" : ""));
      }
    }
  }

  /**
   * The socket one resource binds, or a group of Gateways sharing one, claimed by {@code resource} (the oldest).
   */
  private record Bound(GatewayResource resource, List<GatewayResource> members, String address, InetAddress inet,
      int port) {
    Bound(GatewayResource resource, List<? extends GatewayResource> members, String address, int port) {
      this(resource, List.copyOf(members), address, InetAddresses.forString(address), port);
    }
  }

  /** Same port, and the same address or either one is the any-address. */
  private static boolean overlaps(Bound a, Bound b) {
    return a.port() == b.port() && overlaps(a.inet(), b.inet());
  }

  /**
   * What decides whether a validated Gateway shares its address and port with another.
   *
   * @param ranges its source ranges in canonical form (the same networks written differently are equal)
   */
  record Socket(Settings settings, Set<String> ranges) {

    /** The socket-wide part: Gateways share a socket only when these are equal. */
    record Settings(InetAddress address, int port, Set<String> proxyNames, boolean proxyProtocol,
        Optional<Long> bufferLimit, boolean grpcServer) {
    }

    static Socket of(Gateway gateway) {
      Set<String> ranges = new HashSet<>();
      gateway.sourcePrefixRanges().forEach(range -> ranges.add(TcpGatewayRules.canonical(Cidr.parse(range))));
      return new Socket(new Settings(InetAddresses.forString(gateway.bindAddress()), gateway.port(),
          Set.copyOf(gateway.proxyNames()), gateway.options().proxyProtocol(),
          gateway.options().perConnectionBufferLimitBytes(), gateway.grpcServer()), Set.copyOf(ranges));
    }

    /**
     * True if the two Gateways are served as one listener: the same address and port, different sets of client
     * networks (so their chains never match the same connection; Envoy picks the most specific range), and the
     * same socket-wide settings (proxies, PROXY protocol, buffer limit), neither served to a gRPC server (one chain
     * each).
     */
    boolean shares(Socket other) {
      return settings.equals(other.settings) && !settings.grpcServer() && !ranges.equals(other.ranges);
    }
  }

  static boolean overlaps(String a, String b) {
    return overlaps(InetAddresses.forString(a), InetAddresses.forString(b));
  }

  private static boolean overlaps(InetAddress first, InetAddress second) {
    return first.equals(second) || first.isAnyLocalAddress() || second.isAnyLocalAddress();
  }
}
