package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntaxTest {

  @ParameterizedTest
  @ValueSource(strings = {"*", "echo.test", "echo.test:8080", "*.example.com", "*-bar.example.com", "api.*",
      "api-*", "localhost", "a"})
  void validDomains(String domain) {
    assertThat(Syntax.domainError(domain)).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Echo.test", "a.*.b", "**", "*a*", "a..b", "-a.test", "a.test:0", "a b", ":80",
      "a_b.test", "*."})
  void invalidDomains(String domain) {
    assertThat(Syntax.domainError(domain)).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "backend.test", "Backend.Test", "a-b.c1.test", "api.test.", "x1", "1a.test"})
  void hostNames(String name) {
    assertThat(Syntax.isHostName(name)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "a..test", "-a.test", "a-.test", "a_b.test", "127.0.0.256", "10.1", "a b",
      "backend.test:80", "*.test"})
  void notHostNames(String name) {
    assertThat(Syntax.isHostName(name)).isFalse();
  }

  /** The hand-written checks agree with the Kubernetes regexes on many strings near the boundary. */
  @Test
  void objectNamesAndNamespacesFollowTheKubernetesPatterns() {
    Pattern subdomain = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    Pattern label = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    Random random = new Random(7);
    String alphabet = "az09-.A_";
    int valid = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder name = new StringBuilder();
      int length = random.nextInt(9);
      for (int k = 0; k < length; k++) {
        name.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String text = name.toString();
      assertThat(Syntax.isObjectName(text)).as(text).isEqualTo(subdomain.matcher(text).matches());
      assertThat(Syntax.isNamespace(text)).as(text).isEqualTo(label.matcher(text).matches());
      valid += Syntax.isObjectName(text) ? 1 : 0;
    }
    assertThat(valid).isGreaterThan(1000); // the sample holds plenty of both verdicts
    assertThat(Syntax.isObjectName("a".repeat(253))).isTrue();
    assertThat(Syntax.isObjectName("a".repeat(254))).isFalse();
    assertThat(Syntax.isNamespace("a".repeat(63))).isTrue();
    assertThat(Syntax.isNamespace("a".repeat(64))).isFalse();
  }
}
