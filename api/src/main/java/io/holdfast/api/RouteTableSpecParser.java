package io.holdfast.api;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** The {@code spec} of a RouteTable: routes shaped as a VirtualService's, and an optional weight. */
final class RouteTableSpecParser {

  private static final Set<String> SPEC = Set.of("routes", "weight");

  private RouteTableSpecParser() {
  }

  static Optional<GatewayResource> parse(Metadata metadata, JsonNode spec, List<Problem> problems) {
    return Fields.of(spec, "spec", problems, SPEC).flatMap(fields -> {
      Optional<List<Route>> routes = fields.list("routes", true)
          .flatMap(elements -> VirtualServiceSpecParser.routes(elements, problems));
      boolean weightGiven = fields.has("weight");
      Optional<Integer> weight = fields.integer("weight");
      if (weightGiven && weight.isEmpty()) {
        return Optional.empty();
      }
      return routes.map(r -> new RouteTable(metadata, r, weight.orElse(0)));
    });
  }
}
