package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Checks the RE2 check against re2j, the engine grpc-java uses, and the checks RE2 does not make. */
class Re2SyntaxTest {

  @ParameterizedTest
  @ValueSource(strings = {"/api/.*", "/v[0-9]+/items", "^/(a|b)$", "(?i)/Case", "(?P<id>[0-9]+)", "(?<id>[0-9]+)", "[(?=]",
      "\\Q(?=\\E", "a{2,3}", "[^\\]]+", "\\d\\w\\s\\b", "\\(?=x\\)", "x*?"})
  void acceptsWhatRe2Accepts(String regex) {
    assertThat(Re2Syntax.error(regex)).isNull();
    assertThatCode(() -> com.google.re2j.Pattern.compile(regex)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b", "(?>ab)", "a*+", "a++", "a?+", "a{2}+",
      "(a)\\1", "(?<n>a)\\k<n>", "\\Gab", "a\\Z", "\\R", "(a", "[a", "*a", "", "a\\h"})
  void rejectsWhatRe2Rejects(String regex) {
    assertThat(Re2Syntax.error(regex)).isNotNull();
    boolean re2Rejects;
    try {
      com.google.re2j.Pattern.compile(regex);
      re2Rejects = false;
    } catch (com.google.re2j.PatternSyntaxException e) {
      re2Rejects = true;
    }
    // The empty regex compiles in RE2, but Envoy requires a non-empty one.
    assertThat(re2Rejects || regex.isEmpty()).as("re2j rejects %s", regex).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"[a-z&&[^e]]"})
  void rejectsWhatMeansSomethingElseInRe2(String regex) {
    // RE2 reads "&&" and "[" as literal class members: same text, different language.
    assertThat(Re2Syntax.error(regex)).isNotNull();
    assertThat(com.google.re2j.Pattern.compile(regex).matches("&]")).isTrue();
    assertThat(java.util.regex.Pattern.compile(regex).matcher("&]").matches()).isFalse();
  }

  /** java.util.regex accepts these, so the old approximation on top of it let them through; Envoy NACKs them. */
  @ParameterizedTest
  @ValueSource(strings = {"\\p{javaLowerCase}+", "a{1001}", "[[:word:]]x\\p{IsAlphabetic}"})
  void rejectsJavaOnlySyntax(String regex) {
    assertThat(Re2Syntax.error(regex)).isNotNull();
  }

  /** Verdicts are remembered, the same on the second asking, and the memory stays bounded. */
  @Test
  void verdictsAreRememberedWithinABound() {
    String bad = "(unclosed-" + System.nanoTime();
    String error = Re2Syntax.error(bad);
    assertThat(error).isNotNull();
    assertThat(Re2Syntax.error(bad)).isEqualTo(error);
    assertThat(Re2Syntax.error("/ok/[0-9]+")).isNull();
    assertThat(Re2Syntax.error("/ok/[0-9]+")).isNull();
    for (int i = 0; i < Re2Syntax.REMEMBERED + 10; i++) {
      assertThat(Re2Syntax.error("/many/" + i)).isNull();
      assertThat(Re2Syntax.remembered()).isLessThanOrEqualTo(Re2Syntax.REMEMBERED);
    }
    assertThat(Re2Syntax.error(bad)).isEqualTo(error);
  }
}
