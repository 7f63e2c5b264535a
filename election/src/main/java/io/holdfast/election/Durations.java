package io.holdfast.election;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations in Go's syntax ({@code 15s}, {@code 1m30s}, {@code 500ms}, {@code 1.5h}), as Gloo's settings use. */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");
  private static final Map<String, Long> NANOS_PER_UNIT = Map.of(
      "ns", 1L, "us", 1_000L, "µs", 1_000L, "ms", 1_000_000L,
      "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);
  /** The longest duration a Duration can report in nanoseconds, which is how every timing is used. */
  private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);

  private Durations() {}

  /**
   * Fractions below a nanosecond are dropped, as Go does.
   *
   * @throws IllegalArgumentException naming {@code setting} and the value, when {@code text} is not a
   *     non-negative Go duration or is longer than about 292 years (the range of a long in nanoseconds)
   */
  public static Duration parse(String setting, String text) {
    String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    if (value.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(value);
    BigDecimal nanos = BigDecimal.ZERO;
    int end = 0;
    while (m.find() && m.start() == end) {
      nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NANOS_PER_UNIT.get(m.group(2)))));
      end = m.end();
    }
    if (value.isEmpty() || end != value.length()) {
      throw new IllegalArgumentException(setting + ": '" + text
          + "' is not a duration; use a number with a unit (ns, us, ms, s, m, h), e.g. 15s, 1m30s, 500ms");
    }
    BigDecimal whole = nanos.setScale(0, RoundingMode.DOWN);
    if (whole.compareTo(MAX_NANOS) > 0) {
      // Reject here, with the setting's name, rather than fail later with an ArithmeticException.
      throw new IllegalArgumentException(setting + ": '" + text
          + "' is too long; a duration must be at most 2562047h (about 292 years)");
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
