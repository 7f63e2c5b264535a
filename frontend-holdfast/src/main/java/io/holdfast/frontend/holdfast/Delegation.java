package io.holdfast.frontend.holdfast;

import io.holdfast.api.HttpMethod;
import io.holdfast.api.PathMatch;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteMatch;
import io.holdfast.api.RouteTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What validation and lowering both need to know about delegation, so that they agree: which RouteTables a
 * delegating route picks and in which order, whether a RouteTable's routes stay under the delegating route's
 * prefix, and the match a delegated route gets from its parent. Pure.
 *
 * <p>Like Gloo Edge: a delegating route has a prefix match; a delegated route's path must be a prefix or exact
 * path starting with that prefix (compared as strings, so {@code /team-a} also covers {@code /team-ab}; ignoring
 * ASCII case where the prefix does, see {@link #contains}); a regex
 * path is refused unless the prefix is {@code /}, since it cannot be shown to stay under it; a delegated route
 * without a path condition gets the parent's prefix. Header and query-parameter conditions of the parent are added
 * to the child's (all must hold) and methods are intersected.
 *
 * <p>Gloo's {@code inheritablePathMatchers} ({@link Route#inheritPath()}) is resolved along the walk, as Gloo's
 * converter does: a delegated route whose value (its own, else the one its delegating route was given) is true is
 * served with the delegating route's prefix and case rule, its own path set aside, so it never leaves the prefix.
 * What a delegating route hands down is a {@link PathContext}; a RouteTable reached through parents that hand down
 * different ones is checked and served under each as that parent's context says, never edited in place.
 */
final class Delegation {

  /** Selected RouteTables in serving order: lower weight first, then by key. */
  static final Comparator<RouteTable> ORDER =
      Comparator.comparingInt(RouteTable::weight).thenComparing(RouteTable::key);

  /**
   * Most different inherited paths ({@link PathContext}s with {@code inheritPath} true) one RouteTable is checked
   * under: they only arise from Gloo's {@code inheritablePathMatchers}, each costs a pass over the table's routes,
   * and without a bound a table shared by many flagged parents down a chain would be checked once per parent at
   * every level. Real configs hand a table one or two.
   */
  static final int MAX_INHERITED_PATHS = io.holdfast.api.InputLimits.MAX_INHERITED_PATHS;

  /**
   * What a delegating route hands down about paths: its effective prefix (with its case rule) and whether the routes
   * it delegates to take that prefix instead of their own path unless they say otherwise (Gloo's
   * {@code inheritablePathMatchers}, resolved).
   */
  record PathContext(PathMatch.Prefix prefix, boolean inheritPath) {
  }

  /**
   * The context {@code delegating} hands down, written in an object reached with {@code reached} (empty for a
   * VirtualService, whose routes keep their own paths whatever their flag: Gloo resolves it for delegated routes).
   */
  static PathContext handed(Optional<PathContext> reached, Route delegating) {
    boolean inherit = delegating.inheritPath().orElse(reached.map(PathContext::inheritPath).orElse(false));
    PathMatch.Prefix prefix = reached.isPresent() && inherit ? reached.get().prefix() : prefixOf(delegating.match());
    return new PathContext(prefix, inherit);
  }

  /** Whether {@code route}, delegated to under {@code context}, is served with the context's prefix. */
  static boolean takesPrefix(PathContext context, Route route) {
    return route.inheritPath().orElse(context.inheritPath());
  }

  /** Route {@code index} of a RouteTable leaves the delegating route's prefix: it is pruned under that route. */
  record Violation(int index, String field, String message) {
  }

  private Delegation() {
  }

  /** The key a reference names, given the delegating object's namespace; empty for a selector. */
  static Optional<ResourceKey> refKey(String ownerNamespace, RouteAction.Delegate delegate) {
    return delegate.target() instanceof RouteAction.DelegateRef ref
        ? Optional.of(ref.ref().resolve(ResourceKey.ROUTE_TABLE, ownerNamespace)) : Optional.empty();
  }

  /**
   * RouteTables indexed by key, so that a reference is found without scanning them all: a config of thousands of
   * tables, each delegating by reference, is then checked and lowered in linear time. Selectors still look at
   * every table. A table in another namespace is picked only with the delegating object's {@link Consent}, so
   * validation and lowering agree on it.
   */
  static final class Tables {
    private final List<RouteTable> all;
    private final Map<ResourceKey, RouteTable> byKey = new HashMap<>();
    private final Consent consent;

    Tables(List<RouteTable> all, Consent consent) {
      this.all = all;
      this.consent = consent;
      all.forEach(t -> byKey.putIfAbsent(t.key(), t));
    }

    /** The RouteTables {@code delegate}, written in {@code owner}, picks, in order. */
    List<RouteTable> targets(ResourceKey owner, RouteAction.Delegate delegate) {
      return matching(owner, delegate).stream().filter(t -> consent.delegationPermitted(owner, t.key())).toList();
    }

    /** The RouteTables {@code delegate}'s selector matches that {@code owner} may not take (no grant), in order. */
    List<RouteTable> refused(ResourceKey owner, RouteAction.Delegate delegate) {
      return matching(owner, delegate).stream().filter(t -> !consent.delegationPermitted(owner, t.key())).toList();
    }

    private List<RouteTable> matching(ResourceKey owner, RouteAction.Delegate delegate) {
      Optional<ResourceKey> ref = refKey(owner.namespace(), delegate);
      if (ref.isPresent()) {
        RouteTable table = byKey.get(ref.get());
        return table == null ? List.of() : List.of(table);
      }
      RouteAction.DelegateSelector selector = (RouteAction.DelegateSelector) delegate.target();
      return all.stream().filter(t -> selector.selects(owner.namespace(), t)).sorted(ORDER).toList();
    }

    Optional<RouteTable> get(ResourceKey key) {
      return Optional.ofNullable(byKey.get(key));
    }
  }

  /** The prefix a delegating route hands over; validation rejects a delegating route without one. */
  static PathMatch.Prefix prefixOf(RouteMatch delegating) {
    return delegating.path().filter(p -> p instanceof PathMatch.Prefix).map(p -> (PathMatch.Prefix) p)
        .orElse(new PathMatch.Prefix("/"));
  }

  /**
   * Whether every request path {@code child} (a prefix or exact path) matches also starts with {@code prefix}, each
   * compared as Envoy does: the child's literal path must be taken by the prefix; a child that ignores case also
   * takes its path with other letter cases, which a case-sensitive prefix takes only if it has no letters.
   */
  static boolean contains(PathMatch.Prefix prefix, PathMatch child) {
    return prefix.matches(child.value())
        && (child.caseSensitive() || !prefix.caseSensitive() || !PathMatch.hasAsciiLetter(prefix.value()));
  }

  /**
   * Every route of {@code child} whose path leaves the prefix {@code context} hands down, in route order; a route
   * that takes the prefix ({@link #takesPrefix}) never does. Each is pruned under that context alone (as Gloo Edge
   * skips it with a warning): the table's other routes are served.
   */
  static List<Violation> violations(PathContext context, RouteTable child) {
    List<Violation> out = new ArrayList<>();
    for (int i = 0; i < child.routes().size(); i++) {
      violation(context, child.routes().get(i), i).ifPresent(out::add);
    }
    return out;
  }

  /** Whether {@code route}, delegated to under {@code context}, leaves its prefix: then it is not served there. */
  static boolean leaves(PathContext context, Route route) {
    return violation(context, route, 0).isPresent();
  }

  private static Optional<Violation> violation(PathContext context, Route route, int i) {
    PathMatch.Prefix prefix = context.prefix();
    Optional<PathMatch> path = route.match().path();
    if (path.isEmpty() || takesPrefix(context, route)) {
      return Optional.empty();
    }
    String field = "spec.routes[" + i + "].match";
    if (path.get() instanceof PathMatch.Regex) {
      return prefix.value().equals("/") ? Optional.empty() : Optional.of(new Violation(i, field + ".regex",
          "a regex path cannot be shown to stay under the delegated prefix " + prefix.value()
              + "; use a prefix or exact path starting with it"));
    }
    if (contains(prefix, path.get())) {
      return Optional.empty();
    }
    String kind = path.get() instanceof PathMatch.Prefix ? "prefix" : "exact";
    return Optional.of(prefix.matches(path.get().value())
        ? new Violation(i, field + ".caseSensitive", kind + " " + path.get().value() + " ignores case, so it"
            + " would also take paths outside the case-sensitive delegated prefix " + prefix.value())
        : new Violation(i, field + "." + kind, kind + " " + path.get().value() + " is not under the"
            + (prefix.caseSensitive() ? "" : " case-insensitive") + " delegated prefix " + prefix.value()));
  }

  /** The indexes of {@code child}'s routes whose methods share none with the delegating route's: never matched. */
  static List<Integer> disjointMethods(RouteMatch delegating, RouteTable child) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < child.routes().size(); i++) {
      if (methods(delegating, child.routes().get(i).match()).isEmpty()) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * The match a delegated route is served with under {@code context}: its own path, or the context's prefix (with
   * its case rule) when it has none or takes the prefix ({@link #takesPrefix}); the parent's header and
   * query-parameter conditions then its own; and the methods both allow. Empty when no method is allowed by both:
   * the route could never match there.
   *
   * @param parent the delegating route's effective match
   */
  static Optional<RouteMatch> inherit(PathContext context, RouteMatch parent, Route child) {
    Optional<List<HttpMethod>> methods = methods(parent, child.match());
    if (methods.isEmpty()) {
      return Optional.empty();
    }
    Optional<PathMatch> path = child.match().path().isPresent() && !takesPrefix(context, child)
        ? child.match().path() : Optional.of(context.prefix());
    List<io.holdfast.api.HeaderMatch> headers = new ArrayList<>(parent.headers());
    headers.addAll(child.match().headers());
    List<io.holdfast.api.QueryParameterMatch> query = new ArrayList<>(parent.queryParameters());
    query.addAll(child.match().queryParameters());
    return Optional.of(new RouteMatch(path, headers, methods.get(), query));
  }

  /** The methods a delegated route is served for: both allow them; empty (not an empty list) when none. */
  private static Optional<List<HttpMethod>> methods(RouteMatch parent, RouteMatch child) {
    if (parent.methods().isEmpty()) {
      return Optional.of(child.methods());
    }
    if (child.methods().isEmpty()) {
      return Optional.of(parent.methods());
    }
    List<HttpMethod> both = child.methods().stream().filter(parent.methods()::contains).toList();
    return both.isEmpty() ? Optional.empty() : Optional.of(both);
  }

  /** The routes of a RouteTable that delegate, with their index, for walking the delegation graph. */
  static List<Integer> delegating(List<Route> routes) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < routes.size(); i++) {
      if (routes.get(i).action() instanceof RouteAction.Delegate) {
        out.add(i);
      }
    }
    return out;
  }
}
