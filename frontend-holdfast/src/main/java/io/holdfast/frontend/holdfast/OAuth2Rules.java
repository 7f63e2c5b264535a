package io.holdfast.frontend.holdfast;

import io.holdfast.api.OAuth2Options;
import io.holdfast.api.VirtualService;

/**
 * What a VirtualService's OAuth2 login ({@code spec.options.security.oauth2}) refers to: its token endpoint's
 * Upstream must exist and be served; missing, it rejects the VirtualService (which is then not served: its routes
 * never go out without the login). Its client secret and HMAC key are Secret references like basic auth's users,
 * checked with them ({@link SecurityRules#checkSecrets}: missing, wrong entry, or another namespace's without a
 * ReferenceGrant). The shape is {@link io.holdfast.api.OAuth2Checks}' (through {@link SecurityRules#check}).
 */
final class OAuth2Rules {

  static final String OAUTH2_UPSTREAM_NOT_FOUND = "OAuth2UpstreamNotFound";
  static final String OAUTH2_UPSTREAM_REJECTED = "OAuth2UpstreamRejected";
  private static final String AT = "spec.options.security.";

  private OAuth2Rules() {
  }

  static void checkReferences(VirtualService vs, Ledger ledger, Consent consent) {
    OAuth2Options oauth2 = vs.options().security().oauth2().filter(o -> !o.disabled()).orElse(null);
    if (oauth2 == null) {
      return;
    }
    oauth2.tokenEndpoint().ifPresent(token -> SecurityRules.reference(vs, token.upstream(),
        AT + "oauth2.tokenEndpoint.upstream", OAUTH2_UPSTREAM_NOT_FOUND, OAUTH2_UPSTREAM_REJECTED, ledger,
        consent));
  }
}
