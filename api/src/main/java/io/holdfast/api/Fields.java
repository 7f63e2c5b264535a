package io.holdfast.api;

import io.holdfast.common.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Reads the fields of one JSON object, recording a {@link Problem} with the field's JSON path for every unknown
 * field, wrong type or missing required field. Absent and explicit {@code null} values mean the same. Readers
 * return empty on any problem, so a caller builds its model value only when all parts are present.
 */
final class Fields {

  /** Durations in config are timeouts and intervals; a year is already far beyond any sensible one. */
  private static final Duration MAX_DURATION = Duration.ofDays(365);
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private final JsonNode node;
  private final String path;
  private final List<Problem> problems;

  private Fields(JsonNode node, String path, List<Problem> problems) {
    this.node = node;
    this.path = path;
    this.problems = problems;
  }

  /**
   * A reader over {@code value}, or empty (with a WrongType problem) if it is not an object. Every field not in
   * {@code allowed} is reported as unknown right away.
   */
  static Optional<Fields> of(JsonNode value, String path, List<Problem> problems, Set<String> allowed) {
    if (!value.isObject()) {
      problems.add(new Problem(path, Reasons.WRONG_TYPE, "expected a mapping, got " + describe(value)));
      return Optional.empty();
    }
    for (String name : value.propertyNames()) {
      if (!allowed.contains(name)) {
        problems.add(new Problem(child(path, name), Reasons.UNKNOWN_FIELD,
            "unknown field (allowed: " + String.join(", ", new TreeSet<>(allowed)) + ")"));
      }
    }
    return Optional.of(new Fields(value, path, problems));
  }

  static String child(String path, String name) {
    String step = PLAIN_NAME.matcher(name).matches() ? name : "[\"" + name.replace("\"", "\\\"") + "\"]";
    if (path.isEmpty()) {
      return step;
    }
    return step.startsWith("[") ? path + step : path + "." + step;
  }

  static String index(String path, int i) {
    return path + "[" + i + "]";
  }

  String path() {
    return path;
  }

  String path(String field) {
    return child(path, field);
  }

  List<Problem> problems() {
    return problems;
  }

  void problem(String field, String reason, String message) {
    problems.add(new Problem(field, reason, message));
  }

  boolean has(String field) {
    JsonNode value = node.get(field);
    return value != null && !value.isNull();
  }

  Optional<JsonNode> value(String field) {
    return has(field) ? Optional.of(node.get(field)) : Optional.empty();
  }

  /** The value, or empty with a MissingField problem. */
  Optional<JsonNode> required(String field) {
    if (!has(field)) {
      problem(path(field), Reasons.MISSING_FIELD, "required field is missing");
      return Optional.empty();
    }
    return value(field);
  }

  Optional<String> string(String field) {
    return value(field).flatMap(v -> asString(v, path(field)));
  }

  Optional<String> requiredString(String field) {
    return required(field).flatMap(v -> asString(v, path(field)));
  }

  Optional<Integer> integer(String field) {
    return value(field).flatMap(v -> asInt(v, path(field)));
  }

  Optional<Integer> requiredInteger(String field) {
    return required(field).flatMap(v -> asInt(v, path(field)));
  }

  Optional<Long> longInteger(String field) {
    return value(field).flatMap(v -> {
      if (v.isIntegralNumber() && v.canConvertToLong()) {
        return Optional.of(v.longValue());
      }
      problem(path(field), Reasons.WRONG_TYPE, "expected an integer, got " + describe(v));
      return Optional.empty();
    });
  }

  /** Any JSON number (e.g. a factor such as 1.9). */
  Optional<Double> number(String field) {
    return value(field).flatMap(v -> {
      if (v.isNumber()) {
        return Optional.of(v.doubleValue());
      }
      problem(path(field), Reasons.WRONG_TYPE, "expected a number, got " + describe(v));
      return Optional.empty();
    });
  }

