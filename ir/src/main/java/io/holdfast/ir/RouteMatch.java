package io.holdfast.ir;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a request must look like for a route to apply: all conditions hold.
 *
 * @param headers matched in order; names lower case
 * @param methods         upper-case HTTP method names, no duplicates, in the order the proxy gets them; empty means
 *                        any
 * @param queryParameters conditions on query parameters of the path, in order
 */
public record RouteMatch(PathMatch path, List<HeaderMatch> headers, List<String> methods,
    List<QueryParameterMatch> queryParameters) {

  public RouteMatch {
    Objects.requireNonNull(path, "path");
    headers = List.copyOf(headers);
    methods = List.copyOf(methods);
    queryParameters = List.copyOf(queryParameters);
    if (new HashSet<>(methods).size() != methods.size()) {
      throw new IllegalArgumentException("a method is listed twice: " + methods);
    }
    for (String method : methods) {
      if (!method.equals(method.toUpperCase(Locale.ROOT)) || method.isEmpty()) {
        throw new IllegalArgumentException("method names are upper case, got \"" + method + "\"");
      }
    }
  }

  /** A match without query-parameter conditions. */
  public RouteMatch(PathMatch path, List<HeaderMatch> headers, List<String> methods) {
    this(path, headers, methods, List.of());
  }

  /** Whether a request with this method can match. */
  public boolean admitsMethod(String method) {
    return methods.isEmpty() || methods.contains(method);
  }

  /**
   * The path condition: exactly one of prefix, exact path or RE2 regex (full match). A prefix or exact path that is
   * not {@code caseSensitive} matches ASCII letters in either case (Envoy's {@code case_sensitive: false}); a regex
   * states its own case rule.
   */
  public sealed interface PathMatch {
    String value();

    /** False when ASCII letters match in either case; always true for a regex. */
    boolean caseSensitive();

    record Prefix(String value, boolean caseSensitive) implements PathMatch {
      public Prefix {
        Objects.requireNonNull(value, "value");
      }

      /** A case-sensitive prefix. */
      public Prefix(String value) {
        this(value, true);
      }
    }

    record Exact(String value, boolean caseSensitive) implements PathMatch {
      public Exact {
        Objects.requireNonNull(value, "value");
      }

      /** A case-sensitive exact path. */
      public Exact(String value) {
        this(value, true);
      }
    }

    record Regex(String value) implements PathMatch {
      public Regex {
        Objects.requireNonNull(value, "value");
      }

      @Override
      public boolean caseSensitive() {
        return true;
      }
    }
  }

  /**
   * A condition on one header; {@code invert} negates it.
   *
   * @param name lower case
   */
  public record HeaderMatch(String name, Condition condition, boolean invert) {
    public HeaderMatch {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(condition, "condition");
      if (!name.equals(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("header names are lower case, got \"" + name + "\"");
      }
    }
  }

  /**
   * A condition on one query parameter (case-sensitive name); {@code Present(false)} is refused, as Envoy cannot
   * match an absent parameter.
   */
  public record QueryParameterMatch(String name, Condition condition) {
    public QueryParameterMatch {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(condition, "condition");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a query parameter name must not be empty");
      }
      if (condition instanceof Present present && !present.present()) {
        throw new IllegalArgumentException("query parameter " + name + ": absence cannot be matched");
      }
    }
  }

  /** Exactly one way of matching a header's (or query parameter's) value. */
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

  /** {@code true}: the header exists; {@code false}: it is absent. */
  public record Present(boolean present) implements Condition {
  }
}
