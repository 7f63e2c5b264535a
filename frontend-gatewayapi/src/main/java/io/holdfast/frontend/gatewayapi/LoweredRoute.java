package io.holdfast.frontend.gatewayapi;

import java.util.List;

/**
 * One HTTPRoute's or GRPCRoute's rules lowered: IR routes with their precedence (the front end sorts the routes of
 * all routes attached to a host by it), and what the route's status must report.
 *
 * @param routes      one per rule match, in the route's own order
 * @param problems    backend references that did not resolve (ResolvedRefs=False)
 * @param notAccepted fields Holdfast cannot honour (Accepted=False, reason UnsupportedValue)
 */
public record LoweredRoute(List<RankedRoute> routes, List<ResolvedRefsProblem> problems,
    List<AcceptedProblem> notAccepted) {

  public LoweredRoute {
    routes = List.copyOf(routes);
    problems = List.copyOf(problems);
    notAccepted = List.copyOf(notAccepted);
  }

  public LoweredRoute(List<RankedRoute> routes, List<ResolvedRefsProblem> problems) {
    this(routes, problems, List.of());
  }
}
