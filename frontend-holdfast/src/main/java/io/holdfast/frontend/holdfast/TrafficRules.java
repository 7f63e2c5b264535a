package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficChecks;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.TrafficReasons;
import io.holdfast.api.VirtualService;
import io.holdfast.api.Upstream;
import java.util.List;
import java.util.Map;

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

  /**
   * Each Upstream the Gateway's options name must exist, be accepted and be one it may reference; one that does
   * not speak HTTP/2 gets a warning, since these services are gRPC.
   */
  static void checkReferences(Gateway gateway, Map<ResourceKey, Upstream> upstreams, Ledger ledger,
      Consent consent) {
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
      } else if (upstreams.containsKey(target) && !upstreams.get(target).http2()) {
        ledger.warn(gateway.key(), use.field(), TrafficReasons.GRPC_SERVICE_WITHOUT_HTTP2, target + " does not set"
            + " http2: true, but this service speaks gRPC, which needs HTTP/2; Envoy's calls to it will fail");
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

  /**
   * Traffic options are left out of proxyless gRPC clients' config (they have none of these filters and would
   * reject a route naming one): one warning per option given.
   */
  static void warnGrpc(TrafficOptions.Route traffic, String at, String domain, Ledger.Sink sink) {
    List<String> given = new java.util.ArrayList<>();
    if (traffic.localRateLimit().isPresent() || traffic.rateLimits().isPresent()) {
      given.add("rateLimit");
    }
    traffic.compression().ifPresent(c -> given.add("compression"));
    traffic.csrf().ifPresent(c -> given.add("csrf"));
    traffic.maxRequestBodyBytes().ifPresent(b -> given.add("maxRequestBodyBytes"));
    for (String field : given) {
      sink.warn(at + "." + field, Reasons.GRPC_IGNORED_OPTION, "gRPC clients of " + domain + " have no filter for"
          + " it and would reject routes naming one: it is left out of their config");
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
