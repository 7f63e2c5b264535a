package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** OAuth2 options keep their place through the options' withers, and name their Secret entries resolved. */
class OAuth2OptionsTest {

  private static final OAuth2Options LOGIN = new OAuth2Options(Optional.of(new OAuth2Options.TokenEndpoint(
      "https://idp.test/token", ObjectRef.of("idp"), Duration.ofSeconds(5))), Optional.of("https://idp.test/a"),
      Optional.of("c"), Optional.of(new OAuth2Options.SecretKeyRef(ObjectRef.of("sso"), "client-secret")),
      Optional.of(new OAuth2Options.SecretKeyRef(ObjectRef.of("keys", "sso"), "hmac")), Optional.empty(),
      OAuth2Options.DEFAULT_REDIRECT_PATH, OAuth2Options.DEFAULT_SIGNOUT_PATH, List.of(), List.of(), false, false);

  @Test
  void aWitherKeepsTheLogin() {
    SecurityOptions options = new SecurityOptions(List.of(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.of(LOGIN));
    assertThat(options.withExtAuthz(Optional.empty()).oauth2()).contains(LOGIN);
  }

  @Test
  void theSecretEntriesAreResolvedAgainstTheOwnersNamespace() {
    SecurityOptions options = new SecurityOptions(List.of(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.of(LOGIN));
    assertThat(options.oauth2SecretRefs("web")).containsExactly(
        new OAuth2Options.SecretReference("oauth2.clientSecret", TlsSecretData.secretKey("web", "sso"),
            "client-secret"),
        new OAuth2Options.SecretReference("oauth2.hmacSecret", TlsSecretData.secretKey("keys", "sso"), "hmac"));
    assertThat(LOGIN.effectiveScopes()).containsExactly("openid");
    assertThat(LOGIN.effectiveRedirectUri()).isEqualTo("%REQ(x-forwarded-proto)%://%REQ(:authority)%/oauth2/callback");
  }
}
