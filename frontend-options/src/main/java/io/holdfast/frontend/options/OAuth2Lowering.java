package io.holdfast.frontend.options;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.OAuth2Options;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.OAuth2Login;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Secret;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lowers {@code security.oauth2} ({@link OAuth2Options}) into the IR for both front ends: the login its owner (a
 * VirtualService, a SecurityPolicy) defines, named {@code namespace/name} in its chain as the owner's other
 * services are, and the two generic {@link Secret}s it names. Secrets are named per owner
 * ({@code oauth2/KIND/namespace/name/client-secret}), so an owner left out of the IR takes only its own secrets
 * with it, and the proxies serving one owner's routes are the only ones that may fetch them.
 */
public final class OAuth2Lowering {

  /** A Secret reference into another namespace: not followed (the Secret's owner has not agreed). */
  public static final String REF_NOT_PERMITTED = "RefNotPermitted";

  private OAuth2Lowering() {
  }

  /** A reference that cannot be read, with the field it is written at (relative to the security options). */
  public record Unresolved(String field, String reason, String message) {
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
   * The references of {@code owner}'s login that cannot be read from {@code config}: another namespace's Secret,
   * a Secret that does not exist, an entry it lacks or holds empty. Messages name Secrets and entries, never
   * values.
   */
  public static List<Unresolved> unresolved(ResourceKey owner, SecurityOptions security, GatewayConfig config) {
    List<Unresolved> problems = new ArrayList<>();
    for (OAuth2Options.SecretReference ref : security.oauth2SecretRefs(owner.namespace())) {
      if (!ref.secret().namespace().equals(owner.namespace())) {
        problems.add(new Unresolved(ref.field(), REF_NOT_PERMITTED, "the OAuth2 login reads Secrets of its own"
            + " namespace only, not " + TlsSecretData.describe(ref.secret())));
      } else if (config.secretOf(ref.secret()).isEmpty()) {
        problems.add(new Unresolved(ref.field(), Reasons.SECRET_NOT_FOUND, TlsSecretData.describe(ref.secret())
            + " does not exist"));
      } else if (value(config, ref).isEmpty()) {
        problems.add(new Unresolved(ref.field(), Reasons.SECRET_NOT_FOUND, TlsSecretData.describe(ref.secret())
            + " has no entry " + ref.entry() + " (or it is empty)"));
      }
    }
    return problems;
  }

  /**
   * The IR secrets of {@code owner}'s login, client secret first; empty if it has none or one cannot be read
   * ({@link #unresolved}: the owner's routes then fail closed).
   */
  public static List<Secret> secrets(ResourceKey owner, String at, SecurityOptions security, GatewayConfig config) {
    Optional<OAuth2Login> login = login(owner, security);
    if (login.isEmpty() || !unresolved(owner, security, config).isEmpty()) {
      return List.of();
    }
    // The references and the login's secret names are both client secret first, HMAC key second.
    List<OAuth2Options.SecretReference> refs = security.oauth2SecretRefs(owner.namespace());
    List<String> names = login.get().secretNames();
    Origin origin = Origin.of(owner).at(at);
    List<Secret> secrets = new ArrayList<>(refs.size());
    for (int i = 0; i < refs.size(); i++) {
      OAuth2Options.SecretReference ref = refs.get(i);
      secrets.add(new Secret(origin.at(ref.field().substring(ref.field().indexOf('.') + 1)), names.get(i),
          new Secret.Content.Generic(value(config, ref).orElseThrow())));
    }
    return secrets;
  }

  /** {@code oauth2/KIND/namespace/name/WHICH}: apart from TLS secrets' names, unique per owner. */
  static String secretName(ResourceKey owner, String which) {
    return "oauth2/" + owner.kind() + "/" + owner.namespace() + "/" + owner.name() + "/" + which;
  }

  private static Optional<String> value(GatewayConfig config, OAuth2Options.SecretReference ref) {
    return config.secretOf(ref.secret()).map(data -> data.entries().get(ref.entry())).filter(v -> !v.isEmpty());
  }
}
