package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.HeaderMatch;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.PathMatch;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteMatch;
import io.holdfast.api.RouteTable;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Delegation}'s path contexts: Gloo's {@code inheritablePathMatchers} as its converter resolves it. */
class PathInheritanceTest {

  private static final RouteAction FORWARD = new RouteAction.Forward(new ObjectRef("pets", Optional.empty()));
  private static final RouteAction DELEGATE = new RouteAction.Delegate(new RouteAction.DelegateRef(
      new ObjectRef("rt", Optional.empty())));

  private static Route route(RouteMatch match, RouteAction action, Optional<Boolean> flag) {
    return Route.of(match, action).withInheritPath(flag);
  }

  private static Delegation.PathContext context(String prefix, boolean inherit) {
    return new Delegation.PathContext(new PathMatch.Prefix(prefix), inherit);
  }

  @Test
  void aVirtualServiceRouteHandsItsOwnPrefixWithItsFlagFalseUnlessSet() {
    assertThat(Delegation.handed(Optional.empty(), route(RouteMatch.prefix("/a"), DELEGATE, Optional.empty())))
        .isEqualTo(context("/a", false));
    assertThat(Delegation.handed(Optional.empty(), route(RouteMatch.prefix("/a"), DELEGATE, Optional.of(true))))
        .isEqualTo(context("/a", true));
  }

  @Test
  void aDelegatedDelegatingRouteTakesThePrefixItIsHandedUnlessItsOwnFlagIsFalse() {
    Optional<Delegation.PathContext> reached = Optional.of(context("/a", true));
    assertThat(Delegation.handed(reached, route(RouteMatch.prefix("/zzz"), DELEGATE, Optional.empty())))
        .isEqualTo(context("/a", true));
    assertThat(Delegation.handed(reached, route(RouteMatch.prefix("/a/b"), DELEGATE, Optional.of(false))))
        .isEqualTo(context("/a/b", false));
    assertThat(Delegation.handed(Optional.of(context("/a", false)), route(RouteMatch.prefix("/a/b"), DELEGATE,
        Optional.of(true)))).isEqualTo(context("/a", true));
  }

  @Test
  void aRouteThatTakesThePrefixNeverLeavesItAndOneWithItsOwnFalseIsChecked() {
    RouteTable table = new RouteTable(Metadata.of("apps", "rt"), List.of(
        route(RouteMatch.regex("/x.*"), FORWARD, Optional.empty()),
        route(RouteMatch.prefix("/other"), FORWARD, Optional.of(false))), 0);
    assertThat(Delegation.violations(context("/a", true), table)).extracting(Delegation.Violation::field)
        .containsExactly("spec.routes[1].match.prefix");
    assertThat(Delegation.violations(context("/a", false), table)).extracting(Delegation.Violation::field)
        .containsExactly("spec.routes[0].match.regex", "spec.routes[1].match.prefix");
  }

  @Test
  void theMatchKeepsTheChildsOtherConditionsAndTheChildIsNotChanged() {
    HeaderMatch team = new HeaderMatch("x-team", new HeaderMatch.Exact("blue"), false);
    Route child = route(new RouteMatch(Optional.of(new PathMatch.Exact("/q")), List.of(team), List.of()), FORWARD,
        Optional.empty());
    Delegation.PathContext caseless = new Delegation.PathContext(new PathMatch.Prefix("/a", false), true);
    RouteMatch served = Delegation.inherit(caseless, RouteMatch.prefix("/a"), child).orElseThrow();
    assertThat(served.path()).contains(new PathMatch.Prefix("/a", false));
    assertThat(served.headers()).containsExactly(team);
    assertThat(child.match().path()).contains(new PathMatch.Exact("/q"));
    assertThat(Delegation.inherit(context("/a", false), RouteMatch.prefix("/a"), child).orElseThrow().path())
        .contains(new PathMatch.Exact("/q"));
  }
}
