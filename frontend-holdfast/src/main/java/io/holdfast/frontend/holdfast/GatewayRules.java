package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.api.Reasons;
import io.holdfast.api.VirtualServiceSelection;

/** A Gateway's own rules; its references are resolved by {@link Validator}. */
final class GatewayRules {

  private GatewayRules() {
  }

  static void check(Gateway gateway, Ledger.Sink sink) {
    MetadataRules.check(gateway.metadata(), sink);
    MetadataRules.checkPort(gateway.port(), "spec.port", sink);
    if (!Syntax.isIpAddress(gateway.bindAddress())) {
      sink.error("spec.bindAddress", Reasons.INVALID_ADDRESS,
          "\"" + gateway.bindAddress() + "\" is not an IP address");
    }
    if (gateway.selection() instanceof VirtualServiceSelection.Named named) {
      for (int i = 0; i < named.refs().size(); i++) {
        String field = "spec.virtualServices[" + i + "]";
        MetadataRules.checkRef(named.refs().get(i), field + ".name", field + ".namespace", sink);
      }
    }
    TcpGatewayRules.checkSourceRanges(gateway.sourcePrefixRanges(), "spec", sink);
    if (gateway.grpcServer() && !gateway.sourcePrefixRanges().isEmpty()) {
      // A gRPC server's listener is one chain for every client (it takes no filter-chain match).
      sink.error("spec.sourcePrefixRanges", Reasons.CONFLICTING_FIELDS, "a grpcServer gateway takes every client;"
          + " leave sourcePrefixRanges out");
    }
  }
}
