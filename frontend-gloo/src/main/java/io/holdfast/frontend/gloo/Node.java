package io.holdfast.frontend.gloo;

import io.holdfast.api.Reasons;
import io.holdfast.ir.Finding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A strict reader over one JSON object of a Gloo document, at a field path (e.g.
 * {@code spec.virtualHost.routes[2]}): every problem becomes an error {@link Finding} naming that path, and a field
 * the reader is not told about ({@link #only}) rejects the object with {@link GlooFeatures#UNSUPPORTED}, so nothing
 * is accepted and ignored. Never throws on any input.
 */
final class Node {

  /**
   * Elements read from one list. Reason: a hand-written Gloo object has at most hundreds of routes or hosts; the
   * bound keeps one hostile object from pinning the build thread (Holdfast's own validation bounds what follows).
   */
  static final int MAX_LIST = 4096;

  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(?:\\.(\\d{1,9}))?(ms|s|m|h)");

  final JsonNode json;
  final String path;
  private final List<Finding> findings;

  Node(JsonNode json, String path, List<Finding> findings) {
    this.json = json;
    this.path = path;
    this.findings = findings;
  }

  String at(String field) {
    return path.isEmpty() ? field : path + "." + field;
  }

  boolean has(String field) {
    return json.isObject() && json.has(field) && !json.get(field).isNull();
  }

  void error(String field, String reason, String message) {
    findings.add(new Finding(Finding.Severity.ERROR, field, reason, message));
  }

  /** A finding that leaves the object served. */
  void warn(String field, String reason, String message) {
    findings.add(new Finding(Finding.Severity.WARNING, field, reason, message));
  }

  /**
   * Renames this object's fields written with their proto names ({@code retry_on}) to their JSON names
   * ({@code retryOn}): Gloo reads YAML with protojson, which accepts both. Both spellings of one field conflict.
   * Walks this one object's fields only (their number is bounded by the object's size, as every reader's is).
   */
  Node protoNames() {
    if (!(json instanceof ObjectNode object)) {
      return this;
    }
    for (String name : List.copyOf(object.propertyNames())) {
      if (!name.contains("_")) {
        continue;
      }
      StringBuilder camel = new StringBuilder();
      boolean upper = false;
      for (char c : name.toCharArray()) {
        if (c == '_') {
          upper = true;
        } else {
          camel.append(upper ? Character.toUpperCase(c) : c);
          upper = false;
        }
      }
      String jsonName = camel.toString();
      JsonNode value = object.remove(name);
      if (object.has(jsonName)) {
        error(at(name), Reasons.CONFLICTING_FIELDS, name + " and " + jsonName + " are the same field");
      } else {
        object.set(jsonName, value);
      }
    }
    return this;
  }

  /** Rejects every field of this object outside {@code supported}, naming each and why Holdfast lacks it. */
  Node only(String kind, Set<String> supported) {
    if (json.isMissingNode() || json.isNull()) {
      return this; // an absent object has no fields
    }
    if (!json.isObject()) {
      error(path, Reasons.WRONG_TYPE, "expected an object");
      return this;
    }
    for (String name : json.propertyNames()) {
      if (!supported.contains(name)) {
        error(at(name), GlooFeatures.UNSUPPORTED, GlooFeatures.why(kind, name));
      }
    }
    return this;
  }

  /** The object at {@code field}; a missing node when absent. */
  Node child(String field) {
    JsonNode value = json.path(field);
    if (has(field) && !value.isObject()) {
      error(at(field), Reasons.WRONG_TYPE, "expected an object");
    }
    return new Node(value, at(field), findings);
  }

  Optional<String> string(String field) {
    if (!has(field)) {
      return Optional.empty();
    }
    JsonNode value = json.get(field);
    if (!value.isString() && !value.isNumber() && !value.isBoolean()) {
      error(at(field), Reasons.WRONG_TYPE, "expected a string");
      return Optional.empty();
    }
    return Optional.of(value.asString());
  }

  Optional<String> requiredString(String field) {
    if (!has(field)) {
      error(at(field), Reasons.MISSING_FIELD, field + " is required");
    }
    return string(field);
  }

  Optional<Integer> integer(String field) {
    if (!has(field)) {
      return Optional.empty();
    }
    JsonNode value = json.get(field);
    if (value.isIntegralNumber() && value.canConvertToInt()) {
      return Optional.of(value.asInt());
    }
    if (value.isString() && value.asString().matches("-?\\d{1,9}")) {
      return Optional.of(Integer.parseInt(value.asString())); // protobuf JSON writes 64-bit ints as strings
    }
    error(at(field), Reasons.WRONG_TYPE, "expected an integer");
    return Optional.empty();
  }

  Optional<Double> number(String field) {
    if (!has(field)) {
      return Optional.empty();
    }
    JsonNode value = json.get(field);
    if (value.isNumber()) {
      return Optional.of(value.asDouble());
    }
    error(at(field), Reasons.WRONG_TYPE, "expected a number");
    return Optional.empty();
  }

  /** A bool, or a protobuf BoolValue written as {@code {value: true}}. */
  Optional<Boolean> bool(String field) {
    if (!has(field)) {
      return Optional.empty();
    }
    JsonNode value = json.get(field);
    if (value.isObject() && value.path("value").isBoolean() && value.size() == 1) {
      return Optional.of(value.path("value").asBoolean());
    }
    if (value.isBoolean()) {
      return Optional.of(value.asBoolean());
    }
    error(at(field), Reasons.WRONG_TYPE, "expected true or false");
    return Optional.empty();
  }

  /** A protobuf Duration as Gloo's YAML writes it: {@code 15s}, {@code 0.5s}, also {@code 100ms}, {@code 1m}. */
  Optional<Duration> duration(String field) {
    Optional<String> text = string(field);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Matcher m = DURATION.matcher(text.get());
    if (!m.matches()) {
      error(at(field), Reasons.INVALID_DURATION, "\"" + text.get() + "\" is not a duration (e.g. 15s, 0.5s)");
      return Optional.empty();
    }
    long whole = Long.parseLong(m.group(1));
    String fraction = m.group(2) == null ? "0" : m.group(2);
    long nanosPerUnit = switch (m.group(3)) {
      case "ms" -> 1_000_000L;
      case "s" -> 1_000_000_000L;
      case "m" -> 60_000_000_000L;
      default -> 3_600_000_000_000L;
    };
    double part = Double.parseDouble("0." + fraction) * nanosPerUnit;
    return Optional.of(Duration.ofNanos(whole * nanosPerUnit + Math.round(part)));
  }

  /** The elements of a list (at most {@link #MAX_LIST}); empty when absent. */
  List<Node> list(String field) {
    if (!has(field)) {
      return List.of();
    }
    JsonNode value = json.get(field);
    if (!value.isArray()) {
      error(at(field), Reasons.WRONG_TYPE, "expected a list");
      return List.of();
    }
    if (value.size() > MAX_LIST) {
      error(at(field), Reasons.INVALID_VALUE, value.size() + " elements, more than the " + MAX_LIST + " read");
      return List.of();
    }
    List<Node> out = new ArrayList<>();
    for (int i = 0; i < value.size(); i++) {
      out.add(new Node(value.get(i), at(field) + "[" + i + "]", findings));
    }
    return out;
  }

  List<String> strings(String field) {
    List<String> out = new ArrayList<>();
    for (Node element : list(field)) {
      if (element.json.isString()) {
        out.add(element.json.asString());
      } else {
        error(element.path, Reasons.WRONG_TYPE, "expected a string");
      }
    }
    return out;
  }

  /** A map of strings (labels, selectors), at most {@link #MAX_LIST} entries. */
  Map<String, String> stringMap(String field) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!has(field)) {
      return out;
    }
    JsonNode value = json.get(field);
    if (!value.isObject() || value.size() > MAX_LIST) {
      error(at(field), Reasons.WRONG_TYPE, "expected a map of strings");
      return out;
    }
    for (String key : value.propertyNames()) {
      JsonNode v = value.get(key);
      if (v.isString() || v.isNumber() || v.isBoolean()) {
        out.put(key, v.asString());
      } else {
        error(at(field) + "." + key, Reasons.WRONG_TYPE, "expected a string");
      }
    }
    return out;
  }
}
