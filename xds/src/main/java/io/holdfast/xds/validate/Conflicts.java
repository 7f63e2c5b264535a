package io.holdfast.xds.validate;

import com.google.common.net.InetAddresses;
import io.holdfast.xds.model.Gateway;
import io.holdfast.xds.model.Reasons;
import io.holdfast.xds.model.ResourceKey;
import io.holdfast.xds.model.VirtualService;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Resources that cannot coexist in one Envoy config: two VirtualServices claiming one domain (Envoy rejects a
 * route table with a duplicate domain, and the proxyless-gRPC listener is named by the domain), and two Gateways
 * on one address and port. The oldest claimant ({@link AgeOrder}) wins; every loser is rejected naming the
 * winner. Only candidates not rejected for other reasons take part, so a rejected resource never blocks one
 * that would otherwise be served.
 */
final class Conflicts {

  private Conflicts() {
  }

  static void domains(List<VirtualService> candidates, Ledger ledger) {
    Map<String, ResourceKey> owners = new HashMap<>();
    List<VirtualService> ordered = new ArrayList<>(candidates);
    ordered.sort(AgeOrder.OLDEST_FIRST);
    for (VirtualService vs : ordered) {
      boolean lost = false;
      for (int i = 0; i < vs.domains().size(); i++) {
        ResourceKey owner = owners.get(vs.domains().get(i));
        if (owner != null) {
          lost = true;
          ledger.error(vs.key(), "spec.domains[" + i + "]", Reasons.DUPLICATE_DOMAIN, "domain \""
              + vs.domains().get(i) + "\" is already served by " + owner + ", which is older");
        }
      }
      if (!lost) {
        vs.domains().forEach(domain -> owners.put(domain, vs.key()));
      }
    }
  }

  static void listeners(List<Gateway> candidates, Ledger ledger) {
    List<Gateway> owners = new ArrayList<>();
    List<Gateway> ordered = new ArrayList<>(candidates);
    ordered.sort(AgeOrder.OLDEST_FIRST);
    for (Gateway gateway : ordered) {
      Gateway owner = owners.stream().filter(o -> overlaps(o, gateway)).findFirst().orElse(null);
      if (owner == null) {
        owners.add(gateway);
      } else {
        ledger.error(gateway.key(), "spec.port", Reasons.DUPLICATE_LISTENER, "address " + gateway.bindAddress()
            + " port " + gateway.port() + " is already used by " + owner.key() + " (" + owner.bindAddress()
            + "), which is older");
      }
    }
  }

  /** Same port, and the same address or either one is the any-address. */
  private static boolean overlaps(Gateway a, Gateway b) {
    if (a.port() != b.port()) {
      return false;
    }
    InetAddress first = InetAddresses.forString(a.bindAddress());
    InetAddress second = InetAddresses.forString(b.bindAddress());
    return first.equals(second) || first.isAnyLocalAddress() || second.isAnyLocalAddress();
  }
}
