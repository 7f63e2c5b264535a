package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Route;
import java.util.Comparator;
import java.util.Objects;

/**
 * An IR route with its place in the Gateway API's precedence order, and the policies its rule names through
 * ExtensionRef filters.
 */
public record RankedRoute(Route route, Precedence precedence, RulePolicies policies)
    implements Comparable<RankedRoute> {

  /** Highest precedence first. */
  public static final Comparator<RankedRoute> ORDER = Comparator.comparing(RankedRoute::precedence);

  public RankedRoute {
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(precedence, "precedence");
    Objects.requireNonNull(policies, "policies");
  }

  /** A route whose rule names no policy. */
  public RankedRoute(Route route, Precedence precedence) {
    this(route, precedence, RulePolicies.NONE);
  }

  RankedRoute withRoute(Route changed) {
    return new RankedRoute(changed, precedence, policies);
  }

  @Override
  public int compareTo(RankedRoute other) {
    return precedence.compareTo(other.precedence);
  }
}
