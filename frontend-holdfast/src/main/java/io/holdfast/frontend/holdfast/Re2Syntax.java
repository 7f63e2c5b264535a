package io.holdfast.frontend.holdfast;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks that a regex is usable RE2, which is what Envoy ({@code safe_regex}) and grpc-java compile, by compiling
 * it with re2j (Google's RE2 for Java, the engine grpc-java uses). Two checks RE2 does not make itself: Envoy
 * requires a non-empty regex, and a class intersection {@code [a-z&&[^e]]} is refused because RE2 reads
 * {@code &&} and {@code [} as literal class members, so it would silently match something else than the
 * java.util.regex meaning its author most likely had in mind. Not checked: Envoy's RE2 program-size limit (100 by
 * default). re2j exposes no program size and compiles to a different instruction set than C++ RE2, so any bound
 * computed here would be a guess; a regex over the limit is NACKed by Envoy and the NACK is shown on the
 * resource.
 */
final class Re2Syntax {

  /**
   * Verdicts of regexes checked before, as the regex's error or {@link #USABLE}: a config's regexes recur in
   * every revision (and often across routes), and compiling each again dominated checking the routes. Bounded: it
   * is emptied when it reaches {@link #REMEMBERED} regexes, so it never outgrows a few configs' worth.
   */
  private static final Map<String, String> VERDICTS = new ConcurrentHashMap<>();
  private static final String USABLE = "";
  static final int REMEMBERED = 16_384;

  private Re2Syntax() {
  }

  /** Why {@code regex} is not usable RE2, or null if it is. */
  static String error(String regex) {
    String verdict = VERDICTS.get(regex);
    if (verdict == null) {
      verdict = Objects.requireNonNullElse(check(regex), USABLE);
      if (VERDICTS.size() >= REMEMBERED) {
        VERDICTS.clear();
      }
      VERDICTS.put(regex, verdict);
    }
    return verdict.isEmpty() ? null : verdict;
  }

  /** Number of regexes whose verdict is remembered (at most {@link #REMEMBERED}). */
  static int remembered() {
    return VERDICTS.size();
  }

  private static String check(String regex) {
    if (regex.isEmpty()) {
      return "empty regex";
    }
    if (hasClassIntersection(regex)) {
      return "character class intersection && is not supported by RE2 (it reads && as two literal characters)";
    }
    try {
      Pattern.compile(regex);
      return null;
    } catch (PatternSyntaxException e) {
      // The pattern re2j names is the offending part, e.g. \p{javaLowerCase}, or the whole regex.
      return e.getDescription() + (e.getPattern().equals(regex) ? "" : " at " + e.getPattern());
    }
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
