package io.holdfast.api;

import java.util.Objects;

/** The path condition of a route: exactly one of prefix, exact path or RE2 regex (full match). */
public sealed interface PathMatch {

  String value();

  record Prefix(String value) implements PathMatch {
    public Prefix {
      Objects.requireNonNull(value, "value");
    }
  }

  record Exact(String value) implements PathMatch {
    public Exact {
      Objects.requireNonNull(value, "value");
    }
  }

  record Regex(String value) implements PathMatch {
    public Regex {
      Objects.requireNonNull(value, "value");
    }
  }
}
