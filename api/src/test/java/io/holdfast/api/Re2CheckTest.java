package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Re2CheckTest {

  private static final InputLimits LIMITS = InputLimits.DEFAULTS;
  private static final InputLimits GENEROUS = InputLimits.DEFAULTS.withMaxRegexLength(2_000_000)
      .withMaxRegexProgramSize(1 << 20);

  private static String reason(String regex, InputLimits limits) {
    return Re2Check.refusal(regex, limits).map(Re2Check.Refusal::reason).orElse("usable");
  }

  @Test
  void nestedRepetitionIsRefusedBeforeAnythingExpandsIt() {
    // The 23 bytes: re2j would expand them to 10^9 nodes (OutOfMemoryError); RE2 refuses them.
    String bomb = "((a{1000}){1000}){1000}";
    assertThat(Re2Check.refusal(bomb, GENEROUS)).hasValueSatisfying(r -> {
      assertThat(r.reason()).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
      assertThat(r.message()).contains("nests counted repetitions", "1000");
    });
    assertThat(reason("(a{10}){101}", GENEROUS)).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
    assertThat(reason("(a{10}){100}", GENEROUS)).isEqualTo("usable");
    assertThat(reason("a{1001}", GENEROUS)).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
    // Unbounded repetitions count their minimum, as RE2's RepetitionWalker does.
    assertThat(reason("(?:(?:a{2,}){25,}){20,}x{2}", GENEROUS)).isEqualTo("usable");
    assertThat(reason("(?:(?:(?:a{2,}){25,}){20,}){2}", GENEROUS)).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
  }

  @Test
  void aLongLiteralIsRefusedByLengthThenByItsSizeWithoutCompiling() {
    String literal = "a".repeat(1 << 20);
    assertThat(Re2Check.refusal(literal, LIMITS)).hasValueSatisfying(r -> {
      assertThat(r.reason()).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
      assertThat(r.message()).contains("1048576 characters long", "--max-regex-length").hasSizeLessThan(300);
    });
    long start = System.nanoTime();
    assertThat(Re2Check.refusal(literal, GENEROUS.withMaxRegexProgramSize(1000))).hasValueSatisfying(r ->
        assertThat(r.message()).contains("at least 1048578 instructions"));
    assertThat(System.nanoTime() - start).isLessThan(1_000_000_000L);
  }

  @Test
  void programSizeIsEnvoysDefaultOf100() {
    // Envoy reported this one at 106 (> 100): it is refused here too.
    String envoyRefused = "^/user/(488/sms|h5/getJwt|captcha|version/getAIDrawTemplate|version/isMainLand"
        + "|version/promotionTemplate|version/activityTemplate2).*";
    assertThat(Re2Check.refusal(envoyRefused, LIMITS)).hasValueSatisfying(r -> {
      assertThat(r.reason()).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
      assertThat(r.message()).contains("program of 111 instructions", "more than 100");
    });
    assertThat(reason(envoyRefused, LIMITS.withMaxRegexProgramSize(200))).isEqualTo("usable");
    assertThat(reason("/api/v[0-9]+/.*", LIMITS)).isEqualTo("usable");
  }

  @Test
  void syntaxErrorsStayInvalidRegex() {
    assertThat(reason("(unclosed", LIMITS)).isEqualTo(Reasons.INVALID_REGEX);
    assertThat(reason("\\p{javaLowerCase}", LIMITS)).isEqualTo(Reasons.INVALID_REGEX);
  }

  @Test
  void deepNestingIsRefusedAsRe2Does() {
    String deep = "(".repeat(1500) + "a" + ")".repeat(1500);
    assertThat(reason(deep, GENEROUS)).isEqualTo(Reasons.REGEX_TOO_COMPLEX);
  }

  /** The scan's count is a lower bound of re2j's program size, so it never refuses what the compile accepts. */
  @ParameterizedTest
  @ValueSource(strings = {"abc", "a", ".*", "[a-z]+", "\\pL+", "(a{10}){10}", "a{3,7}b{2,}", "x{0}y",
      "\\Q.*+\\Ez", "(?i)ab|cd", "(?P<name>[^/]+)/\\d{1,3}", "^/api/(v1|v2)/\\x{41}\\101$", "[[:alpha:]]{4}",
      "a{2}{3}", "((ab){2}c){3}", "[]a]{5}", "\\b(?:foo)\\B",
      "^/user/(488/sms|h5/getJwt|captcha|version/getAIDrawTemplate|version/isMainLand)", "a|b|c|d", "(ab|ac){3}"})
  void scanIsALowerBoundOfTheProgramSize(String regex) {
    long atLeast = Re2Check.Scan.of(regex).atoms() + 2;
    int size;
    try {
      size = Pattern.compile(regex).programSize();
    } catch (com.google.re2j.PatternSyntaxException e) {
      return; // refused by the compile anyway
    }
    assertThat(atLeast).as(regex).isLessThanOrEqualTo(size);
  }

  @Test
  void quotesCutLongRegexes() {
    assertThat(Re2Check.quote("abc")).isEqualTo("\"abc\"");
    assertThat(Re2Check.quote("x".repeat(500))).endsWith("...\" (500 characters)").hasSizeLessThan(110);
  }
}
