package io.holdfast.frontend.holdfast;

import com.google.common.net.InetAddresses;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.Reasons;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Claims.Claim;
import io.holdfast.ir.Claims.Claimant;
import io.holdfast.ir.Claims.Loss;
import io.holdfast.ir.Claims;
import java.net.InetAddress;
import java.util.List;

/**
 * Resources that cannot coexist in one Envoy config: two VirtualServices claiming one domain (Envoy rejects a
 * route table with a duplicate domain, and the proxyless-gRPC listener is named by the domain), and two Gateways
 * on one address and port. {@link Claims} settles them: the oldest claimant wins; every loser is rejected naming
 * the winner. Only candidates not rejected for other reasons take part, so a rejected resource never blocks one
 * that would otherwise be served.
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

  static void listeners(List<Gateway> candidates, Ledger ledger) {
    List<Claim<Gateway>> claims = candidates.stream().map(g -> new Claim<>(claimant(g), List.of(g))).toList();
    for (Loss<Gateway> loss : Claims.settle(claims, Gateway::port, Conflicts::overlaps)) {
      Gateway gateway = loss.value();
      Gateway owner = loss.held();
      ledger.error(gateway.key(), "spec.port", Reasons.DUPLICATE_LISTENER, "address " + gateway.bindAddress()
          + " port " + gateway.port() + " is already used by " + owner.key() + " (" + owner.bindAddress()
          + "), which is older");
    }
  }

  /** Same port, and the same address or either one is the any-address. */
  static boolean overlaps(Gateway a, Gateway b) {
    return a.port() == b.port() && overlaps(a.bindAddress(), b.bindAddress());
  }

  static boolean overlaps(String a, String b) {
    InetAddress first = InetAddresses.forString(a);
    InetAddress second = InetAddresses.forString(b);
    return first.equals(second) || first.isAnyLocalAddress() || second.isAnyLocalAddress();
  }
}
