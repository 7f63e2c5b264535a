package io.holdfast.xds.validate;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Checks that a regex is valid RE2 syntax, which is what Envoy ({@code safe_regex}) and grpc-java (re2j) compile.
 * RE2 is not on Holdfast's compile classpath, so this rejects the java.util.regex features RE2 lacks, then
 * compiles with java.util.regex for everything else. Rejected explicitly: lookahead and lookbehind
 * ({@code (?=}, {@code (?!}, {@code (?<=}, {@code (?<!}), atomic groups {@code (?>}, possessive quantifiers
 * ({@code *+ ++ ?+ }+}), backreferences ({@code \1}-{@code \9}, {@code \k<name>}), the Java-only escapes
 * {@code \G \Z \R \X \h \H}, and class intersection {@code &&}. The remaining differences (Unicode class names,
 * RE2's program-size limit, which Envoy enforces at 100 by default) are not checked.
 */
final class Re2Syntax {

  private static final String UNSUPPORTED_ESCAPES = "123456789kGZRXhH";

  private Re2Syntax() {
  }

  /** Why {@code regex} is not usable RE2, or null if it is. */
  static String error(String regex) {
    if (regex.isEmpty()) {
      return "empty regex";
    }
    String unsupported = unsupportedFeature(regex);
    if (unsupported != null) {
      return unsupported + " is not supported by RE2";
    }
    try {
      // RE2 spells named groups (?P<name>...), which java.util.regex does not know.
      Pattern.compile(regex.replace("(?P<", "(?<"));
      return null;
    } catch (PatternSyntaxException e) {
      return e.getDescription() + " near index " + e.getIndex();
    }
  }

  private static String unsupportedFeature(String regex) {
    boolean inClass = false;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '\\') {
        if (i + 1 < regex.length()) {
          char next = regex.charAt(i + 1);
          if (next == 'Q') {
            int end = regex.indexOf("\\E", i + 2);
            i = end < 0 ? regex.length() : end + 1;
            continue;
          }
          if (UNSUPPORTED_ESCAPES.indexOf(next) >= 0) {
            return (Character.isDigit(next) || next == 'k' ? "backreference " : "escape ") + "\\" + next;
          }
        }
        i++;
        continue;
      }
      if (inClass) {
        if (c == ']') {
          inClass = false;
        } else if (c == '&' && i + 1 < regex.length() && regex.charAt(i + 1) == '&') {
          return "character class intersection &&";
        }
        continue;
      }
      if (c == '[') {
        inClass = true;
        // A ']' right after '[' or '[^' is a literal, not the end of the class.
        if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
          i++;
        }
        if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
          i++;
        }
      } else if (c == '(' && regex.startsWith("(?", i)) {
        String group = groupKind(regex, i + 2);
        if (group != null) {
          return group;
        }
      } else if ((c == '*' || c == '+' || c == '?' || c == '}') && i + 1 < regex.length()
          && regex.charAt(i + 1) == '+' && i > 0) {
        return "possessive quantifier " + c + "+";
      }
    }
    return null;
  }

  private static String groupKind(String regex, int at) {
    if (regex.startsWith("=", at) || regex.startsWith("!", at)) {
      return "lookahead (?" + regex.charAt(at);
    }
    if (regex.startsWith("<=", at) || regex.startsWith("<!", at)) {
      return "lookbehind (?" + regex.substring(at, at + 2);
    }
    if (regex.startsWith(">", at)) {
      return "atomic group (?>";
    }
    return null;
  }
}
