package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityOptions;
import io.holdfast.ir.Finding;
import java.util.List;
import java.util.Set;

/**
 * What a SecurityPolicy's OAuth2 login ({@code spec.oauth2}) refers to: the token endpoint's Holdfast Upstream (named
 * as the policy's JWKS and authorisation services are). Missing, it is an error on the policy, which makes it
 * invalid: its targets' routes then refuse every request ({@link SecurityPolicies}). The client secret and HMAC key
 * are checked with the policy's other Secret references ({@link io.holdfast.api.SecretChecks}: another namespace's
 * needs a ReferenceGrant there, as basic auth's users do).
 */
final class OAuth2Policies {

  private OAuth2Policies() {
  }

  /**
   * A warning for a login on GRPCRoutes: a gRPC client cannot follow the browser redirect to the identity provider,
   * so its calls fail unless a pass-through matcher lets them by.
   */
  static void warnGrpc(SecurityOptions options, List<PolicyTargets.Target> targets, List<Finding> found) {
    boolean login = options.oauth2().filter(o -> !o.disabled()).isPresent();
    if (login && targets.stream().anyMatch(target -> target.object().kind().equals("GRPCRoute"))) {
      found.add(new Finding(Finding.Severity.WARNING, "spec.oauth2", Reasons.GRPC_INCOMPATIBLE, "gRPC clients"
          + " cannot follow the login's redirect to the identity provider; let them by with passThroughHeaders"
          + " (e.g. content-type prefix application/grpc) or a GRPCRoute policy with oauth2: {disabled: true}"));
    }
  }

  /**
   * The token endpoint's Upstream of {@code options}' login (if any) must exist; an error in {@code found} if not.
   * Checked beside the policy's other upstreams, whatever else is wrong with it, so one status names every problem.
   */
  static void checkTokenEndpoint(ResourceKey policy, SecurityOptions options, Set<ResourceKey> upstreams,
      List<Finding> found) {
    options.oauth2().filter(o -> !o.disabled()).flatMap(o -> o.tokenEndpoint())
        .map(token -> token.upstream().resolve(ResourceKey.UPSTREAM, policy.namespace()))
        .filter(upstream -> !upstreams.contains(upstream))
        .ifPresent(upstream -> found.add(new Finding(Finding.Severity.ERROR, "spec.oauth2.tokenEndpoint.upstream",
            SecurityPolicies.OAUTH2_UPSTREAM_NOT_FOUND, "Upstream " + upstream.namespace() + "/" + upstream.name()
            + " does not exist")));
  }
}
