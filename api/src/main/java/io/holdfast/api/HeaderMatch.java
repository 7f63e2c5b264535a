package io.holdfast.api;

import java.util.Objects;

/**
 * A condition on one request header; {@code invert} negates it.
 *
 * @param name header name, matched case-insensitively (pseudo-headers such as {@code :authority} allowed)
 */
public record HeaderMatch(String name, Condition condition, boolean invert) {

  public HeaderMatch {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(condition, "condition");
  }

  public static HeaderMatch exact(String name, String value) {
    return new HeaderMatch(name, new Exact(value), false);
  }

  /** Exactly one way of matching the header's value. */
  public sealed interface Condition {
  }

  public record Exact(String value) implements Condition {
    public Exact {
      Objects.requireNonNull(value, "value");
    }
  }

  public record Prefix(String value) implements Condition {
    public Prefix {
      Objects.requireNonNull(value, "value");
    }
  }

  /** RE2 syntax, full match. */
  public record Regex(String value) implements Condition {
    public Regex {
      Objects.requireNonNull(value, "value");
    }
  }

  /** {@code present: true} matches when the header exists, {@code false} when it is absent. */
  public record Present(boolean present) implements Condition {
  }
}
