package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A route's action: exactly one of {@code route}, {@code split}, {@code redirect}, {@code directResponse},
 * {@code delegate}.
 */
final class ActionParser {

  private static final List<String> ACTIONS = List.of("route", "split", "redirect", "directResponse", "delegate");
  private static final Set<String> FORWARD = Set.of("upstream", "namespace");
  private static final Set<String> TARGET = Set.of("upstream", "namespace", "weight");
  private static final Set<String> REDIRECT =
      Set.of("host", "path", "prefixRewrite", "responseCode", "httpsRedirect", "stripQuery");
  private static final Set<String> DIRECT = Set.of("status", "body");
  private static final Set<String> DELEGATE = Set.of("ref", "selector");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> SELECTOR = Set.of("matchLabels", "namespaces");

  private ActionParser() {
  }

  static Optional<RouteAction> parse(Fields route) {
    List<String> given = ACTIONS.stream().filter(route::has).toList();
    if (given.size() > 1) {
      route.problem(route.path(), Reasons.CONFLICTING_FIELDS,
          "a route has exactly one action, got " + String.join(" and ", given));
      return Optional.empty();
    }
    if (given.isEmpty()) {
      route.problem(route.path(), Reasons.MISSING_FIELD,
          "one of route, split, redirect, directResponse, delegate is required");
      return Optional.empty();
    }
    return switch (given.get(0)) {
      case "route" -> route.object("route", FORWARD)
          .flatMap(f -> ObjectRefs.read(f, "upstream"))
          .map(RouteAction.Forward::new);
      case "split" -> route.list("split", false).flatMap(elements -> split(elements, route.problems()));
      case "redirect" -> route.object("redirect", REDIRECT).flatMap(ActionParser::redirect);
      case "directResponse" -> route.object("directResponse", DIRECT).flatMap(ActionParser::directResponse);
      default -> route.object("delegate", DELEGATE).flatMap(ActionParser::delegate);
    };
  }

  private static Optional<RouteAction> split(List<Fields.Element> elements, List<Problem> problems) {
    List<RouteAction.WeightedTarget> targets = new ArrayList<>();
    boolean ok = true;
    for (Fields.Element element : elements) {
      Optional<RouteAction.WeightedTarget> target = Fields.of(element.node(), element.path(), problems, TARGET)
          .flatMap(t -> {
            Optional<ObjectRef> ref = ObjectRefs.read(t, "upstream");
            Optional<Integer> weight = t.requiredInteger("weight");
            return ref.flatMap(r -> weight.map(w -> new RouteAction.WeightedTarget(r, w)));
          });
      target.ifPresent(targets::add);
      ok &= target.isPresent();
    }
    return ok ? Optional.of(new RouteAction.Split(targets)) : Optional.empty();
  }

  private static Optional<RouteAction> redirect(Fields fields) {
    int before = fields.problems().size();
    if (fields.has("path") && fields.has("prefixRewrite")) {
      fields.problem(fields.path(), Reasons.CONFLICTING_FIELDS, "give either path or prefixRewrite, not both");
    }
    Optional<String> host = fields.string("host");
    Optional<String> path = fields.string("path");
    Optional<String> prefixRewrite = fields.string("prefixRewrite");
    int code = fields.integer("responseCode").orElse(RouteAction.Redirect.DEFAULT_RESPONSE_CODE);
    boolean https = fields.bool("httpsRedirect").orElse(false);
    boolean stripQuery = fields.bool("stripQuery").orElse(false);
    if (fields.problems().size() != before) {
      return Optional.empty();
    }
    return Optional.of(new RouteAction.Redirect(host, path, prefixRewrite, code, https, stripQuery));
  }

  private static Optional<RouteAction> directResponse(Fields fields) {
    Optional<Integer> status = fields.requiredInteger("status");
    boolean hasBody = fields.has("body");
    Optional<String> body = fields.string("body");
    if (status.isEmpty() || (hasBody && body.isEmpty())) {
      return Optional.empty();
    }
    return Optional.of(new RouteAction.DirectResponse(status.get(), body));
  }

  private static Optional<RouteAction> delegate(Fields fields) {
    boolean byRef = fields.has("ref");
    boolean bySelector = fields.has("selector");
    if (byRef == bySelector) {
      fields.problem(fields.path(), byRef ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "a delegate has exactly one of ref and selector");
      return Optional.empty();
    }
    if (byRef) {
      return fields.object("ref", REF).flatMap(ref -> ObjectRefs.read(ref, "name"))
          .map(ref -> new RouteAction.Delegate(new RouteAction.DelegateRef(ref)));
    }
    return fields.object("selector", SELECTOR).flatMap(selector -> {
      Optional<Map<String, String>> labels = selector.has("matchLabels")
          ? selector.stringMap("matchLabels") : Optional.of(Map.of());
      Optional<List<String>> namespaces = selector.has("namespaces")
          ? selector.stringList("namespaces", false) : Optional.of(List.of());
      return labels.flatMap(l -> namespaces.map(n ->
          new RouteAction.Delegate(new RouteAction.DelegateSelector(l, n))));
    });
  }
}
