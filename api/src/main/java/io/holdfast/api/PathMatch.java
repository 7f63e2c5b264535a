package io.holdfast.api;

import java.util.Objects;

/**
 * The path condition of a route: exactly one of prefix, exact path or RE2 regex (full match). A prefix or exact
 * path may ignore case ({@code caseSensitive: false}); Envoy then compares ASCII letters case-insensitively. A regex
 * is always matched as written (Envoy's {@code case_sensitive} does not apply to it: write {@code (?i)}).
 */
public sealed interface PathMatch {

  String value();

  /** False when ASCII letters match in either case; always true for a regex. */
  boolean caseSensitive();

  record Prefix(String value, boolean caseSensitive) implements PathMatch {
    public Prefix {
      Objects.requireNonNull(value, "value");
    }

    /** A case-sensitive prefix. */
    public Prefix(String value) {
      this(value, true);
    }

    public Prefix withCaseSensitive(boolean newCaseSensitive) {
      return new Prefix(value, newCaseSensitive);
    }

    /** Whether a request path starting with this prefix (as Envoy compares it) matches. */
    public boolean matches(String path) {
      if (caseSensitive) {
        return path.startsWith(value);
      }
      return path.length() >= value.length() && foldAscii(path.substring(0, value.length())).equals(foldAscii(value));
    }
  }

  record Exact(String value, boolean caseSensitive) implements PathMatch {
    public Exact {
      Objects.requireNonNull(value, "value");
    }

    /** A case-sensitive exact path. */
    public Exact(String value) {
      this(value, true);
    }

    public Exact withCaseSensitive(boolean newCaseSensitive) {
      return new Exact(value, newCaseSensitive);
    }

    /** Whether this exact path (as Envoy compares it) matches {@code path}. */
    public boolean matches(String path) {
      return caseSensitive ? path.equals(value) : foldAscii(path).equals(foldAscii(value));
    }
  }

  record Regex(String value) implements PathMatch {
    public Regex {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean caseSensitive() {
      return true;
    }
  }

  /**
   * {@code text} with ASCII upper-case letters lowered and nothing else changed: Envoy's case-insensitive path
   * comparison folds ASCII only ({@code absl::EqualsIgnoreCase}), so Java's locale-aware folding would differ on
   * letters such as the dotted capital I.
   */
  static String foldAscii(String text) {
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c >= 'A' && c <= 'Z') {
        if (out == null) {
          out = new StringBuilder(text);
        }
        out.setCharAt(i, (char) (c + ('a' - 'A')));
      }
    }
    return out == null ? text : out.toString();
  }

  /** Whether {@code text} has an ASCII letter, the only characters a case-insensitive match folds. */
  static boolean hasAsciiLetter(String text) {
    return text.chars().anyMatch(c -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z');
  }
}
