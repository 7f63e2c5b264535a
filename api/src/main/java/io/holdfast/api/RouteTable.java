package io.holdfast.api;

import java.util.List;
import java.util.Objects;

/**
 * Routes a VirtualService (or another RouteTable) hands a path prefix to ({@code kind: RouteTable}), so that one
 * team owns the host and others own the paths under it. A route delegates with {@link RouteAction.Delegate}; the
 * delegated routes are served in the parent's virtual host in place of the delegating route, and must stay under
 * its prefix.
 *
 * @param routes evaluated in order; the first match wins
 * @param weight orders the RouteTables one selector picks: lower first, ties by key; default 0
 */
public record RouteTable(Metadata metadata, List<Route> routes, int weight) implements GatewayResource {

  public RouteTable {
    Objects.requireNonNull(metadata, "metadata");
    routes = List.copyOf(routes);
  }

  @Override
  public String kind() {
    return ResourceKey.ROUTE_TABLE;
  }

  @Override
  public RouteTable withMetadata(Metadata value) {
    return new RouteTable(value, routes, weight);
  }
}
