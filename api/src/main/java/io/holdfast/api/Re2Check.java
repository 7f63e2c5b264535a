package io.holdfast.api;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Whether Envoy would compile a regex, decided without ever letting the regex cost more than its bounds. Envoy
 * compiles {@code safe_regex} with RE2 and refuses the whole resource (a NACK) if RE2 does, or if the compiled
 * program is larger than {@code re2.max_program_size.error_level} (100 unless Envoy's runtime raises it). RE2
 * itself refuses nested counted repetitions whose product exceeds 1000 copies ({@code ((a{1000}){1000}){1000}})
 * and nesting deeper than 1000.
 *
 * <p>re2j (the engine grpc-java compiles route regexes with) expands counted repetitions before it compiles, so
 * that 23-byte regex would take it 10^9 nodes. The checks therefore run cheapest first, each bounding the next:
 * the length ({@link InputLimits#maxRegexLength()}); one linear scan (no expansion) for RE2's nesting and
 * repetition limits and a lower bound of the program size (the largest alternative of each group, since
 * alternatives sharing a prefix compile it once); only then re2j's compile and its
 * {@link Pattern#programSize()}. re2j's program counts about what RE2's does (one instruction per literal
 * character, class and assertion, plus the fail and match instructions): for a route regex Envoy reported at 106,
 * re2j counts 111; RE2 compiles a Unicode class to several byte ranges where re2j has one instruction. Pure and
 * thread-safe.
 */
public final class Re2Check {

  /** RE2's {@code kMaxRepeat}: the most copies nested counted repetitions may ask for. */
  public static final int MAX_REPEAT = 1000;
  /** RE2's limit on how deeply groups may nest. */
  public static final int MAX_NESTING = 1000;
  /** How much of a regex a message quotes. */
  private static final int QUOTED = 80;
  /** Where saturating arithmetic stops: far above any limit, far below overflow when two are multiplied. */
  private static final long CAP = 1L << 31;

  /** Why a regex is not served: {@link Reasons#INVALID_REGEX} or {@link Reasons#REGEX_TOO_COMPLEX}. */
  public record Refusal(String reason, String message) {
  }

  private Re2Check() {
  }

  /** Why Envoy would refuse {@code regex} under {@code limits}, or empty if it compiles within them. */
  public static Optional<Refusal> refusal(String regex, InputLimits limits) {
    if (regex.length() > limits.maxRegexLength()) {
      return tooComplex(quote(regex) + " is " + regex.length() + " characters long; the limit is "
          + limits.maxRegexLength() + " (--max-regex-length)");
    }
    Scan scan = Scan.of(regex);
    if (scan.depth() > MAX_NESTING) {
      return tooComplex(quote(regex) + " nests groups " + scan.depth() + " deep; RE2 refuses more than "
          + MAX_NESTING);
    }
    if (scan.repeat() > MAX_REPEAT) {
      return tooComplex(quote(regex) + " nests counted repetitions to " + (scan.repeat() >= CAP ? "over 2^31"
          : String.valueOf(scan.repeat())) + " copies; RE2 (so Envoy) refuses more than " + MAX_REPEAT);
    }
    // Each copy of a character, class or assertion is at least one instruction, plus the fail and match ones.
    long atLeast = Math.min(CAP, scan.atoms() + 2);
    if (atLeast > limits.maxRegexProgramSize()) {
      return tooComplex(programMessage(regex, "at least " + (atLeast >= CAP ? "2^31" : atLeast), limits));
    }
    Pattern pattern;
    try {
      pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      // The pattern re2j names is the offending part, e.g. \p{javaLowerCase}, or the whole regex.
      return Optional.of(new Refusal(Reasons.INVALID_REGEX, "invalid RE2 regex " + quote(regex) + ": "
          + e.getDescription() + (e.getPattern().equals(regex) ? "" : " at " + quote(e.getPattern()))));
    }
    if (pattern.programSize() > limits.maxRegexProgramSize()) {
      return tooComplex(programMessage(regex, String.valueOf(pattern.programSize()), limits));
    }
    return Optional.empty();
  }

  /** {@code regex} in quotes, cut to its first characters when long. */
  public static String quote(String regex) {
    return regex.length() <= QUOTED ? "\"" + regex + "\""
        : "\"" + regex.substring(0, QUOTED) + "...\" (" + regex.length() + " characters)";
  }

  private static String programMessage(String regex, String size, InputLimits limits) {
    return quote(regex) + " compiles to an RE2 program of " + size + " instructions; Envoy refuses more than "
        + limits.maxRegexProgramSize() + " (raise Envoy's runtime re2.max_program_size.error_level together with"
        + " --max-regex-program-size)";
  }

  private static Optional<Refusal> tooComplex(String message) {
    return Optional.of(new Refusal(Reasons.REGEX_TOO_COMPLEX, message));
  }

  /**
   * One pass over the regex, expanding nothing: the deepest group nesting, the largest product of nested counted
   * repetitions (RE2's measure: a repetition counts its maximum, or its minimum when unbounded), and how many
   * characters, classes and assertions the expanded regex holds. Malformed syntax is scanned leniently; the
   * compile that follows reports it.
   */
  record Scan(int depth, long repeat, long atoms) {

    /** One group being scanned: its atoms so far and the last atom, which a quantifier applies to. */
    private static final class Frame {
      /** The largest alternative closed so far: alternatives sharing a prefix compile it once. */
      long alternative;
      long atoms;
      long lastAtoms;
      long lastRepeat = 1;
      boolean hasLast;
      long maxRepeat = 1;

      void atom(long atoms, long repeat) {
        this.atoms = add(this.atoms, atoms);
        lastAtoms = atoms;
        lastRepeat = repeat;
        hasLast = true;
        maxRepeat = Math.max(maxRepeat, repeat);
      }

      void repeat(long copies, long factor) {
        if (!hasLast) {
          return;
        }
        atoms = add(atoms - lastAtoms, mul(lastAtoms, copies));
        lastAtoms = mul(lastAtoms, copies);
        lastRepeat = mul(lastRepeat, factor);
        maxRepeat = Math.max(maxRepeat, lastRepeat);
      }

      void alternate() {
        alternative = Math.max(alternative, atoms);
        atoms = 0;
        hasLast = false;
      }

      /** A lower bound of the group's instructions: its largest alternative. */
      long total() {
        return Math.max(alternative, atoms);
      }
    }

    static Scan of(String regex) {
      Deque<Frame> open = new ArrayDeque<>();
      Frame frame = new Frame();
      int depth = 0;
      long repeat = 1;
      int n = regex.length();
      int i = 0;
      while (i < n) {
        char c = regex.charAt(i);
        if (c == '\\' && regex.startsWith("\\Q", i)) {
          int end = regex.indexOf("\\E", i + 2);
          int stop = end < 0 ? n : end;
          for (int j = i + 2; j < stop; j = regex.offsetByCodePoints(j, 1)) {
            frame.atom(1, 1);
          }
          i = end < 0 ? n : end + 2;
        } else if (c == '\\') {
          i = skipEscape(regex, i);
          frame.atom(1, 1);
        } else if (c == '[') {
          i = skipClass(regex, i);
          frame.atom(1, 1);
        } else if (c == '(') {
          int j = i + 1;
          if (j < n && regex.charAt(j) == '?') {
            while (j < n && ":)>".indexOf(regex.charAt(j)) < 0) {
              j++;
            }
            if (j < n && regex.charAt(j) == ')') {
              i = j + 1; // flags only, e.g. (?i): no group
              continue;
            }
            j++;
          }
          open.push(frame);
          frame = new Frame();
          depth = Math.max(depth, open.size());
          i = j;
        } else if (c == ')') {
          if (!open.isEmpty()) {
            Frame inner = frame;
            frame = open.pop();
            frame.atom(inner.total(), inner.maxRepeat);
          }
          i++;
        } else if (c == '|') {
          frame.alternate();
          i++;
        } else if (c == '{' && counted(regex, i) > i) {
          int end = counted(regex, i);
          String[] bounds = regex.substring(i + 1, end - 1).split(",", -1);
          long min = number(bounds[0]);
          long max = bounds.length == 1 ? min : bounds[1].isEmpty() ? -1 : number(bounds[1]);
          long copies = max >= 0 ? max : Math.max(min, 1);
          long factor = max >= 0 ? Math.max(max, 1) : Math.max(min, 1);
          frame.repeat(copies, factor);
          i = end;
        } else if (c == '*' || c == '+' || c == '?') {
          i++; // one copy of the atom, looped or optional
        } else {
          frame.atom(1, 1);
          i += Character.charCount(regex.codePointAt(i));
        }
        repeat = Math.max(repeat, frame.maxRepeat);
      }
      while (!open.isEmpty()) {
        Frame inner = frame;
        frame = open.pop();
        frame.atom(inner.total(), inner.maxRepeat);
        repeat = Math.max(repeat, frame.maxRepeat);
      }
      return new Scan(depth, repeat, Math.max(0, frame.total()));
    }

    /** The index after {@code {n}}, {@code {n,}} or {@code {n,m}} at {@code i}, or {@code i} if it is a literal. */
    private static int counted(String regex, int i) {
      int j = i + 1;
      int digits = 0;
      while (j < regex.length() && Character.isDigit(regex.charAt(j))) {
        j++;
        digits++;
      }
      if (digits == 0) {
        return i;
      }
      if (j < regex.length() && regex.charAt(j) == ',') {
        j++;
        while (j < regex.length() && Character.isDigit(regex.charAt(j))) {
          j++;
        }
      }
      return j < regex.length() && regex.charAt(j) == '}' ? j + 1 : i;
    }

    private static long number(String digits) {
      return digits.length() > 9 ? CAP : Math.min(CAP, Long.parseLong(digits));
    }

    private static int skipEscape(String regex, int i) {
      int n = regex.length();
      int j = i + 1;
      if (j >= n) {
        return n;
      }
      char e = regex.charAt(j);
      if ((e == 'p' || e == 'P' || e == 'x') && j + 1 < n && regex.charAt(j + 1) == '{') {
        int close = regex.indexOf('}', j);
        return close < 0 ? n : close + 1;
      }
      if (e == 'p' || e == 'P') {
        return Math.min(n, j + 2);
      }
      if (e == 'x') {
        return Math.min(n, j + 3);
      }
      if (e >= '0' && e <= '7') {
        int k = j;
        while (k < n && k < j + 3 && regex.charAt(k) >= '0' && regex.charAt(k) <= '7') {
          k++;
        }
        return k;
      }
      return j + Character.charCount(regex.codePointAt(j));
    }

    private static int skipClass(String regex, int i) {
      int n = regex.length();
      int j = i + 1;
      if (j < n && regex.charAt(j) == '^') {
        j++;
      }
      if (j < n && regex.charAt(j) == ']') {
        j++; // a ']' first is a member, not the end
      }
      while (j < n) {
        char c = regex.charAt(j);
        if (c == '\\') {
          j = skipEscape(regex, j);
        } else if (regex.startsWith("[:", j) && regex.indexOf(":]", j + 2) > 0) {
          j = regex.indexOf(":]", j + 2) + 2;
        } else if (c == ']') {
          return j + 1;
        } else {
          j++;
        }
      }
      return n;
    }

    private static long add(long a, long b) {
      return Math.min(CAP, a + b);
    }

    private static long mul(long a, long b) {
      return a == 0 || b == 0 ? 0 : a > CAP / b ? CAP : Math.min(CAP, a * b);
    }
  }
}
