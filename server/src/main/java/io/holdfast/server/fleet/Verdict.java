package io.holdfast.server.fleet;

import java.util.Locale;
import java.util.Optional;

/**
 * The data plane's state, from best to worst, with the exit status {@code holdfast status} gives for it; the
 * same three levels as a replica's own {@code verdict} on {@code /state}. {@link #SAFE}: proxies run what they
 * are served and nothing threatens that. {@link #AT_RISK}: proxies are served, but something needs a look before
 * it becomes an incident (API unreachable, no leader, rejected objects, builds failing, a replica not answering,
 * a proxy not yet ACKing). {@link #BROKEN}: config does not reach the data plane (no config served, a connected
 * proxy rejecting what it is sent).
 */
public enum Verdict {
  SAFE("safe", 0),
  AT_RISK("at risk", 1),
  BROKEN("broken", 2);

  private final String label;
  private final int exitCode;

  Verdict(String label, int exitCode) {
    this.label = label;
    this.exitCode = exitCode;
  }

  /** {@code safe}, {@code at risk}, {@code broken}. */
  public String label() {
    return label;
  }

  public int exitCode() {
    return exitCode;
  }

  public Verdict worst(Verdict other) {
    return other.ordinal() > ordinal() ? other : this;
  }

  /**
   * A replica's own spelling of a verdict ({@code safe}, {@code at risk}, {@code at-risk}, {@code AT_RISK},
   * {@code broken}, any case; also {@code healthy}, {@code ok}, {@code warning}, {@code degraded}, {@code critical},
   * {@code error}); empty for anything else, so an unknown word is derived from the fields instead of guessed.
   */
  public static Optional<Verdict> parse(Object value) {
    if (!(value instanceof String s)) {
      return Optional.empty();
    }
    return switch (s.trim().toLowerCase(Locale.ROOT).replace('_', ' ').replace('-', ' ')) {
      case "safe", "healthy", "ok" -> Optional.of(SAFE);
      case "at risk", "atrisk", "warning", "warn", "degraded" -> Optional.of(AT_RISK);
      case "broken", "critical", "error", "bad" -> Optional.of(BROKEN);
      default -> Optional.empty();
    };
  }
}