  Optional<Boolean> bool(String field) {
    return value(field).flatMap(v -> {
      if (v.isBoolean()) {
        return Optional.of(v.booleanValue());
      }
      problem(path(field), Reasons.WRONG_TYPE, "expected true or false, got " + describe(v));
      return Optional.empty();
    });
  }

  Optional<Duration> duration(String field) {
    return string(field).flatMap(text -> {
      try {
        return Optional.of(Durations.parse(field, text, MAX_DURATION));
      } catch (IllegalArgumentException e) {
        problem(path(field), Reasons.INVALID_DURATION, e.getMessage());
        return Optional.empty();
      }
    });
  }

  /** The elements of an array field with their paths; empty with a problem if not an array. */
  Optional<List<Element>> list(String field, boolean required) {
    Optional<JsonNode> value = required ? required(field) : value(field);
    return value.flatMap(v -> {
      if (!v.isArray()) {
        problem(path(field), Reasons.WRONG_TYPE, "expected a list, got " + describe(v));
        return Optional.empty();
      }
      List<Element> elements = new ArrayList<>(v.size());
      for (int i = 0; i < v.size(); i++) {
        elements.add(new Element(v.get(i), index(path(field), i)));
      }
      return Optional.of(elements);
    });
  }

  /** A list of strings; empty if the field or any element is wrong. */
  Optional<List<String>> stringList(String field, boolean required) {
    return list(field, required).flatMap(elements -> {
      List<String> strings = new ArrayList<>(elements.size());
      boolean ok = true;
      for (Element element : elements) {
        Optional<String> s = asString(element.node(), element.path());
        s.ifPresent(strings::add);
        ok &= s.isPresent();
      }
      return ok ? Optional.of(strings) : Optional.empty();
    });
  }

  /** A mapping of strings to strings (labels); empty if the field or any value is wrong. */
  Optional<Map<String, String>> stringMap(String field) {
    return value(field).flatMap(v -> {
      if (!v.isObject()) {
        problem(path(field), Reasons.WRONG_TYPE, "expected a mapping, got " + describe(v));
        return Optional.empty();
      }
      Map<String, String> map = new LinkedHashMap<>();
      boolean ok = true;
      for (var entry : v.properties()) {
        Optional<String> s = asString(entry.getValue(), child(path(field), entry.getKey()));
        s.ifPresent(value -> map.put(entry.getKey(), value));
        ok &= s.isPresent();
      }
      return ok ? Optional.of(map) : Optional.empty();
    });
  }

  /** A nested object reader, or empty if absent or not an object. */
  Optional<Fields> object(String field, Set<String> allowed) {
    return value(field).flatMap(v -> of(v, path(field), problems, allowed));
  }

  Optional<Fields> requiredObject(String field, Set<String> allowed) {
    return required(field).flatMap(v -> of(v, path(field), problems, allowed));
  }

  private Optional<String> asString(JsonNode v, String at) {
    if (v.isString()) {
      return Optional.of(v.stringValue());
    }
    problem(at, Reasons.WRONG_TYPE, "expected a string, got " + describe(v));
    return Optional.empty();
  }

  private Optional<Integer> asInt(JsonNode v, String at) {
    if (v.isIntegralNumber() && v.canConvertToInt()) {
      return Optional.of(v.intValue());
    }
    if (v.isIntegralNumber()) {
      problem(at, Reasons.INVALID_VALUE, "integer " + v + " is out of range");
    } else {
      problem(at, Reasons.WRONG_TYPE, "expected an integer, got " + describe(v));
    }
    return Optional.empty();
  }

  static String describe(JsonNode v) {
    if (v.isString()) {
      return "string \"" + v.stringValue() + "\"";
    }
    return switch (v.getNodeType()) {
      case ARRAY -> "a list";
      case OBJECT -> "a mapping";
      case BOOLEAN -> "boolean " + v;
      case NUMBER -> "number " + v;
      case NULL -> "null";
      default -> v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    };
  }

  /** One element of a list and its JSON path. */
  record Element(JsonNode node, String path) {
  }
}
