package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayResource;
import io.holdfast.ir.Listener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gateways and TcpGateways that share an address and port ({@link Conflicts.Socket#shares}: different client
 * networks) as one socket listener: Envoy binds a socket once, so their chains go on the listener of the first of
 * them (the listener's origin; its name follows that resource), each chain renamed
 * {@code namespace/name/chain-name} so the names, and the route configurations named after them, stay unique. A
 * resource alone on its socket keeps its listener as lowered.
 */
final class SharedSockets {

  /** A Gateway or TcpGateway and its lowered socket, in the order they are lowered (Gateways first). */
  record Lowered(GatewayResource resource, Listener.Socket socket, Conflicts.Socket sharing) {
    Lowered(GatewayResource resource, Listener.Socket socket) {
      this(resource, socket, Conflicts.Socket.of(resource));
    }
  }

  private SharedSockets() {
  }

  /**
   * The sockets to serve, in the order of their first resource. Linear in the resources: they are grouped by their
   * socket-wide settings, and one joins the first group of its settings that takes none of its sets of ranges.
   */
  static List<Listener.Socket> merge(List<Lowered> lowered) {
    record Group(Set<Set<String>> ranges, List<Lowered> members) {
    }
    List<Group> groups = new ArrayList<>();
    Map<Conflicts.Socket.Settings, List<Group>> bySettings = new HashMap<>();
    for (Lowered one : lowered) {
      Conflicts.Socket socket = one.sharing();
      // A gRPC server's socket is never shared; validated Gateways of one settings have distinct ranges, so the
      // search below stops at the first group but for configs that were not validated together.
      List<Group> candidates = socket.settings().grpcServer() ? new ArrayList<>()
          : bySettings.computeIfAbsent(socket.settings(), k -> new ArrayList<>());
      Group group = candidates.stream().filter(g -> socket.ranges().stream().noneMatch(g.ranges()::contains))
          .findFirst()
          .orElseGet(() -> {
            Group fresh = new Group(new HashSet<>(), new ArrayList<>());
            candidates.add(fresh);
            groups.add(fresh);
            return fresh;
          });
      group.ranges().addAll(socket.ranges());
      group.members().add(one);
    }
    List<Listener.Socket> out = new ArrayList<>();
    for (List<Lowered> group : groups.stream().map(Group::members).toList()) {
      if (group.size() == 1) {
        out.add(group.get(0).socket());
        continue;
      }
      List<Listener.FilterChain> chains = new ArrayList<>();
      for (Lowered member : group) {
        String prefix = member.resource().metadata().namespace() + "/" + member.resource().metadata().name() + "/";
        // A TcpGateway's chains are named by its hosts; Envoy names its TCP stats after them.
        for (Listener.FilterChain chain : member.socket().filterChains()) {
          chains.add(chain instanceof Listener.FilterChain.Http http ? http.withName(prefix + http.name())
              : ((Listener.FilterChain.Tcp) chain).withName(prefix + chain.name()));
        }
      }
      out.add(group.get(0).socket().withFilterChains(chains));
    }
    return out;
  }
}
