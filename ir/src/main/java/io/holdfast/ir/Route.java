package io.holdfast.ir;

import java.util.Objects;

/**
 * One route of a virtual host.
 *
 * @param name unique within its virtual host; shown in Envoy's stats and NACKs
 */
public record Route(Origin origin, String name, RouteMatch match, RouteAction action) {

  public Route {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(action, "action");
  }
}
