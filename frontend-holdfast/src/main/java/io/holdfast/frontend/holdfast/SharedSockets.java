package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.ir.Listener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gateways that share an address and port ({@link Conflicts#share}: different client networks) as one socket
 * listener: Envoy binds a socket once, so their chains go on the listener of the first of them (the listener's
 * origin; its name follows that Gateway), each chain renamed {@code namespace/gateway-name/chain-name} so the names, and the
 * route configurations named after them, stay unique. A Gateway alone on its socket keeps its listener as lowered.
 */
final class SharedSockets {

  /** A Gateway and its lowered socket, in the order Gateways are lowered. */
  record Lowered(Gateway gateway, Listener.Socket socket) {
  }

  private SharedSockets() {
  }

  /**
   * The sockets to serve, in the order of their first Gateway. Bounded by the Gateways of the config: each is
   * compared only with those lowered before it on the same port.
   */
  static List<Listener.Socket> merge(List<Lowered> lowered) {
    List<List<Lowered>> groups = new ArrayList<>();
    Map<Integer, List<List<Lowered>>> byPort = new HashMap<>();
    for (Lowered one : lowered) {
      List<List<Lowered>> onPort = byPort.computeIfAbsent(one.gateway().port(), p -> new ArrayList<>());
      onPort.stream().filter(group -> group.stream().allMatch(other -> Conflicts.share(other.gateway(), one.gateway())))
          .findFirst().ifPresentOrElse(group -> group.add(one), () -> {
            List<Lowered> group = new ArrayList<>(List.of(one));
            onPort.add(group);
            groups.add(group);
          });
    }
    List<Listener.Socket> out = new ArrayList<>();
    for (List<Lowered> group : groups) {
      if (group.size() == 1) {
        out.add(group.get(0).socket());
        continue;
      }
      List<Listener.FilterChain> chains = new ArrayList<>();
      for (Lowered member : group) {
        String prefix = member.gateway().metadata().namespace() + "/" + member.gateway().metadata().name() + "/";
        member.socket().filterChains().forEach(chain -> chains.add(
            ((Listener.FilterChain.Http) chain).withName(prefix + chain.name())));
      }
      out.add(group.get(0).socket().withFilterChains(chains));
    }
    return out;
  }
}
