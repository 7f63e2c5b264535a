package io.holdfast.frontend.holdfast;

import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.Re2Check;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks that a regex is usable RE2 within the {@link InputLimits}, which is what Envoy ({@code safe_regex}) and
 * grpc-java compile: {@link Re2Check} bounds its length, nesting, repetitions and program size and compiles it with
 * re2j. Two checks RE2 does not make itself: Envoy requires a non-empty regex, and a class intersection
 * {@code [a-z&&[^e]]} is refused because RE2 reads {@code &&} and {@code [} as literal class members, so it would
 * silently match something else than the java.util.regex meaning its author most likely had in mind.
 */
final class Re2Syntax {

  /**
   * Verdicts of regexes checked before, as the refusal or {@link #USABLE}: a config's regexes recur in every
   * revision (and often across routes), and compiling each again dominated checking the routes. Bounded: it is
   * emptied when it reaches {@link #REMEMBERED} regexes, each at most {@link InputLimits#maxRegexLength()} long,
   * so it never outgrows a few configs' worth.
   */
  private static final Map<Key, Optional<Re2Check.Refusal>> VERDICTS = new ConcurrentHashMap<>();
  private static final Optional<Re2Check.Refusal> USABLE = Optional.empty();
  static final int REMEMBERED = 16_384;

  private record Key(String regex, InputLimits limits) {
  }

  private Re2Syntax() {
  }

  /** Why {@code regex} is not usable RE2 under the default limits, or null if it is. */
  static String error(String regex) {
    return refusal(regex, InputLimits.DEFAULTS).map(Re2Check.Refusal::message).orElse(null);
  }

  /** Why {@code regex} is not served under {@code limits} ({@code InvalidRegex}, {@code RegexTooComplex}). */
  static Optional<Re2Check.Refusal> refusal(String regex, InputLimits limits) {
    if (regex.length() > limits.maxRegexLength()) {
      return Re2Check.refusal(regex, limits); // refused on its length at once; not worth remembering
    }
    Key key = new Key(regex, limits);
    Optional<Re2Check.Refusal> verdict = VERDICTS.get(key);
    if (verdict == null) {
      verdict = check(regex, limits);
      if (VERDICTS.size() >= REMEMBERED) {
        VERDICTS.clear();
      }
      VERDICTS.put(key, verdict);
    }
    return verdict;
  }

  /** Number of regexes whose verdict is remembered (at most {@link #REMEMBERED}). */
  static int remembered() {
    return VERDICTS.size();
  }

  private static Optional<Re2Check.Refusal> check(String regex, InputLimits limits) {
    if (regex.isEmpty()) {
      return invalid("empty regex");
    }
    if (hasClassIntersection(regex)) {
      return invalid("invalid RE2 regex " + Re2Check.quote(regex) + ": character class intersection && is not"
          + " supported by RE2 (it reads && as two literal characters)");
    }
    return Re2Check.refusal(regex, limits);
  }

  private static Optional<Re2Check.Refusal> invalid(String message) {
    return Optional.of(new Re2Check.Refusal(Reasons.INVALID_REGEX, message));
  }

  /** True if {@code &&} occurs inside a character class; escapes and {@code \Q...\E} quotes are skipped. */
  private static boolean hasClassIntersection(String regex) {
    boolean inClass = false;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '\\') {
        if (regex.startsWith("\\Q", i)) {
          int end = regex.indexOf("\\E", i + 2);
          i = end < 0 ? regex.length() : end + 1;
        } else {
          i++;
        }
      } else if (inClass) {
        if (c == ']') {
          inClass = false;
        } else if (regex.startsWith("&&", i)) {
          return true;
        }
      } else if (c == '[') {
        inClass = true;
        // A ']' right after '[' or '[^' is a literal, not the end of the class.
        if (regex.startsWith("^", i + 1)) {
          i++;
        }
        if (regex.startsWith("]", i + 1)) {
          i++;
        }
      }
    }
    return false;
  }
}
