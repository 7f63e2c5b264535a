package io.holdfast.frontend.holdfast;

import io.holdfast.api.Reasons;
import io.holdfast.api.VirtualService;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A VirtualService's own rules; upstream references and domain ownership are decided by {@link Validator}. */
final class VirtualServiceRules {

  private VirtualServiceRules() {
  }

  static void check(VirtualService vs, Ledger.Sink sink) {
    MetadataRules.check(vs.metadata(), sink);
    checkDomains(vs.domains(), sink);
    RouteOptionsRules.check(vs.options(), sink);
    for (int i = 0; i < vs.routes().size(); i++) {
      RouteRules.check(vs.routes().get(i), "spec.routes[" + i + "]", sink);
    }
  }

  private static void checkDomains(List<String> domains, Ledger.Sink sink) {
    if (domains.isEmpty()) {
      sink.error("spec.domains", Reasons.INVALID_DOMAIN, "at least one domain is required (\"*\" matches any)");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < domains.size(); i++) {
      String domain = domains.get(i);
      String field = "spec.domains[" + i + "]";
      String error = Syntax.domainError(domain);
      if (error != null) {
        sink.error(field, Reasons.INVALID_DOMAIN, "\"" + domain + "\" is not a valid domain: " + error);
      } else if (!seen.add(domain)) {
        sink.error(field, Reasons.DUPLICATE_DOMAIN, "domain \"" + domain + "\" is listed twice");
      }
    }
  }
}
