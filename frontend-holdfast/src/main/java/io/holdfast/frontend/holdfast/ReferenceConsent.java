package io.holdfast.frontend.holdfast;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;

/**
 * Whether one object may name an Upstream or RouteTable of another namespace, judged as the validator judges it
 * ({@link Consent}: the access policy's {@code crossNamespaceRefs} and the config's ReferenceGrants). For a front end
 * that must choose, before validation, which objects a generated reference may name (Gloo's
 * {@code forwardSniClusterName}); the validator still checks every reference it then writes. Immutable.
 */
public final class ReferenceConsent {

  private final Consent consent;

  private ReferenceConsent(Consent consent) {
    this.consent = consent;
  }

  /** The consent {@code config}'s ReferenceGrants give under {@code mode}. */
  public static ReferenceConsent of(AccessPolicy.CrossNamespaceRefs mode, GatewayConfig config) {
    return new ReferenceConsent(Consent.of(mode, config));
  }

  /** Whether {@code referrer} may name {@code target} (an Upstream or RouteTable key). */
  public boolean permits(ResourceKey referrer, ResourceKey target) {
    return consent.reference(referrer, target).isEmpty();
  }
}
