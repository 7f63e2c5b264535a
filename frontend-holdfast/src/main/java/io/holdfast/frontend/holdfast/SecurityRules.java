package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.SecretChecks;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.Upstream;
import io.holdfast.api.VirtualService;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rules of {@code security} options ({@link SecurityOptions}) on Holdfast's kinds: their shape by
 * {@link SecurityChecks} (shared with the Gateway API's SecurityPolicy), and what they refer to.
 */
final class SecurityRules {

  static final String JWKS_UPSTREAM_NOT_FOUND = "JwksUpstreamNotFound";
  static final String JWKS_UPSTREAM_REJECTED = "JwksUpstreamRejected";
  static final String EXT_AUTHZ_UPSTREAM_NOT_FOUND = "ExtAuthzUpstreamNotFound";
  static final String EXT_AUTHZ_UPSTREAM_REJECTED = "ExtAuthzUpstreamRejected";
  /** gRPC needs HTTP/2 to the service; Envoy would speak HTTP/1.1 to an Upstream without {@code http2}. */
  static final String EXT_AUTHZ_UPSTREAM_NOT_HTTP2 = "ExtAuthzUpstreamNotHttp2";

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
   * Each remote key set's upstream and the authorisation service's must exist and be served (checked after the
   * upstreams, as the mirror's is); a gRPC authorisation service's must speak HTTP/2.
   */
  static void checkReferences(VirtualService vs, Map<ResourceKey, Upstream> upstreams, Ledger ledger,
      Consent consent) {
    SecurityOptions security = vs.options().security();
    List<SecurityOptions.JwtProvider> providers = security.jwtProviders();
    for (int i = 0; i < providers.size() && i < SecurityChecks.MAX_JWT_PROVIDERS; i++) {
      int index = i;
      providers.get(i).remoteJwks().ifPresent(remote -> reference(vs, remote.upstream(),
          "spec.options.security.jwtProviders[" + index + "].remoteJwks.upstream", JWKS_UPSTREAM_NOT_FOUND,
          JWKS_UPSTREAM_REJECTED, ledger, consent));
    }
    security.extAuthz().filter(a -> !a.disabled()).ifPresent(authz -> {
      authz.grpc().flatMap(ref -> reference(vs, ref, "spec.options.security.extAuthz.grpc.upstream",
          EXT_AUTHZ_UPSTREAM_NOT_FOUND, EXT_AUTHZ_UPSTREAM_REJECTED, ledger, consent))
          .map(upstreams::get).filter(u -> !u.http2())
          .ifPresent(u -> ledger.error(vs.key(), "spec.options.security.extAuthz.grpc.upstream",
              EXT_AUTHZ_UPSTREAM_NOT_HTTP2, u.key() + " does not set http2: true; gRPC needs HTTP/2"));
      authz.http().ifPresent(http -> reference(vs, http.upstream(), "spec.options.security.extAuthz.http.upstream",
          EXT_AUTHZ_UPSTREAM_NOT_FOUND, EXT_AUTHZ_UPSTREAM_REJECTED, ledger, consent));
    });
  }

  /**
   * The Secret entries the VirtualService's security options read ({@link SecretChecks}): permitted by
   * {@code consent}, present in {@code config}, holding what they should.
   */
  static void checkSecrets(VirtualService vs, GatewayConfig config, Consent consent, Ledger.Sink sink) {
    SecretChecks.check(vs.options().security(), "spec.options.security", vs.metadata().namespace(),
        secret -> consent.secret(vs.key(), secret), config::secretOf, report(sink));
  }

  /** The upstream {@code ref} names if it exists and is served; otherwise the error, and empty. */
  static Optional<ResourceKey> reference(VirtualService vs, ObjectRef ref, String field, String notFound,
      String rejected, Ledger ledger, Consent consent) {
    if (!Syntax.isObjectName(ref.name()) || !ref.namespace().map(Syntax::isNamespace).orElse(true)) {
      ledger.error(vs.key(), field, Reasons.INVALID_NAME, "\"" + ref.name() + "\" is not an Upstream name");
      return Optional.empty();
    }
    ResourceKey target = ref.resolve(ResourceKey.UPSTREAM, vs.metadata().namespace());
    if (!ConsentRules.reference(vs.key(), target, field, consent, ledger)) {
      return Optional.empty();
    }
    if (!ledger.isKnown(target)) {
      ledger.error(vs.key(), field, notFound, target + " does not exist");
      return Optional.empty();
    }
    if (ledger.isRejected(target)) {
      ledger.error(vs.key(), field, rejected, target + " is rejected; see its status");
      return Optional.empty();
    }
    return Optional.of(target);
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
