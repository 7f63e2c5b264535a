package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A route's {@code match}: one path condition at most (a prefix or exact path may set {@code caseSensitive}),
 * header conditions, methods.
 */
final class MatchParser {

  private static final Set<String> MATCH = Set.of("prefix", "exact", "regex", "headers", "methods",
      "queryParameters", "caseSensitive");
  private static final Set<String> HEADER = Set.of("name", "exact", "prefix", "regex", "present", "invert");
  private static final List<String> PATH_KINDS = List.of("prefix", "exact", "regex");
  private static final List<String> HEADER_KINDS = List.of("exact", "prefix", "regex", "present");

  private MatchParser() {
  }

  static Optional<RouteMatch> parse(Fields route, JsonNode node) {
    return Fields.of(node, route.path("match"), route.problems(), MATCH).flatMap(fields -> {
      Optional<Optional<PathMatch>> path = path(fields);
      Optional<List<HeaderMatch>> headers = fields.has("headers")
          ? fields.list("headers", false).flatMap(elements -> headers(elements, fields.problems()))
          : Optional.of(List.of());
      Optional<List<HttpMethod>> methods = fields.has("methods") ? methods(fields) : Optional.of(List.of());
      Optional<List<QueryParameterMatch>> queryParameters = RouteOptionsParser.queryParameters(fields);
      if (path.isEmpty() || headers.isEmpty() || methods.isEmpty() || queryParameters.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new RouteMatch(path.get(), headers.get(), methods.get(), queryParameters.get()));
    });
  }

  /** Empty on error; otherwise the optional path condition. */
  private static Optional<Optional<PathMatch>> path(Fields fields) {
    List<String> given = PATH_KINDS.stream().filter(fields::has).toList();
    if (given.size() > 1) {
      fields.problem(fields.path(), Reasons.CONFLICTING_MATCHER,
          "only one of prefix, exact, regex may be given, got " + String.join(" and ", given));
      return Optional.empty();
    }
    Optional<Boolean> caseSensitive = fields.bool("caseSensitive");
    if (fields.has("caseSensitive") && caseSensitive.isEmpty()) {
      return Optional.empty();
    }
    if (caseSensitive.isPresent() && (given.isEmpty() || given.get(0).equals("regex"))) {
      // Envoy's case_sensitive applies to prefix and exact paths only; a regex states its own case rule.
      fields.problem(fields.path("caseSensitive"), Reasons.CONFLICTING_MATCHER, given.isEmpty()
          ? "caseSensitive applies to a prefix or exact path, and this match has none"
          : "caseSensitive does not apply to a regex; start the regex with (?i) to ignore case");
      return Optional.empty();
    }
    if (given.isEmpty()) {
      return Optional.of(Optional.empty());
    }
    String kind = given.get(0);
    boolean sensitive = caseSensitive.orElse(true);
    return fields.string(kind).map(value -> Optional.of(switch (kind) {
      case "prefix" -> new PathMatch.Prefix(value, sensitive);
      case "exact" -> new PathMatch.Exact(value, sensitive);
      default -> new PathMatch.Regex(value);
    }));
  }

  static Optional<List<HeaderMatch>> headers(List<Fields.Element> elements, List<Problem> problems) {
    List<HeaderMatch> headers = new ArrayList<>();
    boolean ok = true;
    for (Fields.Element element : elements) {
      Optional<HeaderMatch> header = Fields.of(element.node(), element.path(), problems, HEADER)
          .flatMap(MatchParser::header);
      header.ifPresent(headers::add);
      ok &= header.isPresent();
    }
    return ok ? Optional.of(headers) : Optional.empty();
  }

  private static Optional<HeaderMatch> header(Fields fields) {
    Optional<String> name = fields.requiredString("name");
    boolean invert = fields.bool("invert").orElse(false);
    List<String> given = HEADER_KINDS.stream().filter(fields::has).toList();
    if (given.size() > 1) {
      fields.problem(fields.path(), Reasons.CONFLICTING_MATCHER,
          "only one of exact, prefix, regex, present may be given, got " + String.join(" and ", given));
      return Optional.empty();
    }
    if (given.isEmpty()) {
      fields.problem(fields.path(), Reasons.EMPTY_MATCHER,
          "a header matcher needs one of exact, prefix, regex, present");
      return Optional.empty();
    }
    String kind = given.get(0);
    Optional<HeaderMatch.Condition> condition = kind.equals("present")
        ? fields.bool("present").map(HeaderMatch.Present::new)
        : fields.string(kind).map(value -> switch (kind) {
          case "exact" -> new HeaderMatch.Exact(value);
          case "prefix" -> new HeaderMatch.Prefix(value);
          default -> new HeaderMatch.Regex(value);
        });
    return name.flatMap(n -> condition.map(c -> new HeaderMatch(n, c, invert)));
  }

  private static Optional<List<HttpMethod>> methods(Fields fields) {
    return fields.stringList("methods", false).flatMap(names -> {
      List<HttpMethod> methods = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        try {
          methods.add(HttpMethod.valueOf(names.get(i)));
        } catch (IllegalArgumentException e) {
          fields.problem(Fields.index(fields.path("methods"), i), Reasons.INVALID_VALUE,
              "unknown HTTP method \"" + names.get(i) + "\" (use upper case, e.g. GET)");
        }
      }
      return methods.size() == names.size() ? Optional.of(methods) : Optional.empty();
    });
  }
}
