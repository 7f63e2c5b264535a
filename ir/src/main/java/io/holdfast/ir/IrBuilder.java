package io.holdfast.ir;

import com.google.common.net.InetAddresses;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Claims.Claim;
import io.holdfast.ir.Claims.Claimant;
import io.holdfast.ir.Claims.Loss;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Collects what the {@link FrontEnd}s lower for one build and settles what they share, oldest claimant first
 * ({@link Claims}): an address and port belongs to one socket listener, a client target to one client listener,
 * and a domain to one virtual host per listener. A losing socket listener is left out and its object is not
 * accepted; a losing client listener is left out with a warning on its object (its virtual hosts stay served);
 * a losing virtual host is left out of that listener only, and its object gets an Accepted=False condition for
 * that listener as parent. Then {@link #build} returns the {@link Ir} in its deterministic order and every
 * object's status. Not thread-safe: one pipeline thread owns a builder for one build.
 */
public final class IrBuilder {

  /** Reason of a listener that lost its address and port. */
  public static final String DUPLICATE_LISTENER = "DuplicateListener";
  /** Reason of a virtual host or client listener that lost a domain. */
  public static final String DUPLICATE_DOMAIN = "DuplicateDomain";

  private final List<Listener> listeners = new ArrayList<>();
  private final List<Cluster> clusters = new ArrayList<>();
  private final List<Secret> secrets = new ArrayList<>();
  private final Map<ResourceKey, ObjectStatus> statuses = new HashMap<>();
  private final Map<ResourceKey, Optional<Instant>> created = new HashMap<>();
  /** Statuses recorded twice: a front end's bug, contained by leaving the object out in {@link #build}. */
  private final List<Breach> statusBreaches = new ArrayList<>();

  /** Reason of an object left out because its IR elements broke an invariant of the {@link Ir}: a Holdfast bug. */
  public static final String INTERNAL_ERROR = "InternalError"; // the IR knows no front end's reasons: same text

  /**
   * The result of a build.
   *
   * @param breaches the invariant breaches contained in this build, each by leaving its objects out
   */
  public record Result(Ir ir, SortedMap<ResourceKey, ObjectStatus> statuses, List<Breach> breaches) {
    public Result {
      Objects.requireNonNull(ir, "ir");
      statuses = Collections.unmodifiableSortedMap(new TreeMap<>(statuses));
      breaches = List.copyOf(breaches);
    }

    public Result(Ir ir, SortedMap<ResourceKey, ObjectStatus> statuses) {
      this(ir, statuses, List.of());
    }
  }

  /** One {@link IrInvariantViolation} {@link #build} contained: the objects it left out, and why. */
  public record Breach(List<ResourceKey> objects, String message) {
    public Breach {
      objects = List.copyOf(objects);
      Objects.requireNonNull(message, "message");
    }
  }

  /** How far a builder had got: see {@link #mark} and {@link #rollBack}. */
  public record Mark(int listeners, int clusters, int secrets, Set<ResourceKey> statuses) {
    public Mark {
      statuses = Set.copyOf(statuses);
    }
  }

  /** What was added between a {@link Mark} and now: one front end's share of a build. */
  public record Contribution(List<Listener> listeners, List<Cluster> clusters, List<Secret> secrets,
      List<ObjectStatus> statuses, Map<ResourceKey, Optional<Instant>> created) {
    public Contribution {
      listeners = List.copyOf(listeners);
      clusters = List.copyOf(clusters);
      secrets = List.copyOf(secrets);
      statuses = List.copyOf(statuses);
      created = Map.copyOf(created);
    }
  }

  public IrBuilder add(Cluster cluster) {
    clusters.add(Objects.requireNonNull(cluster, "cluster"));
    return this;
  }

  public IrBuilder add(Listener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
    return this;
  }

  public IrBuilder add(Secret secret) {
    secrets.add(Objects.requireNonNull(secret, "secret"));
    return this;
  }

  /**
   * Records an object's status and its creation time (its age when it claims); one status per object: a second
   * one is a front end's bug, which {@link #build} contains by leaving the object out with an
   * {@link #INTERNAL_ERROR}.
   *
   * @param createdAt empty when the source does not know it: the object then counts as newest
   */
  public IrBuilder status(ObjectStatus status, Optional<Instant> createdAt) {
    if (statuses.putIfAbsent(status.key(), status) != null) {
      // A front end's bug, contained on the object: it is left out of the IR and says why.
      String message = "status of " + status.key() + " recorded twice";
      statusBreaches.add(new Breach(List.of(status.key()), message));
      return this;
    }
    created.put(status.key(), createdAt);
    return this;
  }

  /**
   * The object of a socket listener already added that overlaps {@code address:port} and is older than
   * {@code claimant} (created at {@code created}), so it will win the port in {@link #build}. A front end that
   * lowers after another asks it to report the loss in its own API's terms (and to leave the socket out) instead
   * of the rejection {@code build} would record.
   */
  public Optional<ResourceKey> olderSocketHolder(String address, int port, ResourceKey claimant,
      Optional<Instant> created) {
    Claimant me = new Claimant(claimant, created);
    Listener.Socket probe = new Listener.Socket(Origin.of(claimant), address, port, List.of(
        new Listener.FilterChain.Http(Origin.of(claimant), "probe", Listener.ChainMatch.ANY, Optional.empty(),
            List.of())));
    return listeners.stream()
        .filter(l -> l instanceof Listener.Socket s && !s.origin().object().equals(claimant) && overlaps(s, probe))
        .map(l -> claimant(l.origin()))
        .filter(holder -> Claimant.OLDEST_FIRST.compare(holder, me) < 0)
        .map(Claimant::key)
        .findFirst();
  }

  /**
   * The object of a client listener already added for {@code target} that is older than {@code claimant}, so it
   * will keep the target in {@link #build}: a front end lowering later leaves the target to it, and reports that in
   * its own API's terms, rather than get the IR's warning.
   */
  public Optional<ResourceKey> olderTargetHolder(String target, ResourceKey claimant, Optional<Instant> created) {
    Claimant me = new Claimant(claimant, created);
    return listeners.stream()
        .filter(l -> l instanceof Listener.ClientApi c && c.target().equals(target)
            && !c.origin().object().equals(claimant))
        .map(l -> claimant(l.origin()))
        .filter(holder -> Claimant.OLDEST_FIRST.compare(holder, me) < 0)
        .map(Claimant::key)
        .findFirst();
  }

  /** The builder's progress so far, for a caller that may need to undo what one front end added. */
  public Mark mark() {
    return new Mark(listeners.size(), clusters.size(), secrets.size(), statuses.keySet());
  }

  /** Removes everything added since {@code mark} (elements and statuses); the builder is as it was then. */
  public void rollBack(Mark mark) {
    statusBreaches.removeIf(b -> !mark.statuses().containsAll(b.objects()));
    listeners.subList(mark.listeners(), listeners.size()).clear();
    clusters.subList(mark.clusters(), clusters.size()).clear();
    secrets.subList(mark.secrets(), secrets.size()).clear();
    statuses.keySet().retainAll(mark.statuses());
    created.keySet().retainAll(mark.statuses());
  }

  /** The statuses recorded so far, for a caller whose {@link #build} failed and that still reports them. */
  public SortedMap<ResourceKey, ObjectStatus> statusesSoFar() {
    return new TreeMap<>(statuses);
  }

  /** What was added since {@code mark}. */
  public Contribution since(Mark mark) {
    List<ObjectStatus> added = statuses.values().stream().filter(st -> !mark.statuses().contains(st.key())).toList();
    Map<ResourceKey, Optional<Instant>> times = new HashMap<>();
    added.forEach(st -> times.put(st.key(), created.getOrDefault(st.key(), Optional.empty())));
    return new Contribution(listeners.subList(mark.listeners(), listeners.size()),
        clusters.subList(mark.clusters(), clusters.size()), secrets.subList(mark.secrets(), secrets.size()), added,
        times);
  }

  /**
   * Settles the claims and assembles the {@link Ir}. Total for invariant breaches: an {@link IrInvariantViolation}
   * (a front end lowered something inconsistent, which is a Holdfast bug) leaves the objects it names out of the
   * IR, with an {@link #INTERNAL_ERROR} error on each, and the IR is assembled again from the rest; each round
   * leaves at least one more object out, so there are at most as many rounds as objects. The breaches are in
   * {@link Result#breaches()}.
   */
  public Result build() {
    Map<ResourceKey, ObjectStatus> lowered = new HashMap<>(statuses);
    Set<ResourceKey> leftOut = new HashSet<>();
    List<Breach> breaches = new ArrayList<>(statusBreaches);
    statusBreaches.forEach(b -> leftOut.addAll(b.objects()));
    rejectLeftOut(breaches);
    while (true) {
      try {
        return new Result(assemble(leftOut), new TreeMap<>(statuses), breaches);
      } catch (IrInvariantViolation violation) {
        List<ResourceKey> fresh = violation.involved().stream().filter(leftOut::add).toList();
        if (fresh.isEmpty()) {
          // Cannot happen (the elements of objects left out are not assembled); not a loop either way.
          throw new IllegalStateException("invariant breach among objects already left out", violation);
        }
        breaches.add(new Breach(fresh, violation.getMessage()));
        // Settling again from the front ends' statuses: the previous round's claim findings would repeat.
        statuses.clear();
        statuses.putAll(lowered);
        rejectLeftOut(breaches);
      }
    }
  }

  private void rejectLeftOut(List<Breach> breaches) {
    for (Breach breach : breaches) {
      for (ResourceKey key : breach.objects()) {
        reject(Origin.of(key), INTERNAL_ERROR, "Holdfast could not build this object's config and leaves it out: "
            + breach.message() + ". This is a bug in Holdfast; please report it");
        // Left out whole: nothing of it reaches the proxies, whatever its front end said.
        notProgrammed(key, INTERNAL_ERROR, "left out of the config sent to the proxies: " + breach.message());
      }
    }
  }

  /** {@code key}'s Programmed condition, where its API has one, turned False: none of its listeners is served. */
  private void notProgrammed(ResourceKey key, String reason, String message) {
    statuses.computeIfPresent(key, (k, status) -> status.conditions().stream()
        .anyMatch(c -> c.type().equals(Condition.PROGRAMMED) && c.status() != Condition.Status.FALSE)
        ? status.withCondition(new Condition(Condition.PROGRAMMED, Condition.Status.FALSE, reason, message,
            status.observedGeneration()))
        : status);
  }

  private Ir assemble(Set<ResourceKey> leftOut) {
    List<Listener> candidates = leftOut.isEmpty() ? listeners : withoutObjects(listeners, leftOut);
    List<Listener> kept = settleSockets(candidates.stream().filter(l -> l instanceof Listener.Socket).toList());
    kept.addAll(settleTargets(candidates.stream().filter(l -> l instanceof Listener.ClientApi).toList()));
    List<Listener> settled = kept.stream().map(this::settleDomains).toList();
    return new Ir(settled,
        clusters.stream().filter(c -> !leftOut.contains(c.origin().object())).toList(),
        secrets.stream().filter(c -> !leftOut.contains(c.origin().object())).toList());
  }

  /** {@code all} without the listeners, filter chains, virtual hosts and routes of the objects {@code leftOut}. */
  private static List<Listener> withoutObjects(List<Listener> all, Set<ResourceKey> leftOut) {
    List<Listener> out = new ArrayList<>();
    for (Listener listener : all) {
      if (leftOut.contains(listener.origin().object())) {
        continue;
      }
      if (listener instanceof Listener.ClientApi client) {
        without(client.virtualHost(), leftOut).ifPresent(host ->
            out.add(client.withVirtualHost(host)));
        continue;
      }
      Listener.Socket socket = (Listener.Socket) listener;
      List<Listener.FilterChain> chains = new ArrayList<>();
      for (Listener.FilterChain chain : socket.filterChains()) {
        if (leftOut.contains(chain.origin().object())) {
          continue;
        }
        chains.add(chain instanceof Listener.FilterChain.Http http
            ? http.withVirtualHosts(http.virtualHosts().stream()
                .flatMap(h -> without(h, leftOut).stream()).toList())
            : chain);
      }
      if (!chains.isEmpty()) {
        out.add(socket.withFilterChains(chains));
      }
    }
    return out;
  }

  private static Optional<VirtualHost> without(VirtualHost host, Set<ResourceKey> leftOut) {
    if (leftOut.contains(host.origin().object())) {
      return Optional.empty();
    }
    List<Route> routes = host.routes().stream().filter(r -> !leftOut.contains(r.origin().object())).toList();
    return Optional.of(routes.size() == host.routes().size() ? host
        : new VirtualHost(host.origin(), host.domains(), routes));
  }

  private List<Listener> settleSockets(List<Listener> sockets) {
    List<Claim<Listener.Socket>> claims = sockets.stream()
        .map(l -> new Claim<>(claimant(l.origin()), List.of((Listener.Socket) l))).toList();
    Set<Listener> lost = new HashSet<>();
    for (Loss<Listener.Socket> loss : Claims.settle(claims, Listener.Socket::port, IrBuilder::overlaps)) {
      lost.add(loss.value());
      reject(loss.value().origin(), DUPLICATE_LISTENER, "address " + loss.value().address() + " port "
          + loss.value().port() + " is already used by " + loss.winner().key() + ", which is older");
    }
    List<Listener> kept = new ArrayList<>(sockets.stream().filter(l -> !lost.contains(l)).toList());
    Set<ResourceKey> serving = new HashSet<>();
    kept.forEach(l -> serving.add(l.origin().object()));
    lost.stream().map(l -> l.origin().object()).filter(key -> !serving.contains(key)).distinct()
        .forEach(key -> notProgrammed(key, DUPLICATE_LISTENER, "every address and port of it is already used by"
            + " an older object; see the Accepted condition"));
    return kept;
  }

  private List<Listener> settleTargets(List<Listener> clients) {
    List<Claim<String>> claims = clients.stream()
        .map(l -> new Claim<>(claimant(l.origin()), List.of(((Listener.ClientApi) l).target()))).toList();
    Map<List<Object>, ResourceKey> lost = new HashMap<>();
    for (Loss<String> loss : Claims.settleEqual(claims)) {
      lost.put(List.of(loss.loser().key(), loss.value()), loss.winner().key());
    }
    List<Listener> kept = new ArrayList<>();
    for (Listener listener : clients) {
      Listener.ClientApi client = (Listener.ClientApi) listener;
      ResourceKey winner = lost.get(List.of(client.origin().object(), client.target()));
      if (winner != null) {
        // Only its client listener is left out: its virtual hosts stay on the sockets serving them, so the object
        // stays accepted, and says that the target's gRPC clients get the older one.
        record(client.origin(), Finding.Severity.WARNING, DUPLICATE_DOMAIN, "gRPC clients asking for xds:///"
            + client.target() + " get " + winner + ", which is older and serves the same target; this object"
            + " serves it to Envoy only");
      } else {
        kept.add(client);
      }
    }
    return kept;
  }

  /**
   * Virtual hosts of one HTTP chain claim their domains (each chain has its own route configuration, so chains of
   * Gateways sharing a socket may serve one virtual host each); losers are left out of that chain only.
   */
  private Listener settleDomains(Listener listener) {
    if (!(listener instanceof Listener.Socket socket)) {
      return listener;
    }
    boolean changed = false;
    List<Listener.FilterChain> chains = new ArrayList<>();
    for (Listener.FilterChain chain : socket.filterChains()) {
      if (!(chain instanceof Listener.FilterChain.Http http)) {
        chains.add(chain);
        continue;
      }
      List<Claim<String>> claims = http.virtualHosts().stream()
          .map(h -> new Claim<>(claimant(h.origin()), h.domains())).toList();
      Set<ResourceKey> losers = new HashSet<>();
      for (Loss<String> loss : Claims.settleEqual(claims)) {
        if (losers.add(loss.loser().key())) {
          ParentStatus parent = new ParentStatus(socket.origin().object(), Optional.empty(), List.of(new Condition(
              Condition.ACCEPTED, Condition.Status.FALSE, DUPLICATE_DOMAIN, "domain " + loss.value()
              + " is already served on this listener by " + loss.winner().key() + ", which is older",
              generation(loss.loser().key()))));
          statuses.computeIfPresent(loss.loser().key(), (key, status) -> status.withParent(parent));
        }
      }
      changed |= !losers.isEmpty();
      chains.add(losers.isEmpty() ? http : http.withVirtualHosts(http.virtualHosts().stream()
          .filter(h -> !losers.contains(h.origin().object())).toList()));
    }
    return changed ? socket.withFilterChains(chains) : listener;
  }

  private void reject(Origin origin, String reason, String message) {
    record(origin, Finding.Severity.ERROR, reason, message);
  }

  private void record(Origin origin, Finding.Severity severity, String reason, String message) {
    ObjectStatus status = statuses.get(origin.object());
    Finding finding = new Finding(severity, origin.field(), reason, message);
    statuses.put(origin.object(), status == null
        ? ObjectStatus.of(origin.object(), 0, List.of(finding)) : status.with(finding));
  }

  private long generation(ResourceKey key) {
    ObjectStatus status = statuses.get(key);
    return status == null ? 0 : status.observedGeneration();
  }

  private Claimant claimant(Origin origin) {
    return new Claimant(origin.object(), created.getOrDefault(origin.object(), Optional.empty()));
  }

  /** Same port, and the same address or either one is the any-address. */
  private static boolean overlaps(Listener.Socket a, Listener.Socket b) {
    InetAddress first = InetAddresses.forString(a.address());
    InetAddress second = InetAddresses.forString(b.address());
    return a.port() == b.port()
        && (first.equals(second) || first.isAnyLocalAddress() || second.isAnyLocalAddress());
  }
}
