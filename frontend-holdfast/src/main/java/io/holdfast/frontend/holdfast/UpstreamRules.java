package io.holdfast.frontend.holdfast;

import io.holdfast.api.Reasons;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;

/** An Upstream's own rules (it references nothing; what gRPC clients make of it is in {@link GrpcRules}). */
final class UpstreamRules {

  static final int MAX_HOST_WEIGHT = 128;

  private UpstreamRules() {
  }

  static void check(Upstream upstream, Ledger.Sink sink) {
    MetadataRules.check(upstream.metadata(), sink);
    if (upstream.connectTimeout().isZero() || upstream.connectTimeout().isNegative()) {
      sink.error("spec.connectTimeout", Reasons.INVALID_DURATION, "connectTimeout must be greater than 0");
    }
    if (upstream.target() instanceof UpstreamTarget.Static hosts) {
      for (int i = 0; i < hosts.hosts().size(); i++) {
        checkHost(hosts.hosts().get(i), "spec.static.hosts[" + i + "]", sink);
      }
    } else if (upstream.target() instanceof UpstreamTarget.Kube kube) {
      if (!Syntax.isServiceName(kube.name())) {
        sink.error("spec.kube.name", Reasons.INVALID_NAME, "\"" + kube.name() + "\" is not a valid Service name");
      }
      kube.namespace().filter(ns -> !Syntax.isNamespace(ns)).ifPresent(ns ->
          sink.error("spec.kube.namespace", Reasons.INVALID_NAME, "\"" + ns + "\" is not a valid namespace"));
      MetadataRules.checkPort(kube.port(), "spec.kube.port", sink);
    }
  }

  private static void checkHost(UpstreamTarget.Host host, String field, Ledger.Sink sink) {
    if (!Syntax.isIpAddress(host.address())) {
      sink.error(field + ".address", Reasons.INVALID_ADDRESS,
          "\"" + host.address() + "\" is not an IP address (host names are not resolved)");
    }
    MetadataRules.checkPort(host.port(), field + ".port", sink);
    if (host.weight() < 1 || host.weight() > MAX_HOST_WEIGHT) {
      sink.error(field + ".weight", Reasons.INVALID_WEIGHT,
          "weight " + host.weight() + " is out of range 1-" + MAX_HOST_WEIGHT);
    }
  }
}
