package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayResource;
import io.holdfast.api.InputLimits;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteTable;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Condition;
import io.holdfast.ir.ParentStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Verdicts that depend on where a RouteTable is delegated from, after every resource's own rules and references
 * (so only objects not rejected so far take part), in four passes, none recursive and each linear in the
 * delegations (a table's verdicts are computed once, however many parents share it):
 * <ol>
 *   <li>Cycles: a depth-first walk from each VirtualService (then from each RouteTable not yet reached, in key
 *       order) along delegating routes; a route delegating to a RouteTable already on the walk's path rejects the
 *       RouteTable holding that route ({@code DelegationCycle}, the path in the message). The walk stops at a
 *       rejected table, so what remains is acyclic.</li>
 *   <li>Prefixes, parents before children: each delegation (a parent's delegating route and a RouteTable it
 *       picks) is checked with {@link Delegation#violations}, under each path context the route hands down: one,
 *       or with Gloo's {@code inheritablePathMatchers} one per context its parent is reached with (at most
 *       {@link Delegation#MAX_INHERITED_PATHS} inherited paths per table, {@code TooManyInheritedPaths} beyond);
 *       a route of the table that leaves the prefix under a context is pruned under that context alone, as Gloo
 *       Edge does: a warning on the table at that route's field ({@code PrefixViolation}, naming the parent, at most
 *       {@link #MAX_REPORTED_PRUNED} a delegation, the rest counted), and the parent serves the table's other
 *       routes; a pruned delegating route hands nothing down. A table is never rejected for this. The
 *       RouteTable gets one {@link ParentStatus} per delegating route (section: the route's field path), accepted
 *       unless no route of it is served there; the parent gets a warning ({@code RouteTableRejected}) for each
 *       picked RouteTable serving nothing under that route. A RouteTable more than
 *       {@link InputLimits#maxDelegationDepth()} RouteTables deep is rejected ({@code DelegationTooDeep}).</li>
 *   <li>Size: a VirtualService whose routes after flattening would exceed
 *       {@link InputLimits#maxRoutesPerVirtualHost()} is rejected ({@code TooManyRoutes}).</li>
 *   <li>Reach: a served RouteTable that no served VirtualService reaches gets a note ({@code NotDelegated}).</li>
 * </ol>
 * Rejects a VirtualService only for its size: a missing reference was already decided by {@link Validator}.
 */
final class DelegationRules {

  /** One delegation: {@code parent}'s route {@code index} picks {@code child}. */
  private record Edge(GatewayResource parent, int index, Route route, RouteTable child) {
    String field() {
      return "spec.routes[" + index + "]";
    }
  }

  private final Ledger ledger;
  private final List<VirtualService> virtualServices;
  private final List<RouteTable> tables;
  private final Delegation.Tables index;
  /** The path contexts each served RouteTable is served under, filled parents before children. */
  private final Map<ResourceKey, Reached> reached = new HashMap<>();
  /** Whether any route sets Gloo's {@code inheritablePathMatchers} to true: else every route inherits false. */
  private final boolean flagsInPlay;
  /** The delegations served under at least one context (compared by identity: an Edge holds whole objects). */
  private final Set<Edge> served = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  /** Served RouteTables none of whose routes is served under any parent: every one leaves its prefix. */
  private final Set<ResourceKey> servesNothing = new HashSet<>();

  private DelegationRules(List<VirtualService> virtualServices, List<RouteTable> tables, Ledger ledger,
      Consent consent) {
    this.ledger = ledger;
    this.virtualServices = virtualServices;
    this.tables = tables;
    this.index = new Delegation.Tables(tables, consent);
    this.flagsInPlay = Stream.concat(virtualServices.stream().flatMap(vs -> vs.routes().stream()),
        tables.stream().flatMap(t -> t.routes().stream())).anyMatch(r -> r.inheritPath().orElse(false));
  }

  /** The served RouteTables {@code delegate} of {@code owner} picks, in order. */
  private List<RouteTable> servedTargets(GatewayResource owner, RouteAction.Delegate delegate) {
    return index.targets(owner.key(), delegate).stream().filter(t -> !ledger.isRejected(t.key())).toList();
  }

  /**
   * @param virtualServices the VirtualServices (unique keys) not rejected by then
   * @param tables          every RouteTable with a unique key, rejected or not
   */
  /**
   * @return the served RouteTables reached from a VirtualService with a gRPC domain, with the first such domain
   *         (in VirtualService key order), for {@link GrpcRules}
   */
  static Map<RouteTable, String> check(List<VirtualService> virtualServices, List<RouteTable> tables,
      Ledger ledger, Consent consent) {
    return new DelegationRules(virtualServices, tables, ledger, consent).run();
  }

  private Map<RouteTable, String> run() {
    new CycleSearch().run();
    List<Edge> edges = edges();
    List<RouteTable> order = checkPrefixes(edges);
    Map<ResourceKey, List<Edge>> servedEdges = withoutViolations(edges, served);
    checkRouteCounts(servedEdges, order);
    noteUnreached(servedEdges);
    Map<RouteTable, String> grpc = new LinkedHashMap<>();
    for (VirtualService vs : virtualServices) {
      if (!vs.grpcDomains().isEmpty() && !ledger.isRejected(vs.key())) {
        reachedFrom(List.of(vs.key()), servedEdges).stream().filter(key -> !servesNothing.contains(key))
            .forEach(key -> index.get(key).ifPresent(t -> grpc.putIfAbsent(t, vs.grpcDomains().get(0))));
      }
    }
    return grpc;
  }

  /**
   * Depth-first, with an explicit stack rather than recursion: a chain of thousands of RouteTables is input like
   * any other and must not overflow the thread's stack. Each object is walked once ({@code done}).
   */
  private final class CycleSearch {
    private final Set<ResourceKey> done = new HashSet<>();
    private final Set<ResourceKey> onPath = new HashSet<>();
    private final Deque<Frame> path = new ArrayDeque<>();

    /** One object on the walk's path and how far through its delegating routes and their targets it is. */
    private final class Frame {
      final GatewayResource node;
      final List<Route> routes;
      final List<Integer> delegating;
      int route = -1;
      List<RouteTable> targets = List.of();
      int target;

      Frame(GatewayResource node) {
        this.node = node;
        this.routes = routesOf(node);
        this.delegating = Delegation.delegating(routes);
      }

      /** The next RouteTable to look at, or null when this object is finished. */
      RouteTable next() {
        while (target >= targets.size()) {
          if (route >= 0 && ledger.isRejected(node.key())) {
            return null; // not served: its other delegations do not exist
          }
          if (++route >= delegating.size()) {
            return null;
          }
          RouteAction.Delegate delegate = (RouteAction.Delegate) routes.get(delegating.get(route)).action();
          targets = servedTargets(node, delegate);
          target = 0;
        }
        return targets.get(target++);
      }
    }

    void run() {
      Stream.concat(virtualServices.stream(), served(tables).stream()).forEach(root -> {
        if (!done.contains(root.key()) && !ledger.isRejected(root.key())) {
          walk(root);
        }
      });
    }

    private void walk(GatewayResource root) {
      enter(root);
      while (!path.isEmpty()) {
        Frame frame = path.peekLast();
        RouteTable next = frame.next();
        if (next == null) {
          path.removeLast();
          onPath.remove(frame.node.key());
          done.add(frame.node.key());
        } else if (onPath.contains(next.key())) {
          String cycle = Stream.concat(path.stream().map(f -> f.node.key()), Stream.of(next.key()))
              .map(ResourceKey::toString).collect(Collectors.joining(" -> "));
          ledger.error(frame.node.key(), "spec.routes[" + frame.delegating.get(frame.route) + "].delegate",
              Reasons.DELEGATION_CYCLE, "delegation cycle " + cycle + "; this route closes it");
          frame.target = frame.targets.size();
        } else if (!done.contains(next.key())) {
          enter(next);
        }
      }
    }

    private void enter(GatewayResource node) {
      path.addLast(new Frame(node));
      onPath.add(node.key());
    }
  }

  /** Every delegation from a served parent to a served table; warns parents about the rest. */
  private List<Edge> edges() {
    List<Edge> edges = new ArrayList<>();
    for (GatewayResource parent : Stream.concat(virtualServices.stream(), served(tables).stream()).toList()) {
      List<Route> routes = routesOf(parent);
      for (int i : Delegation.delegating(routes)) {
        RouteAction.Delegate delegate = (RouteAction.Delegate) routes.get(i).action();
        String field = "spec.routes[" + i + "].delegate";
        List<RouteTable> picked = index.targets(parent.key(), delegate);
        Optional<ResourceKey> ref = Delegation.refKey(namespaceOf(parent), delegate);
        List<RouteTable> refused = ref.isEmpty() ? index.refused(parent.key(), delegate) : List.of();
        if (!refused.isEmpty()) {
          warnRefused(parent, field + ".selector", refused);
        }
        if (picked.isEmpty() && ref.isPresent() && ledger.isRejected(ref.get())) {
          ledger.warn(parent.key(), field, Reasons.ROUTE_TABLE_REJECTED, ref.get() + " is rejected; not served");
        } else if (picked.isEmpty() && ref.isEmpty() && refused.isEmpty()) {
          ledger.warn(parent.key(), field + ".selector", Reasons.NO_ROUTE_TABLES,
              "the selector matches no RouteTable; this route serves nothing");
        }
        for (RouteTable child : picked) {
          if (ledger.isRejected(child.key())) {
            ledger.warn(parent.key(), field, Reasons.ROUTE_TABLE_REJECTED, child.key() + " is rejected; not served");
          } else {
            edges.add(new Edge(parent, i, routes.get(i), child));
          }
        }
      }
    }
    return edges;
  }

  /**
   * Parents before children, ties by key (the graph is acyclic after {@link CycleSearch}): each table's incoming
   * delegations, then its depth. A table more than {@link InputLimits#maxDelegationDepth()} RouteTables under a
   * VirtualService on its longest served path is rejected ({@code DelegationTooDeep}), so what it delegates to is
   * not reached either.
   *
   * @return the served RouteTables in the order checked
   */
  private List<RouteTable> checkPrefixes(List<Edge> edges) {
    Map<ResourceKey, List<Edge>> incoming = new HashMap<>();
    Map<ResourceKey, List<Edge>> outgoing = new HashMap<>();
    for (Edge edge : edges) {
      incoming.computeIfAbsent(edge.child().key(), k -> new ArrayList<>()).add(edge);
      outgoing.computeIfAbsent(edge.parent().key(), k -> new ArrayList<>()).add(edge);
    }
    Map<ResourceKey, Integer> pending = new HashMap<>();
    served(tables).forEach(t -> pending.put(t.key(), 0));
    edges.stream().filter(e -> e.parent() instanceof RouteTable)
        .forEach(e -> pending.merge(e.child().key(), 1, Integer::sum));
    PriorityQueue<RouteTable> ready = new PriorityQueue<>((a, b) -> a.key().compareTo(b.key()));
    served(tables).stream().filter(t -> pending.get(t.key()) == 0).forEach(ready::add);
    Map<ResourceKey, Depth> depths = new HashMap<>();
    virtualServices.forEach(vs -> depths.put(vs.key(), new Depth(0, vs.key())));
    List<RouteTable> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      RouteTable table = ready.poll();
      order.add(table);
      List<Edge> in = incoming.getOrDefault(table.key(), List.of());
      checkIncoming(table, in);
      checkDepth(table, in, depths);
      for (Edge out : outgoing.getOrDefault(table.key(), List.of())) {
        if (pending.merge(out.child().key(), -1, Integer::sum) == 0) {
          ready.add(out.child());
        }
      }
    }
    return order;
  }

  /** How many RouteTables deep an object is served under a VirtualService, on its longest path, and that root. */
  private record Depth(int tables, ResourceKey root) {
  }

  private void checkDepth(RouteTable table, List<Edge> incoming, Map<ResourceKey, Depth> depths) {
    if (ledger.isRejected(table.key())) {
      return;
    }
    Depth deepest = null;
    Edge through = null;
    for (Edge edge : incoming) {
      Depth parent = depths.get(edge.parent().key());
      if (parent != null && !ledger.isRejected(edge.parent().key())
          && served.contains(edge)
          && (deepest == null || parent.tables() + 1 > deepest.tables())) {
        deepest = new Depth(parent.tables() + 1, parent.root());
        through = edge;
      }
    }
    if (deepest == null) {
      return; // not served under any VirtualService: NotDelegated says so
    }
    int limit = ledger.limits().maxDelegationDepth();
    if (deepest.tables() <= limit) {
      depths.put(table.key(), deepest);
      return;
    }
    ledger.error(table.key(), "", Reasons.DELEGATION_TOO_DEEP, "this RouteTable is delegated to "
        + deepest.tables() + " RouteTables deep under " + deepest.root() + " (through " + through.parent().key()
        + " " + through.field() + "); the limit is " + limit + " (--max-delegation-depth)");
    for (Edge edge : incoming) {
      if (!ledger.isRejected(edge.parent().key())) {
        ledger.warn(edge.parent().key(), edge.field() + ".delegate", Reasons.ROUTE_TABLE_REJECTED, table.key()
            + " is not served under this route: it is delegated too deep; see its status");
      }
    }
  }

  /**
   * Routes of each VirtualService after flattening, counted without flattening: a table's count (its routes, a
   * delegating route counting one plus the counts of the tables it serves) is computed once, children first, and
   * shared by every parent, saturating just above the limit. A VirtualService over
   * {@link InputLimits#maxRoutesPerVirtualHost()} is rejected ({@code TooManyRoutes}); the count never
   * underestimates what {@link Lowering} would produce, so an accepted one is lowered whole.
   */
  private void checkRouteCounts(Map<ResourceKey, List<Edge>> servedEdges, List<RouteTable> order) {
    long limit = ledger.limits().maxRoutesPerVirtualHost();
    Map<ResourceKey, Map<Integer, List<Edge>>> byRoute = new HashMap<>();
    servedEdges.forEach((parent, edges) -> edges.forEach(edge -> byRoute.computeIfAbsent(parent,
        k -> new HashMap<>()).computeIfAbsent(edge.index(), k -> new ArrayList<>()).add(edge)));
    Map<ResourceKey, Long> counts = new HashMap<>();
    for (int i = order.size() - 1; i >= 0; i--) {
      RouteTable table = order.get(i);
      if (!ledger.isRejected(table.key())) {
        counts.put(table.key(), count(table.routes(), byRoute.getOrDefault(table.key(), Map.of()), counts, limit));
      }
    }
    for (VirtualService vs : virtualServices) {
      Map<Integer, List<Edge>> delegations = byRoute.getOrDefault(vs.key(), Map.of());
      long total = count(vs.routes(), delegations, counts, limit);
      if (total > limit) {
        ledger.error(vs.key(), "spec.routes", Reasons.TOO_MANY_ROUTES, "flattening delegation gives over " + limit
            + " routes (each delegating route counted too); the limit is " + limit
            + " (--max-routes-per-virtual-host); narrow the delegate selectors or split the VirtualService");
      }
    }
  }

  private long count(List<Route> routes, Map<Integer, List<Edge>> delegations, Map<ResourceKey, Long> counts,
      long limit) {
    long total = 0;
    for (int i = 0; i < routes.size() && total <= limit; i++) {
      total++;
      for (Edge edge : delegations.getOrDefault(i, List.of())) {
        total = Math.min(limit + 1, total + counts.getOrDefault(edge.child().key(), 0L));
      }
    }
    return Math.min(limit + 1, total);
  }

  /**
   * The path contexts {@code edge}'s route hands its table: one per context its parent is served under (a
   * VirtualService, or a table no served parent reaches, hands its own). A route that sets its flag to false hands
   * one whatever its parent's contexts, and one without a flag hands one for all its parent's contexts without an
   * inherited path, so Holdfast's own kinds (no flag) always hand one per delegation; a route that sets it to true
   * hands one per context, stopping past the bound. At most {@link Delegation#MAX_INHERITED_PATHS} + 2 contexts are
   * looked at per delegation.
   */
  private Set<Delegation.PathContext> handed(Edge edge) {
    Reached parent = reached.getOrDefault(edge.parent().key(), Reached.NONE);
    Optional<Boolean> flag = edge.route().inheritPath();
    if (parent.isEmpty()) {
      Delegation.PathContext own = Delegation.handed(Optional.empty(), edge.route());
      // A table no VirtualService reaches (yet): the flag its route would inherit is unknown, so its table is
      // judged under either, rather than refused for what a parent may hand down once one reaches it.
      return edge.parent() instanceof RouteTable && flag.isEmpty() && flagsInPlay
          ? Set.of(own, new Delegation.PathContext(own.prefix(), true)) : Set.of(own);
    }
    // Only contexts under which the delegating route itself stays under its parent's prefix: under the others
    // it is pruned (its own table's status says so) and delegates nothing.
    java.util.function.Predicate<Delegation.PathContext> keeps = c -> !Delegation.leaves(c, edge.route());
    if (flag.equals(Optional.of(false))) {
      return parent.all().filter(keeps).findFirst().map(c -> Set.of(Delegation.handed(Optional.of(c),
          edge.route()))).orElse(Set.of());
    }
    Set<Delegation.PathContext> out = new LinkedHashSet<>();
    // Without a flag, every plain context hands the route's own prefix: one of them stands for all.
    Iterator<Delegation.PathContext> from = Stream.concat(parent.inherited().stream().filter(keeps),
        parent.plain().stream().filter(keeps).limit(flag.isPresent() ? Long.MAX_VALUE : 1)).iterator();
    while (from.hasNext() && out.size() <= Delegation.MAX_INHERITED_PATHS + 1) {
      out.add(Delegation.handed(Optional.of(from.next()), edge.route()));
    }
    return out;
  }

  /** The contexts a served RouteTable is served under, those with an inherited path apart (they are bounded). */
  private record Reached(Set<Delegation.PathContext> plain, Set<Delegation.PathContext> inherited) {
    static final Reached NONE = new Reached(Set.of(), Set.of());

    boolean isEmpty() {
      return plain.isEmpty() && inherited.isEmpty();
    }

    Stream<Delegation.PathContext> all() {
      return Stream.concat(plain.stream(), inherited.stream());
    }
  }

  /**
   * Most routes pruned under one delegation that are reported one by one on the RouteTable; the rest are counted in
   * one more warning, so a table of thousands of routes leaving the prefix keeps a short status.
   */
  static final int MAX_REPORTED_PRUNED = 8;

  /** What one delegation serves of its table: the routes pruned under every context it hands, by index. */
  private record Judged(Map<Integer, Delegation.Violation> pruned, boolean partly) {
  }

  private void checkIncoming(RouteTable table, List<Edge> incoming) {
    List<Edge> live = incoming.stream().filter(e -> !ledger.isRejected(e.parent().key())).toList();
    Map<Edge, Judged> judged = new java.util.IdentityHashMap<>();
    Set<Delegation.PathContext> plain = new LinkedHashSet<>();
    Set<Delegation.PathContext> inherited = new LinkedHashSet<>();
    // Every inherited path handed: past the bound some were not looked at (handed stops), so the table is refused
    // rather than judged on part of them.
    Set<Delegation.PathContext> handedInherited = new HashSet<>();
    for (Edge edge : live) {
      // Only contexts a VirtualService hands down (through served tables) are handed on: lowering meets no other.
      boolean rooted = edge.parent() instanceof VirtualService
          || !reached.getOrDefault(edge.parent().key(), Reached.NONE).isEmpty();
      Set<Delegation.PathContext> contexts = handed(edge);
      Map<Integer, Delegation.Violation> everywhere = null;
      boolean partly = false;
      for (Delegation.PathContext context : contexts) {
        if (context.inheritPath() && rooted) {
          handedInherited.add(context);
        }
        if (rooted) {
          (context.inheritPath() ? inherited : plain).add(context);
        }
        Map<Integer, Delegation.Violation> found = new LinkedHashMap<>();
        Delegation.violations(context, table).forEach(v -> found.put(v.index(), v));
        if (everywhere == null) {
          everywhere = found;
        } else {
          partly |= !found.keySet().equals(everywhere.keySet());
          everywhere.keySet().retainAll(found.keySet());
        }
      }
      if (everywhere != null) { // else its delegating route is itself pruned under every context of its parent
        served.add(edge);
        judged.put(edge, new Judged(everywhere, partly));
      }
    }
    if (handedInherited.size() > Delegation.MAX_INHERITED_PATHS) {
      ledger.error(table.key(), "", Reasons.TOO_MANY_INHERITED_PATHS, "the routes delegating to this RouteTable"
          + " hand it more than " + Delegation.MAX_INHERITED_PATHS + " different inherited paths (Gloo's"
          + " inheritablePathMatchers); Holdfast checks a table under at most " + Delegation.MAX_INHERITED_PATHS
          + "; set inheritablePathMatchers: false on its routes, or delegate to copies of it");
      live.forEach(edge -> ledger.warn(edge.parent().key(), edge.field() + ".delegate",
          Reasons.ROUTE_TABLE_REJECTED, table.key() + " is not served under this route: it is handed too many"
              + " inherited paths; see its status"));
      live.forEach(served::remove);
      return;
    }
    reached.put(table.key(), new Reached(plain, inherited));
    long generation = ledger.generation(table.key());
    boolean anyServed = false;
    for (Edge edge : live) {
      String under = edge.parent().key() + " " + edge.field();
      Judged verdict = judged.get(edge);
      if (verdict == null) {
        ledger.parent(table.key(), new ParentStatus(edge.parent().key(), Optional.of(edge.field()), List.of(
            new Condition(Condition.ACCEPTED, Condition.Status.FALSE, Reasons.PREFIX_VIOLATION, "not served under "
                + under + ": that route leaves the prefix it is itself delegated under; see "
                + edge.parent().key() + "'s status", generation))));
        continue;
      }
      int pruned = verdict.pruned().size();
      boolean servesSome = pruned < table.routes().size();
      anyServed |= servesSome;
      ledger.parent(table.key(), new ParentStatus(edge.parent().key(), Optional.of(edge.field()),
          List.of(acceptedUnder(edge, verdict, servesSome, generation))));
      reportPruned(table, under, verdict.pruned().values());
      if (!servesSome && !table.routes().isEmpty()) {
        ledger.warn(edge.parent().key(), edge.field() + ".delegate", Reasons.ROUTE_TABLE_REJECTED, table.key()
            + " serves nothing under this route: every one of its routes leaves the prefix; see its status");
      }
      for (int i : Delegation.disjointMethods(edge.route().match(), table)) {
        if (!verdict.pruned().containsKey(i)) {
          ledger.warn(table.key(), "spec.routes[" + i + "].match.methods", Reasons.CONFLICTING_MATCHER,
              "no method in common with " + under + ", so this route never matches under it");
        }
      }
    }
    if (!judged.isEmpty() && !anyServed && !table.routes().isEmpty()) {
      // As Gloo Edge: a warning, not a rejection; the table is accepted and serves nothing.
      servesNothing.add(table.key());
      ledger.warn(table.key(), "spec.routes", Reasons.PREFIX_VIOLATION, "no route of this RouteTable is served"
          + " under any parent: each leaves the prefix it is delegated under");
    }
  }

  private static Condition acceptedUnder(Edge edge, Judged verdict, boolean servesSome, long generation) {
    String under = edge.parent().key() + " " + edge.field();
    if (!servesSome) {
      return new Condition(Condition.ACCEPTED, Condition.Status.FALSE, Reasons.PREFIX_VIOLATION, "no route is"
          + " served under " + under + ": every one leaves its prefix", generation);
    }
    String except = verdict.pruned().isEmpty() ? "" : " except " + verdict.pruned().size() + " route(s) that leave"
        + " its prefix: " + verdict.pruned().keySet().stream().limit(MAX_REPORTED_PRUNED)
            .map(i -> "spec.routes[" + i + "]").collect(Collectors.joining(", "))
        + (verdict.pruned().size() > MAX_REPORTED_PRUNED ? " and more" : "");
    return new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED, "served under " + under
        + except + (verdict.partly() ? " (with Gloo's inheritablePathMatchers, how " + edge.parent().key()
            + " is reached decides the path: a route may be served on some of those paths only)" : ""),
        generation);
  }

  /** One warning per pruned route up to {@link #MAX_REPORTED_PRUNED}, then one counting the rest. */
  private void reportPruned(RouteTable table, String under, java.util.Collection<Delegation.Violation> pruned) {
    int reported = 0;
    for (Delegation.Violation v : pruned) {
      if (reported++ == MAX_REPORTED_PRUNED) {
        ledger.warn(table.key(), "spec.routes", Reasons.PREFIX_VIOLATION, (pruned.size() - MAX_REPORTED_PRUNED)
            + " more route(s) leave the prefix of " + under + " and are pruned under it");
        return;
      }
      ledger.warn(table.key(), v.field(), Reasons.PREFIX_VIOLATION, v.message() + " of " + under
          + "; this route is pruned under it, the table's other routes are served");
    }
  }

  private void noteUnreached(Map<ResourceKey, List<Edge>> servedEdges) {
    Set<ResourceKey> reached = reachedFrom(virtualServices.stream().map(VirtualService::key)
        .filter(key -> !ledger.isRejected(key)).toList(), servedEdges);
    for (RouteTable table : served(tables)) {
      if (!reached.contains(table.key())) {
        ledger.note(table.key(), "", Reasons.NOT_DELEGATED, "no accepted VirtualService delegates to this"
            + " RouteTable (directly or through other RouteTables), so its routes are not served");
      }
    }
  }

  /** The served RouteTables served under {@code roots}, directly or through other RouteTables. */
  private Set<ResourceKey> reachedFrom(List<ResourceKey> roots, Map<ResourceKey, List<Edge>> servedEdges) {
    Set<ResourceKey> reached = new LinkedHashSet<>();
    Deque<ResourceKey> frontier = new ArrayDeque<>(roots);
    while (!frontier.isEmpty()) {
      ResourceKey parent = frontier.poll();
      for (Edge edge : servedEdges.getOrDefault(parent, List.of())) {
        ResourceKey child = edge.child().key();
        if (!ledger.isRejected(child) && reached.add(child)) {
          frontier.add(child);
        }
      }
    }
    return reached;
  }

  /** The delegations whose table stays under the route's prefix (in some context), by parent. */
  private static Map<ResourceKey, List<Edge>> withoutViolations(List<Edge> edges, Set<Edge> served) {
    Map<ResourceKey, List<Edge>> out = new HashMap<>();
    for (Edge edge : edges) {
      if (served.contains(edge)) {
        out.computeIfAbsent(edge.parent().key(), k -> new ArrayList<>()).add(edge);
      }
    }
    return out;
  }

  private List<RouteTable> served(List<RouteTable> all) {
    return all.stream().filter(t -> !ledger.isRejected(t.key())).toList();
  }

  private static List<Route> routesOf(GatewayResource resource) {
    return resource instanceof VirtualService vs ? vs.routes() : ((RouteTable) resource).routes();
  }

  /** Most RouteTables one RefNotPermitted warning names; the rest are counted, so one warning stays short. */
  static final int MAX_REFUSED_NAMED = 5;

  /**
   * One warning for the RouteTables a selector matches in other namespaces without a grant: they are skipped, the
   * route serves the others. The skipped tables get no finding: their status would otherwise tell their namespace
   * about another tenant's VirtualService (they keep {@code NotDelegated} if nothing else reaches them).
   */
  private void warnRefused(GatewayResource parent, String field, List<RouteTable> refused) {
    String names = refused.stream().limit(MAX_REFUSED_NAMED).map(t -> t.key().toString())
        .collect(Collectors.joining(", "));
    int more = refused.size() - MAX_REFUSED_NAMED;
    ledger.warn(parent.key(), field, Reasons.REF_NOT_PERMITTED, "the selector matches " + refused.size()
        + " RouteTable(s) in other namespaces that no ReferenceGrant there lets " + parent.key().kind() + "s of"
        + " namespace " + namespaceOf(parent) + " take (--cross-namespace-refs=grant): " + names
        + (more > 0 ? " and " + more + " more" : "") + "; they are skipped. A ReferenceGrant in the table's namespace"
        + " with from {group: " + parent.key().group() + ", kind: " + parent.key().kind() + ", namespace: "
        + namespaceOf(parent) + "} and to {group: " + io.holdfast.api.ResourceKey.HOLDFAST_GROUP
        + ", kind: RouteTable} would let them in");
  }

  private static String namespaceOf(GatewayResource resource) {
    return resource.metadata().namespace();
  }
}
