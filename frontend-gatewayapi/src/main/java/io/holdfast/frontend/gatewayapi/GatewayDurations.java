package io.holdfast.frontend.gatewayapi;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Gateway API's duration strings (GEP-2257): one to four parts of 1-5 digits with a unit h, m, s or ms, e.g.
 * {@code 1h30m}, {@code 500ms}, {@code 0s}.
 */
final class GatewayDurations {

  private static final Pattern WHOLE = Pattern.compile("^([0-9]{1,5}(h|m|s|ms)){1,4}$");
  private static final Pattern PART = Pattern.compile("([0-9]{1,5})(h|ms|m|s)");

  private GatewayDurations() {
  }

  /** The duration {@code value} spells; IllegalArgumentException naming the format when it is not one. */
  static Duration parse(String value) {
    if (value == null || !WHOLE.matcher(value).matches()) {
      throw new IllegalArgumentException("\"" + value + "\" is not a Gateway API duration (1 to 4 parts of up to"
          + " 5 digits with unit h, m, s or ms, e.g. 1h30m or 500ms)");
    }
    Duration total = Duration.ZERO;
    Matcher part = PART.matcher(value);
    while (part.find()) {
      long amount = Long.parseLong(part.group(1));
      total = total.plus(switch (part.group(2)) {
        case "h" -> Duration.ofHours(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "s" -> Duration.ofSeconds(amount);
        default -> Duration.ofMillis(amount);
      });
    }
    return total;
  }
}
