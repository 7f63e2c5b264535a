package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * OAuth2 options keep their place through the options' withers, and name their Secret entries resolved, in
 * {@link SecurityOptions#secretRefs} with the other options'.
 */
class OAuth2OptionsTest {

  private static final OAuth2Options LOGIN = new OAuth2Options(Optional.of(new OAuth2Options.TokenEndpoint(
      "https://idp.test/token", ObjectRef.of("idp"), Duration.ofSeconds(5))), Optional.of("https://idp.test/a"),
      Optional.of("c"), Optional.of(new SecurityOptions.SecretKeyRef(ObjectRef.of("sso"), "client-secret")),
      Optional.of(new SecurityOptions.SecretKeyRef(ObjectRef.of("keys", "sso"), "hmac")), Optional.empty(),
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
    // In the one list of Secret references every option's are fetched and checked by (SecretChecks).
    assertThat(options.secretRefs("web")).containsExactly(
        new SecurityOptions.SecretReference("oauth2.clientSecret", TlsSecretData.secretKey("web", "sso"),
            "client-secret", SecurityOptions.SecretContent.CREDENTIAL),
        new SecurityOptions.SecretReference("oauth2.hmacSecret", TlsSecretData.secretKey("keys", "sso"), "hmac",
            SecurityOptions.SecretContent.CREDENTIAL));
    assertThat(options.withOAuth2(Optional.of(new OAuth2Options(Optional.empty(), Optional.empty(),
        Optional.empty(), LOGIN.clientSecret(), LOGIN.hmacSecret(), Optional.empty(), "/cb", "/out", List.of(),
        List.of(), false, true))).secretRefs("web")).as("a disabled login reads nothing").isEmpty();
    assertThat(LOGIN.effectiveScopes()).containsExactly("openid");
    assertThat(LOGIN.effectiveRedirectUri()).isEqualTo("%REQ(x-forwarded-proto)%://%REQ(:authority)%/oauth2/callback");
  }
}
