package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** htpasswd as Envoy's basic_auth reads it: refusals named, with the line, never the name or hash. */
class HtpasswdTest {

  private static final String ALICE = "alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=";
  private static final String BOB = "bob:{SHA}bOWgjgJew8XNjPXTyFghAc+ha1M=";

  private static Htpasswd.Refusal refusal(String text) {
    Htpasswd.Result result = Htpasswd.parse(text);
    assertThat(result.users()).isEmpty();
    return result.refusal().orElseThrow();
  }

  @Test
  void shaLinesAreReadCommentsEmptyLinesAndCarriageReturnsDroppedAndTheTextRenderedNormalised() {
    Htpasswd users = Htpasswd.parse("# team\r\n" + ALICE + "\r\n\n" + BOB).users().orElseThrow();
    assertThat(users.size()).isEqualTo(2);
    assertThat(users.render()).isEqualTo(ALICE + "\n" + BOB + "\n");
    assertThat(users.toString()).isEqualTo("Htpasswd[2 users]").doesNotContain("alice");
  }

  @Test
  void otherHashSchemesAreUnsupportedHashFormatNamingTheLineAndScheme() {
    Htpasswd.Refusal bcrypt = refusal(ALICE + "\ncarol:$2y$05$abcdefghijklmnopqrstuuvwxyzABCDEFGHIJKLMNOPQRSTU");
    assertThat(bcrypt.reason()).isEqualTo(Htpasswd.UNSUPPORTED_HASH_FORMAT);
    assertThat(bcrypt.message()).contains("line 2", "bcrypt").doesNotContain("carol").doesNotContain("$2y$05");
    Htpasswd.Refusal md5 = refusal("dave:$apr1$salt$hashhashhash");
    assertThat(md5.message()).contains("line 1", "apr1").doesNotContain("salt");
    Htpasswd.Refusal plain = refusal("erin:hunter2");
    assertThat(plain.reason()).isEqualTo(Htpasswd.UNSUPPORTED_HASH_FORMAT);
    assertThat(plain.message()).doesNotContain("hunter2").doesNotContain("erin");
  }

  @Test
  void malformedLinesAreInvalidHtpasswdAndNothingIsEmptyUsers() {
    assertThat(refusal("no colon here").reason()).isEqualTo(Htpasswd.INVALID_HTPASSWD);
    assertThat(refusal(":{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=").message()).contains("line 1", "empty");
    assertThat(refusal(ALICE + "\n" + ALICE).message()).isEqualTo("line 2 repeats the user of line 1");
    assertThat(refusal("frank:{SHA}tooShort").message()).contains("20-byte").doesNotContain("tooShort");
    assertThat(refusal("frank:{SHA}!!!!!!!!!!!!!!!!!!!!!!!!!!!!").reason()).isEqualTo(Htpasswd.INVALID_HTPASSWD);
    assertThat(refusal("# only a comment\n\n").reason()).isEqualTo(Htpasswd.EMPTY_USERS);
    assertThat(refusal("").reason()).isEqualTo(Htpasswd.EMPTY_USERS);
  }

  @Test
  void sizeAndUserCountAreBounded() {
    assertThat(refusal("#".repeat(Htpasswd.MAX_CHARS + 1)).message()).contains(String.valueOf(Htpasswd.MAX_CHARS));
    StringBuilder many = new StringBuilder();
    for (int i = 0; i <= Htpasswd.MAX_USERS; i++) {
      many.append('u').append(i).append(":{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=\n");
    }
    assertThat(refusal(many.toString()).reason()).isEqualTo(SecurityChecks.TOO_MANY);
  }
}
