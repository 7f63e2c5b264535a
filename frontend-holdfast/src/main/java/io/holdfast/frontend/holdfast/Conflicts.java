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
 * Resources that cannot coexist in one Envoy config: two Gateways or TcpGateways on one address and port (two
 * VirtualServices on one domain: {@link DomainConflicts}). {@link Claims} settles them: the oldest claimant wins; every loser is
 * rejected naming the winner. Only candidates not rejected for other reasons take part, so a rejected resource
 * never blocks one that would otherwise be served.
 */
final class Conflicts {

  private Conflicts() {
  }

  static Claimant claimant(GatewayResource resource) {
    return new Claimant(resource.key(), resource.metadata().creationTimestamp());
  }

  /**
   * Gateways and TcpGateways share the address and port space: each is one Envoy listener, and two listeners on
   * overlapping sockets cannot both bind, unless they share one socket ({@link Socket#shares}: told apart by client
   * network). Such a group conflicts within itself only on equal sets of source ranges (the oldest keeps them), and
   * claims the socket as one, with its oldest member's age (any outsider overlapping one member overlaps all of
   * them, and shares with none), so thousands of Gateways on one port are not compared pair by pair.
   */
  static void listeners(List<Gateway> gateways, List<TcpGateway> tcpGateways, Ledger ledger) {
    Map<Socket.Settings, List<GatewayResource>> groups = new LinkedHashMap<>();
    gateways.forEach(g -> groups.computeIfAbsent(Socket.of(g).settings(), k -> new ArrayList<>()).add(g));
    tcpGateways.forEach(g -> groups.computeIfAbsent(Socket.of(g).settings(), k -> new ArrayList<>()).add(g));
    List<Bound> candidates = new ArrayList<>();
    groups.forEach((settings, members) -> {
      if (settings.grpcServer()) {
        members.forEach(g -> candidates.add(new Bound(g, List.of(g), settings)));
        return;
      }
      List<Claim<Set<String>>> ranges = members.stream()
          .map(g -> new Claim<>(claimant(g), Socket.of(g).ranges())).toList();
      Set<io.holdfast.api.ResourceKey> lost = new HashSet<>();
      for (Loss<Set<String>> loss : Claims.settleEqual(ranges)) {
        if (lost.add(loss.loser().key())) {
          ledger.error(loss.loser().key(), "spec.port", Reasons.DUPLICATE_LISTENER, "port " + settings.port()
              + " is already used by " + loss.winner().key() + " for the same sourcePrefixRanges " + loss.value()
              + ", which is older (Gateways and TcpGateways share a socket only for different client networks)");
        }
      }
      List<GatewayResource> kept = members.stream().filter(g -> !lost.contains(g.key())).toList();
      kept.stream().min(Comparator.comparing(Conflicts::claimant, Claimant.OLDEST_FIRST)).ifPresent(oldest ->
          candidates.add(new Bound(oldest, kept, settings)));
    });
    List<Claim<Bound>> claims = candidates.stream().map(b -> new Claim<>(claimant(b.resource()), List.of(b))).toList();
    for (Loss<Bound> loss : Claims.settle(claims, Bound::port, Conflicts::overlaps)) {
      Bound owner = loss.held();
      for (GatewayResource member : loss.value().members()) {
        ledger.error(member.key(), "spec.port", Reasons.DUPLICATE_LISTENER, "address "
            + InetAddresses.toAddrString(loss.value().settings().address()) + " port " + loss.value().port()
            + " is already used by " + owner.resource().key() + " ("
            + InetAddresses.toAddrString(owner.settings().address()) + "), which is older (Gateways and TcpGateways"
            + " share a socket only on the same address, for different sourcePrefixRanges, with the same"
            + " proxyNames, PROXY protocol and buffer limit, and no grpcServer)");
      }
    }
  }

  /** The socket one resource binds, or a group sharing one, claimed by {@code resource} (the oldest). */
  private record Bound(GatewayResource resource, List<GatewayResource> members, Socket.Settings settings) {
    Bound {
      members = List.copyOf(members);
    }

    int port() {
      return settings.port();
    }
  }

  /** Same port, and the same address or either one is the any-address. */
  private static boolean overlaps(Bound a, Bound b) {
    return a.port() == b.port() && overlaps(a.settings().address(), b.settings().address());
  }

  /**
   * What decides whether a validated Gateway or TcpGateway shares its address and port with another.
   *
   * @param ranges the sets of source ranges its chains match, in canonical form (the same networks written
   *               differently are equal): a Gateway's one set, each TCP host's
   */
  record Socket(Settings settings, List<Set<String>> ranges) {

    /** The socket-wide part: resources share a socket only when these are equal. */
    record Settings(InetAddress address, int port, Set<String> proxyNames, boolean proxyProtocol,
        Optional<Long> bufferLimit, boolean grpcServer) {
    }

    static Socket of(GatewayResource resource) {
      if (resource instanceof TcpGateway tcp) {
        return new Socket(new Settings(InetAddresses.forString(tcp.bindAddress()), tcp.port(),
            Set.copyOf(tcp.proxyNames()), false, Optional.empty(), false),
            tcp.hosts().stream().map(h -> canonical(h.sourcePrefixRanges())).distinct().toList());
      }
      Gateway gateway = (Gateway) resource;
      return new Socket(new Settings(InetAddresses.forString(gateway.bindAddress()), gateway.port(),
          Set.copyOf(gateway.proxyNames()), gateway.options().proxyProtocol(),
          gateway.options().perConnectionBufferLimitBytes(), gateway.grpcServer()),
          List.of(canonical(gateway.sourcePrefixRanges())));
    }

    private static Set<String> canonical(List<String> ranges) {
      Set<String> out = new HashSet<>();
      ranges.forEach(range -> out.add(TcpGatewayRules.canonical(Cidr.parse(range))));
      return Set.copyOf(out);
    }

    /**
     * True if the two are served as one listener: the same address and port, no set of client networks in common
     * (so their chains never match the same connection; Envoy picks the most specific range), and the same
     * socket-wide settings (proxies, PROXY protocol, buffer limit), neither served to a gRPC server (one chain).
     */
    boolean shares(Socket other) {
      return settings.equals(other.settings) && !settings.grpcServer()
          && ranges.stream().noneMatch(other.ranges::contains);
    }
  }

  static boolean overlaps(String a, String b) {
    return overlaps(InetAddresses.forString(a), InetAddresses.forString(b));
  }

  private static boolean overlaps(InetAddress first, InetAddress second) {
    return first.equals(second) || first.isAnyLocalAddress() || second.isAnyLocalAddress();
  }
}
