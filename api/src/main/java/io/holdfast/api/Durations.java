package io.holdfast.api;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go-style duration strings, as Kubernetes users write them: one or more decimal numbers each with a unit
 * ({@code h}, {@code m}, {@code s}, {@code ms}, {@code us}, {@code ns}), e.g. {@code 2s}, {@code 250ms},
 * {@code 1m30s}, {@code 1.5s}. No sign (durations here are never negative) and no bare numbers, since a
 * unitless {@code 5} is ambiguous.
 */
public final class Durations {

  private static final Pattern WHOLE = Pattern.compile("(?:[0-9]+(?:\\.[0-9]+)?(?:h|ms|m|s|us|ns))+");
  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(h|ms|m|s|us|ns)");
  private static final Duration MAX = Duration.ofDays(365);

  private Durations() {
  }

  /** The duration, or empty if {@code text} is not a valid duration string or exceeds a year. */
  public static Optional<Duration> parse(String text) {
    if (text == null || text.length() > 64 || !WHOLE.matcher(text).matches()) {
      return Optional.empty();
    }
    BigDecimal nanos = BigDecimal.ZERO;
    Matcher part = PART.matcher(text);
    while (part.find()) {
      nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(unitNanos(part.group(2)))));
    }
    if (nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofNanos(nanos.longValue()));
  }

  private static long unitNanos(String unit) {
    return switch (unit) {
      case "h" -> 3_600_000_000_000L;
      case "m" -> 60_000_000_000L;
      case "s" -> 1_000_000_000L;
      case "ms" -> 1_000_000L;
      case "us" -> 1_000L;
      default -> 1L;
    };
  }
}
