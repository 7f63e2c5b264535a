package io.holdfast.server.cli;

import java.util.Locale;

/** How log lines are written: {@code text} for people, {@code json} for log collectors. */
public enum LogFormat {
  TEXT,
  JSON;

  /** The flag spelling, lower case. */
  public String flagValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a flag value, case-insensitively.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static LogFormat parse(String value) {
    for (LogFormat format : values()) {
      if (format.flagValue().equalsIgnoreCase(value == null ? "" : value.trim())) {
        return format;
      }
    }
    throw new IllegalArgumentException("expected text or json, got '" + value + "'");
  }
}
