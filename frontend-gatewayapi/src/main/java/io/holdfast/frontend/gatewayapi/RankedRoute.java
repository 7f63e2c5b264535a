package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Route;
import java.util.Comparator;
import java.util.Objects;

/** An IR route with its place in the Gateway API's precedence order. */
public record RankedRoute(Route route, Precedence precedence) implements Comparable<RankedRoute> {

  /** Highest precedence first. */
  public static final Comparator<RankedRoute> ORDER = Comparator.comparing(RankedRoute::precedence);

  public RankedRoute {
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(precedence, "precedence");
  }

  @Override
  public int compareTo(RankedRoute other) {
    return precedence.compareTo(other.precedence);
  }
}
