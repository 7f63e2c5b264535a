package io.holdfast.api;

import java.util.Objects;

/** A condition on one query parameter of the request path (names are case-sensitive). */
public record QueryParameterMatch(String name, Condition condition) {

  public QueryParameterMatch {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(condition, "condition");
  }

  /** Exactly one way of matching the parameter's value. */
  public sealed interface Condition {
  }

  public record Exact(String value) implements Condition {
    public Exact {
      Objects.requireNonNull(value, "value");
    }
  }

  /** RE2 syntax, full match. */
  public record Regex(String value) implements Condition {
    public Regex {
      Objects.requireNonNull(value, "value");
    }
  }

  /** {@code present: true}: the parameter is given, with any value; validation rejects {@code false}. */
  public record Present(boolean present) implements Condition {
  }
}
