package io.holdfast.frontend.holdfast;

import io.holdfast.api.InputLimits;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.VirtualService;
import java.util.List;
import java.util.Optional;

/**
 * Rules of {@code security} options ({@link SecurityOptions}) on Holdfast's kinds: their shape by
 * {@link SecurityChecks} (shared with the Gateway API's SecurityPolicy), and what they refer to.
 */
final class SecurityRules {

  static final String JWKS_UPSTREAM_NOT_FOUND = "JwksUpstreamNotFound";
  static final String JWKS_UPSTREAM_REJECTED = "JwksUpstreamRejected";

  private SecurityRules() {
  }

  /** The shape of the VirtualService's security options ({@link SecurityChecks}), into its status. */
  static void check(VirtualService vs, Ledger.Sink sink) {
    SecurityChecks.check(vs, report(sink));
  }

  /** A RouteTable's routes' security options: their own shape only. */
  static void check(List<Route> routes, Ledger.Sink sink) {
    SecurityChecks.check(routes, report(sink));
  }

  /**
   * Each remote key set's upstream must exist and be served (checked after the upstreams, as the mirror's is).
   */
  static void checkReferences(VirtualService vs, Ledger ledger, Consent consent) {
    List<SecurityOptions.JwtProvider> providers = vs.options().security().jwtProviders();
    for (int i = 0; i < providers.size() && i < SecurityChecks.MAX_JWT_PROVIDERS; i++) {
      Optional<SecurityOptions.RemoteJwks> remote = providers.get(i).remoteJwks();
      if (remote.isEmpty()) {
        continue;
      }
      String field = "spec.options.security.jwtProviders[" + i + "].remoteJwks.upstream";
      ObjectRef ref = remote.get().upstream();
      if (!Syntax.isObjectName(ref.name()) || !ref.namespace().map(Syntax::isNamespace).orElse(true)) {
        ledger.error(vs.key(), field, Reasons.INVALID_NAME, "\"" + ref.name() + "\" is not an Upstream name");
        continue;
      }
      ResourceKey target = ref.resolve(ResourceKey.UPSTREAM, vs.metadata().namespace());
      if (!ConsentRules.reference(vs.key(), target, field, consent, ledger)) {
        continue;
      }
      if (!ledger.isKnown(target)) {
        ledger.error(vs.key(), field, JWKS_UPSTREAM_NOT_FOUND, target + " does not exist");
      } else if (ledger.isRejected(target)) {
        ledger.error(vs.key(), field, JWKS_UPSTREAM_REJECTED, target + " is rejected; see its status");
      }
    }
  }

  private static SecurityChecks.Report report(Ledger.Sink sink) {
    return new SecurityChecks.Report() {
      @Override
      public void error(String field, String reason, String message) {
        sink.error(field, reason, message);
      }

      @Override
      public void warn(String field, String reason, String message) {
        sink.warn(field, reason, message);
      }

      @Override
      public InputLimits limits() {
        return sink.limits();
      }
    };
  }
}
