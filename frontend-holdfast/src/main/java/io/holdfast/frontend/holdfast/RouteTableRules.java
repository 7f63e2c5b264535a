package io.holdfast.frontend.holdfast;

import io.holdfast.api.RouteTable;

/**
 * A RouteTable's own rules: its name and each route's, as a VirtualService's. References and delegation (cycles,
 * prefixes) are decided by {@link Validator} and {@link DelegationRules}.
 */
final class RouteTableRules {

  private RouteTableRules() {
  }

  static void check(RouteTable table, Ledger.Sink sink) {
    MetadataRules.check(table.metadata(), sink);
    for (int i = 0; i < table.routes().size(); i++) {
      RouteRules.check(table.routes().get(i), "spec.routes[" + i + "]", sink);
    }
  }
}
