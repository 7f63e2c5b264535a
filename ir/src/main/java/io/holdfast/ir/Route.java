package io.holdfast.ir;

import io.holdfast.ir.RoutePolicies.Cors;
import io.holdfast.ir.RoutePolicies.HeaderMutation;
import java.util.Objects;
import java.util.Optional;

/**
 * One route of a virtual host.
 *
 * @param name    unique within its virtual host; shown in Envoy's stats and NACKs
 * @param headers applied whatever the action (response headers reach redirects and direct responses too)
 * @param cors    answers CORS preflights and decorates responses, whatever the action
 * @param security authentication and authorisation checked before the action
 * @param traffic  rate limits, compression, CSRF protection and body limit ({@link RouteTraffic#NONE}: none)
 */
public record Route(Origin origin, String name, RouteMatch match, RouteAction action, HeaderMutation headers,
    Optional<Cors> cors, RouteSecurity security, RouteTraffic traffic) {

  public Route {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(cors, "cors");
    Objects.requireNonNull(security, "security");
    Objects.requireNonNull(traffic, "traffic");
  }

  /** A route without security or traffic policies. */
  public Route(Origin origin, String name, RouteMatch match, RouteAction action, HeaderMutation headers,
      Optional<Cors> cors) {
    this(origin, name, match, action, headers, cors, RouteSecurity.NONE, RouteTraffic.NONE);
  }

  /** A route without traffic policies. */
  public Route(Origin origin, String name, RouteMatch match, RouteAction action, HeaderMutation headers,
      Optional<Cors> cors, RouteSecurity security) {
    this(origin, name, match, action, headers, cors, security, RouteTraffic.NONE);
  }

  /** A route without security. */
  public Route(Origin origin, String name, RouteMatch match, RouteAction action, HeaderMutation headers,
      Optional<Cors> cors, RouteTraffic traffic) {
    this(origin, name, match, action, headers, cors, RouteSecurity.NONE, traffic);
  }

  /** The same route with other security (a policy attached from outside the route). */
  public Route withSecurity(RouteSecurity newSecurity) {
    return new Route(origin, name, match, action, headers, cors, newSecurity, traffic);
  }

  /** The same route with other traffic policies (a policy attached from outside the route). */
  public Route withTraffic(RouteTraffic newTraffic) {
    return new Route(origin, name, match, action, headers, cors, security, newTraffic);
  }

  /** A route without header mutations or CORS. */
  public Route(Origin origin, String name, RouteMatch match, RouteAction action) {
    this(origin, name, match, action, HeaderMutation.NONE, Optional.empty());
  }
}
