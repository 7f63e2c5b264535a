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
 */
final class Delegation {

  /** Selected RouteTables in serving order: lower weight first, then by key. */
  static final Comparator<RouteTable> ORDER =
      Comparator.comparingInt(RouteTable::weight).thenComparing(RouteTable::key);

  /** One route of a RouteTable that leaves the delegating route's prefix. */
  record Violation(String field, String message) {
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

  /** Every route of {@code child} whose path leaves the prefix of {@code delegating}, in route order. */
  static List<Violation> violations(RouteMatch delegating, RouteTable child) {
    PathMatch.Prefix prefix = prefixOf(delegating);
    List<Violation> out = new ArrayList<>();
    for (int i = 0; i < child.routes().size(); i++) {
      Optional<PathMatch> path = child.routes().get(i).match().path();
      if (path.isEmpty()) {
        continue;
      }
      String field = "spec.routes[" + i + "].match";
      if (path.get() instanceof PathMatch.Regex) {
        if (!prefix.value().equals("/")) {
          out.add(new Violation(field + ".regex", "a regex path cannot be shown to stay under the delegated prefix "
              + prefix.value() + "; use a prefix or exact path starting with it"));
        }
      } else if (!contains(prefix, path.get())) {
        String kind = path.get() instanceof PathMatch.Prefix ? "prefix" : "exact";
        out.add(prefix.matches(path.get().value())
            ? new Violation(field + ".caseSensitive", kind + " " + path.get().value() + " ignores case, so it would"
                + " also take paths outside the case-sensitive delegated prefix " + prefix.value())
            : new Violation(field + "." + kind, kind + " " + path.get().value() + " is not under the"
                + (prefix.caseSensitive() ? "" : " case-insensitive") + " delegated prefix " + prefix.value()));
      }
    }
    return out;
  }

  /** The indexes of {@code child}'s routes whose methods share none with the delegating route's: never matched. */
  static List<Integer> disjointMethods(RouteMatch delegating, RouteTable child) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < child.routes().size(); i++) {
      if (inherit(delegating, child.routes().get(i).match()).isEmpty()) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * The match a delegated route is served with: its own path (or the parent's prefix, with its case rule, without one), the parent's
   * header and query-parameter conditions then its own, and the methods both allow. Empty when no method is
   * allowed by both: the route could never match there.
   */
  static Optional<RouteMatch> inherit(RouteMatch parent, RouteMatch child) {
    Optional<PathMatch> path = child.path().isPresent() ? child.path()
        : Optional.of(prefixOf(parent));
    List<io.holdfast.api.HeaderMatch> headers = new ArrayList<>(parent.headers());
    headers.addAll(child.headers());
    List<HttpMethod> methods;
    if (parent.methods().isEmpty()) {
      methods = child.methods();
    } else if (child.methods().isEmpty()) {
      methods = parent.methods();
    } else {
      methods = child.methods().stream().filter(parent.methods()::contains).toList();
      if (methods.isEmpty()) {
        return Optional.empty();
      }
    }
    List<io.holdfast.api.QueryParameterMatch> query = new ArrayList<>(parent.queryParameters());
    query.addAll(child.queryParameters());
    return Optional.of(new RouteMatch(path, headers, methods, query));
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
