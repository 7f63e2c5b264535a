package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficChecks;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.TrafficReasons;
import io.holdfast.api.VirtualService;
import java.util.List;

/**
 * Rules of traffic options on the Holdfast kinds: a Gateway's {@code spec.options} and the traffic fields of
 * route and VirtualService options ({@link TrafficChecks}: an error rejects the object, whose last accepted
 * version keeps serving), and the Upstreams a Gateway's access logs and rate-limit service name.
 */
final class TrafficRules {

  private TrafficRules() {
  }

  static void checkGateway(Gateway gateway, Ledger.Sink sink) {
    report(TrafficChecks.listener(gateway.options(), "spec.options"), sink);
  }

  static void checkRoute(TrafficOptions.Route traffic, String at, Ledger.Sink sink) {
    report(TrafficChecks.route(traffic, at), sink);
  }

  /** Each Upstream the Gateway's options name must exist, be accepted and be one it may reference. */
  static void checkReferences(Gateway gateway, Ledger ledger, Consent consent) {
    String namespace = gateway.metadata().namespace();
    for (TrafficChecks.UpstreamUse use : TrafficChecks.upstreams(gateway.options(), "spec.options")) {
      if (!Syntax.isObjectName(use.upstream().name())
          || !use.upstream().namespace().map(Syntax::isNamespace).orElse(true)) {
        ledger.error(gateway.key(), use.field(), Reasons.INVALID_NAME, "\"" + use.upstream().name()
            + "\" is not an Upstream name");
        continue;
      }
      ResourceKey target = use.upstream().resolve(ResourceKey.UPSTREAM, namespace);
      if (!ConsentRules.reference(gateway.key(), target, use.field(), consent, ledger)) {
        continue;
      }
      if (!ledger.isKnown(target)) {
        ledger.error(gateway.key(), use.field(), use.notFoundReason(), target + " does not exist");
      } else if (ledger.isRejected(target)) {
        ledger.error(gateway.key(), use.field(), Reasons.UPSTREAM_REJECTED, target + " is rejected; see its status");
      }
    }
  }

  /**
   * A warning on the Gateway when a VirtualService it serves sends rate-limit descriptors and the Gateway names no
   * rate-limit service: Envoy would not ask anyone, so the routes are not limited.
   */
  static void warnMissingService(Gateway gateway, List<VirtualService> served, Ledger ledger) {
    if (gateway.options().rateLimitService().isPresent()) {
      return;
    }
    for (VirtualService vs : served) {
      boolean descriptors = vs.options().traffic().rateLimits().filter(l -> !l.isEmpty()).isPresent()
          || vs.routes().stream().anyMatch(r -> r.options().traffic().rateLimits().filter(l -> !l.isEmpty())
              .isPresent());
      if (descriptors) {
        ledger.warn(gateway.key(), "spec.options.rateLimitService", TrafficReasons.RATE_LIMIT_SERVICE_MISSING,
            vs.key() + " sends rate-limit descriptors, but this Gateway names no rate-limit service: its routes"
                + " are not limited by them");
        return;
      }
    }
  }

  private static void report(List<Problem> problems, Ledger.Sink sink) {
    for (Problem problem : problems) {
      if (problem.reason().equals(Reasons.FIELD_IGNORED)) {
        sink.warn(problem.field(), problem.reason(), problem.message());
      } else {
        sink.error(problem.field(), problem.reason(), problem.message());
      }
    }
  }
}
