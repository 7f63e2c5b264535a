package io.holdfast.common;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Duration strings in Go's syntax, as Kubernetes users and Gloo's settings write them: {@code 0}, or one or more
 * decimal numbers each with a unit ({@code h}, {@code m}, {@code s}, {@code ms}, {@code us}/{@code µs},
 * {@code ns}), e.g. {@code 15s}, {@code 1m30s}, {@code 500ms}, {@code 1.5h}. No sign (durations here are never
 * negative) and no bare number other than {@code 0}, since a unitless {@code 5} is ambiguous. Case-sensitive,
 * as Go is; a caller that accepts {@code 15S} normalises before. The one parser of the command line, the
 * environment and the YAML config.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");
  private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
      "ns", 1L, "us", 1_000L, "µs", 1_000L, "ms", 1_000_000L,
      "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);
  /** The longest duration a Duration can report in nanoseconds (about 292 years), which is how timings are used. */
  public static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);
  /** Longer than any text a human means as a duration; bounds the work on hostile input. */
  private static final int MAX_LENGTH = 64;

  private Durations() {}

  /** {@link #parse(String, String, Duration)} bounded by {@link #MAX}. */
  public static Duration parse(String setting, String text) {
    return parse(setting, text, MAX);
  }

  /**
   * Fractions below a nanosecond are dropped, as Go does.
   *
   * @param setting what the value is for (an option, a variable, a field path); every message starts with it
   * @throws IllegalArgumentException naming {@code setting}, the value and the rule, when {@code text} is not a
   *     non-negative Go duration or is longer than {@code max}
   */
  public static Duration parse(String setting, String text, Duration max) {
    String value = text == null ? "" : text;
    if (value.equals("0")) {
      return Duration.ZERO;
    }
    BigDecimal nanos = BigDecimal.ZERO;
    int end = 0;
    if (value.length() <= MAX_LENGTH) {
      Matcher m = PART.matcher(value);
      while (m.find() && m.start() == end) {
        nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(m.group(2)))));
        end = m.end();
      }
    }
    if (value.isEmpty() || end != value.length()) {
      throw new IllegalArgumentException(setting + ": '" + text
          + "' is not a duration; use a number with a unit (ns, us, ms, s, m, h), e.g. 15s, 1m30s, 500ms");
    }
    BigDecimal whole = nanos.setScale(0, RoundingMode.DOWN);
    if (whole.compareTo(BigDecimal.valueOf(max.getSeconds()).movePointRight(9).add(BigDecimal.valueOf(max.getNano())))
        > 0) {
      // Reject here, with the setting's name, rather than fail later with an ArithmeticException.
      throw new IllegalArgumentException(setting + ": '" + text + "' is too long; a duration must be at most "
          + (max.equals(MAX) ? "2562047h (about 292 years)" : format(max)));
    }
    return Duration.ofNanos(whole.longValueExact());
  }

  /** Formats like Go does for the common cases, for messages: {@code 15s}, {@code 1.5s}, {@code 300ms}. */
  public static String format(Duration d) {
    // From seconds and nanos, not toNanos(): a message about a far too long value must not overflow itself.
    BigDecimal seconds = BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
    if (seconds.abs().compareTo(BigDecimal.ONE) < 0 && d.getNano() % 1_000_000 == 0) {
      return seconds.movePointRight(3).stripTrailingZeros().toPlainString() + "ms";
    }
    return seconds.stripTrailingZeros().toPlainString() + "s";
  }
}
