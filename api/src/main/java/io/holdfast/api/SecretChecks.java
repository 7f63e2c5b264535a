package io.holdfast.api;

import java.util.Optional;
import java.util.function.Function;

/**
 * The Secret entries security options read ({@link SecurityOptions#secretRefs}), for both front ends: each must be
 * permitted (another namespace's needs the front end's consent, a ReferenceGrant), exist ({@code SecretNotFound}),
 * have the entry, not blank ({@code SecretEntryNotFound}) and hold what the option needs (an htpasswd as Envoy
 * reads it, a key set; an OAuth2 credential is any text). A refused reference's Secret is not looked at, so a
 * status never tells whether another namespace's Secret exists. Messages name Secrets, entries and lines, never
 * their content.
 */
public final class SecretChecks {

  public static final String SECRET_ENTRY_NOT_FOUND = "SecretEntryNotFound";

  private SecretChecks() {
  }

  /**
   * Checks every Secret entry {@code security} (written at {@code at} by an object of {@code namespace}) reads.
   *
   * @param refusal why the referrer may not read a Secret (empty: it may)
   * @param secrets the Secrets of the config
   */
  public static void check(SecurityOptions security, String at, String namespace,
      Function<ResourceKey, Optional<String>> refusal, Function<ResourceKey, Optional<TlsSecretData>> secrets,
      SecurityChecks.Report sink) {
    for (SecurityOptions.SecretReference ref : security.secretRefs(namespace)) {
      String field = at + "." + ref.field();
      Optional<String> refused = refusal.apply(ref.secret());
      if (refused.isPresent()) {
        sink.error(field, Reasons.REF_NOT_PERMITTED, refused.get());
        continue;
      }
      Optional<TlsSecretData> data = secrets.apply(ref.secret());
      if (data.isEmpty()) {
        sink.error(field, Reasons.SECRET_NOT_FOUND, TlsSecretData.describe(ref.secret()) + " does not exist");
        continue;
      }
      String text = data.get().entries().get(ref.entry());
      if (text == null || text.isBlank()) {
        sink.error(field, SECRET_ENTRY_NOT_FOUND, TlsSecretData.describe(ref.secret()) + " has no " + ref.entry()
            + " entry");
        continue;
      }
      String where = TlsSecretData.describe(ref.secret()) + " entry " + ref.entry();
      switch (ref.content()) {
        case HTPASSWD -> Htpasswd.parse(text).refusal().ifPresent(r -> sink.error(field, r.reason(),
            where + ": " + r.message()));
        case JWKS -> SecurityChecks.checkJwks(text, field, where, sink);
        case CREDENTIAL -> {
          // Any non-blank text is a usable client secret or HMAC key; its value is never looked at further.
        }
      }
    }
  }

  /** Whether {@code json} is a key set that passes the checks above without error (Envoy takes it as it is). */
  public static boolean usableJwks(String json) {
    boolean[] ok = {true};
    SecurityChecks.checkJwks(json, "", "", new SecurityChecks.Report() {
      @Override
      public void error(String field, String reason, String message) {
        ok[0] = false;
      }

      @Override
      public void warn(String field, String reason, String message) {
      }

      @Override
      public InputLimits limits() {
        return InputLimits.DEFAULTS;
      }
    });
    return ok[0];
  }
}
