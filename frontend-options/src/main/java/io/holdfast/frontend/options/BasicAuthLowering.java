package io.holdfast.frontend.options;

import io.holdfast.api.Htpasswd;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.ListenerSecurity;
import java.util.Optional;

/**
 * Lowers {@code basicAuth} ({@link SecurityOptions.BasicAuth}) into the IR: the owner's users, read from their
 * Secret and normalised ({@link Htpasswd#render()}), named after the owner like its external authorisation
 * service. Fails closed: users that cannot be read or are not a valid htpasswd (what validation reports, but a
 * last-good object may outlive its Secret) become {@link #NO_USERS}, so every request of its routes is refused
 * (401) rather than served unchecked.
 */
public final class BasicAuthLowering {

  /** An htpasswd Envoy accepts that names no user: nobody passes. */
  static final String NO_USERS = "# no usable users: every request is refused\n";

  private BasicAuthLowering() {
  }

  /** The user set {@code owner} defines in {@code security}, its Secret read through {@code secrets}. */
  public static Optional<ListenerSecurity.BasicAuthUsers> users(ResourceKey owner, SecurityOptions security,
      SecretLookup secrets) {
    return security.basicAuth().filter(b -> !b.disabled()).map(basic -> {
      String htpasswd = basic.users()
          .flatMap(ref -> secrets.entry(TlsSecretData.secretKey(ref.secret(), owner.namespace()), ref.key()))
          .flatMap(text -> Htpasswd.parse(text).users())
          .map(Htpasswd::render)
          .orElse(NO_USERS);
      return new ListenerSecurity.BasicAuthUsers(name(owner), htpasswd, basic.forwardUsernameHeader());
    });
  }

  /**
   * The user set a route checks: its owner's ({@code defaults}), unless the route's {@code own} options turn it
   * off.
   */
  public static Optional<String> route(ResourceKey owner, SecurityOptions defaults, SecurityOptions own) {
    boolean off = own.basicAuth().map(SecurityOptions.BasicAuth::disabled).orElse(false);
    return off ? Optional.empty()
        : defaults.basicAuth().filter(b -> !b.disabled()).map(b -> name(owner));
  }

  /** The name of {@code owner}'s user set in its chain. */
  public static String name(ResourceKey owner) {
    return owner.namespace() + "/" + owner.name();
  }
}
