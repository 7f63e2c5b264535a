package io.holdfast.frontend.options;

import io.holdfast.api.OAuth2Options;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.OAuth2Login;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Secret;
import java.util.List;
import java.util.Optional;

/**
 * Lowers {@code security.oauth2} ({@link OAuth2Options}) into the IR for both front ends: the login its owner (a
 * VirtualService, a SecurityPolicy) defines, named {@code namespace/name} in its chain as the owner's other
 * services are, and the two generic {@link Secret}s it names. The references themselves are checked with the other
 * options' ({@link SecurityOptions#secretRefs}, {@link io.holdfast.api.SecretChecks}); here they are only read.
 * Secrets are named per owner ({@code oauth2/KIND/namespace/name/client-secret}, whichever namespace the Secret is
 * in), so an owner left out of the IR takes only its own secrets with it, and the proxies serving one owner's routes
 * are the only ones that may fetch them.
 */
public final class OAuth2Lowering {

  private OAuth2Lowering() {
  }

  /** The login {@code owner} defines in {@code security}; empty if none or disabled. */
  public static Optional<OAuth2Login> login(ResourceKey owner, SecurityOptions security) {
    return security.oauth2().filter(o -> !o.disabled()).flatMap(o -> o.tokenEndpoint().flatMap(token ->
        o.authorizationEndpoint().flatMap(authorization -> o.clientId().map(clientId -> new OAuth2Login(
            SecurityOptionsLowering.serviceName(owner),
            token.upstream().resolve(ResourceKey.UPSTREAM, owner.namespace()), token.uri(), token.timeout(),
            authorization, clientId, secretName(owner, "client-secret"), secretName(owner, "hmac-secret"),
            o.effectiveRedirectUri(), o.redirectPath(), o.signoutPath(), o.effectiveScopes(),
            o.passThroughHeaders().stream().map(SecurityOptionsLowering::header).toList(),
            o.forwardBearerToken())))));
  }

  /**
   * The IR secrets of {@code owner}'s login, client secret first, read through {@code secrets} (which holds only
   * what the owner may read: its own namespace's, or another's a ReferenceGrant there permits). Empty if it has no
   * login or a credential cannot be read (what {@link io.holdfast.api.SecretChecks} reports; a last-good object may
   * outlive its Secret): the login's routes then fail closed, as Envoy's filter has no credential to log in with.
   */
  public static List<Secret> secrets(ResourceKey owner, String at, SecurityOptions security, SecretLookup secrets) {
    Optional<OAuth2Login> login = login(owner, security);
    Optional<OAuth2Options> oauth2 = security.oauth2();
    if (login.isEmpty() || oauth2.isEmpty()) {
      return List.of();
    }
    Optional<String> clientSecret = value(owner, oauth2.get().clientSecret(), secrets);
    Optional<String> hmacSecret = value(owner, oauth2.get().hmacSecret(), secrets);
    if (clientSecret.isEmpty() || hmacSecret.isEmpty()) {
      return List.of();
    }
    Origin origin = Origin.of(owner).at(at);
    return List.of(
        new Secret(origin.at("clientSecret"), login.get().clientSecretName(),
            new Secret.Content.Generic(clientSecret.get())),
        new Secret(origin.at("hmacSecret"), login.get().hmacSecretName(),
            new Secret.Content.Generic(hmacSecret.get())));
  }

  /** {@code oauth2/KIND/namespace/name/WHICH}: apart from TLS secrets' names, unique per owner. */
  static String secretName(ResourceKey owner, String which) {
    return "oauth2/" + owner.kind() + "/" + owner.namespace() + "/" + owner.name() + "/" + which;
  }

  /** The entry {@code ref} names, if the owner may read it and it is not blank (as SecretChecks requires). */
  private static Optional<String> value(ResourceKey owner, Optional<SecurityOptions.SecretKeyRef> ref,
      SecretLookup secrets) {
    return ref.flatMap(r -> secrets.entry(TlsSecretData.secretKey(r.secret(), owner.namespace()), r.key()))
        .filter(v -> !v.isBlank());
  }
}
