package io.holdfast.it.outage;

import static org.awaitility.Awaitility.await;

import io.holdfast.it.demo.EchoBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A scenario's world: the emulated API process, N Holdfast replica processes (each behind its own fault proxy
 * unless {@code direct}), two gRPC backends {@code a} and {@code b} in this JVM, the base config (Upstreams
 * {@code a}, {@code b}; VirtualService {@code echo} for {@value #DOMAIN} to {@code a}), clients, and a poller
 * that writes every replica's role changes into the {@link Timeline} every 100 ms. {@link #close()} stops it all.
 */
final class OutageCluster implements AutoCloseable {
  static final String DOMAIN = "echo.test";
  static final Duration CONVERGE = Duration.ofSeconds(60);
  static final Duration POLL = Duration.ofMillis(100);

  /**
   * A replica's {@code /state} answered a new role at {@code millis}; its previous role was last answered by a
   * request sent at {@code previousAskedMillis}. A role is certain between the answer that first showed it and
   * the request that last showed it: when exactly it began and ended, polling cannot tell.
   */
  record RoleChange(long millis, String identity, String role, String holder, long previousAskedMillis) {
  }

  private final String name;
  private final Path dir;
  private final ClusterTimings timings;
  private final Timeline timeline = Timeline.startNew();
  private final MockApi api;
  private final Map<String, EchoBackend> backends = new LinkedHashMap<>();
  private final Map<String, Replica> replicas = new LinkedHashMap<>();
  private final List<CallClient> clients = new CopyOnWriteArrayList<>();
  private final List<RoleChange> roleChanges = new CopyOnWriteArrayList<>();
  private final Map<String, String> lastRole = new ConcurrentHashMap<>();
  private final Map<String, Long> lastAsked = new ConcurrentHashMap<>();
  /** One polling thread per replica: a paused replica's slow answer must not delay seeing the others. */
  private final ScheduledExecutorService poller;

  private OutageCluster(String name, int count, boolean direct, boolean statusLinks, ClusterTimings timings,
      List<String> flags) {
    this.name = name;
    this.dir = Launcher.freshDir(name);
    this.timings = timings;
    api = MockApi.start(dir);
    for (String b : List.of("a", "b")) {
      backends.put(b, EchoBackend.start(b));
    }
    for (String b : backends.keySet()) {
      requireCreated(api.create(GatewayResources.upstream(b, backends.get(b).port())));
    }
    requireCreated(api.create(GatewayResources.virtualService("echo", DOMAIN, "a")));
    for (int i = 1; i <= count; i++) {
      String id = "r" + i;
      replicas.put(id, new Replica(id, dir.resolve(id), api.port(), !direct, statusLinks, timings, flags));
    }
    replicas.values().forEach(Replica::start);
    poller = Executors.newScheduledThreadPool(count, r -> {
      Thread t = new Thread(r, "outage-poller");
      t.setDaemon(true);
      return t;
    });
    for (Replica r : replicas.values()) {
      poller.scheduleWithFixedDelay(() -> poll(r), 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Starts {@code count} replicas with the {@link ClusterTimings#FAST} timings and waits for one leader. */
  static OutageCluster start(String name, int count, List<String> flags) {
    return start(name, count, false, flags);
  }

  static OutageCluster start(String name, int count, boolean direct, List<String> flags) {
    return start(new OutageCluster(name, count, direct, false, ClusterTimings.FAST, flags));
  }

  static OutageCluster start(String name, int count, ClusterTimings timings, List<String> flags) {
    return start(new OutageCluster(name, count, false, false, timings, flags));
  }

  /**
   * Starts {@code count} replicas with the given timings, each with a second fault proxy for its status writer
   * alone ({@link Replica#statusProxy()}), and waits for one leader.
   */
  static OutageCluster startWithStatusLinks(String name, int count, ClusterTimings timings) {
    return start(new OutageCluster(name, count, false, true, timings, List.of()));
  }

  private static OutageCluster start(OutageCluster c) {
    try {
      c.awaitReadyWithOneLeader();
      return c;
    } catch (RuntimeException | Error e) {
      c.close();
      throw e;
    }
  }

  private static void requireCreated(int code) {
    if (code != 201 && code != 200) {
      throw new IllegalStateException("the mock API did not create a base resource: HTTP " + code);
    }
  }

  ClusterTimings timings() {
    return timings;
  }

  Path dir() {
    return dir;
  }

  Timeline timeline() {
    return timeline;
  }

  MockApi api() {
    return api;
  }

  Replica replica(String identity) {
    return replicas.get(identity);
  }

  List<Replica> replicas() {
    return List.copyOf(replicas.values());
  }

  EchoBackend backend(String name) {
    return backends.get(name);
  }

  List<RoleChange> roleChanges() {
    return List.copyOf(roleChanges);
  }

  void awaitReadyWithOneLeader() {
    await("every replica ready and one leader").atMost(CONVERGE).pollInterval(POLL)
        .until(() -> replicas.values().stream().allMatch(Replica::ready) && leaders().size() == 1);
  }

  /** Replicas whose {@code /state} says leader right now (paused or exited ones do not answer). */
  List<Replica> leaders() {
    List<Replica> out = new ArrayList<>();
    for (Replica r : replicas.values()) {
      if (r.isLeader()) {
        out.add(r);
      }
    }
    return out;
  }

  /** The one leader, waiting for there to be exactly one. */
  Replica leader() {
    await("exactly one leader").atMost(CONVERGE).pollInterval(POLL).until(() -> leaders().size() == 1);
    return leaders().get(0);
  }

  List<Replica> others(Replica r) {
    return replicas.values().stream().filter(x -> x != r).toList();
  }

  void cutAll() {
    replicas.values().forEach(Replica::cut);
  }

  void restoreAll() {
    replicas.values().forEach(Replica::restore);
  }

  /** A new client JVM on {@code replica}; it is stopped with the cluster. */
  CallClient client(String clientName, Replica replica) {
    CallClient c = CallClient.start(clientName, replica, DOMAIN, dir);
    clients.add(c);
    return c;
  }

  CallClient client(String clientName, Replica replica, String domain) {
    CallClient c = CallClient.start(clientName, replica, domain, dir);
    clients.add(c);
    return c;
  }

  CallClient clientServed(String clientName, Replica replica) {
    CallClient c = client(clientName, replica);
    await(clientName + " served").atMost(CONVERGE).pollInterval(POLL).until(() -> c.succeeded() > 0);
    return c;
  }

  /**
   * One client JVM per replica ({@code prefix + identity}, calling {@code domain}), all started before any is
   * waited for, so their start-ups overlap; returns once each has had an answer, in replica order.
   */
  List<CallClient> clientsServed(String prefix, String domain) {
    List<CallClient> started = new ArrayList<>();
    for (Replica r : replicas.values()) {
      started.add(client(prefix + r.identity(), r, domain));
    }
    awaitServed(started);
    return started;
  }

  /** Waits until each of {@code started} (clients started together, see {@link #clientsServed}) had an answer. */
  void awaitServed(List<CallClient> started) {
    for (CallClient c : started) {
      await(c.name() + " served").atMost(CONVERGE).pollInterval(POLL).until(() -> c.succeeded() > 0);
    }
  }

  /**
   * Keeps the current fault in place for {@code d} (the fault being simulated, not synchronisation) while
   * checking, every poll, that no replica process has exited.
   */
  void hold(Duration d, String what) {
    await(what + ": every replica process stays up").during(d).atMost(d.plusSeconds(5)).pollInterval(POLL)
        .until(this::allAlive);
  }

  boolean allAlive() {
    return replicas.values().stream().allMatch(r -> r.process().isAlive());
  }

  long failedCalls() {
    return clients.stream().mapToLong(CallClient::failed).sum();
  }

  long succeededCalls() {
    return clients.stream().mapToLong(CallClient::succeeded).sum();
  }

  /** Waits until the API holds {@code expected} as the resource's Accepted condition status. */
  void awaitAccepted(GatewayResources.Resource r, String expected) {
    await(r.key() + " status Accepted=" + expected).atMost(CONVERGE).pollInterval(Duration.ofMillis(200))
        .until(() -> expected.equals(acceptedStatus(r)));
  }

  List<CallClient> clients() {
    return List.copyOf(clients);
  }

  /** The {@code status.conditions[type=Accepted].status} of a resource as the API holds it ("" if none). */
  String acceptedStatus(GatewayResources.Resource r) {
    JsonNode conditions;
    try {
      conditions = api.get(r).path("status").path("conditions");
    } catch (RuntimeException e) {
      return ""; // not there yet, or the API is cut off from us too
    }
    for (JsonNode c : conditions) {
      if ("Accepted".equals(c.path("type").asString(""))) {
        return c.path("status").asString("");
      }
    }
    return "";
  }

  /** Status writes by {@code identity} (any outcome) that the API received after {@code sinceMillis}. */
  long statusWritesBy(String identity, long sinceMillis) {
    return api.writes().stream().filter(w -> w.writer().equals(identity) && w.isStatusWrite()
        && w.startMillis() >= sinceMillis).count();
  }

  /** Records a change of role or lease holder; the time is when the answer came (an upper bound). */
  private void poll(Replica r) {
    long asked = System.currentTimeMillis();
    Optional<ReplicaState> s = r.state();
    long now = System.currentTimeMillis();
    String role = s.map(ReplicaState::role).orElse("unreachable");
    String holder = s.map(ReplicaState::holder).orElse("");
    String key = role + "|" + holder;
    Long previousAsked = lastAsked.put(r.identity(), asked);
    if (!key.equals(lastRole.put(r.identity(), key))) {
      roleChanges.add(new RoleChange(now, r.identity(), role, holder, previousAsked == null ? 0 : previousAsked));
      timeline.mark(now, r.identity(), role + (holder.isEmpty() ? "" : " (lease holder " + holder + ")"));
    }
  }

  /**
   * The most replicas that were certainly leader at the same moment, from {@code sinceMillis} on, replaying the
   * poller's record ({@link #leaderOverlap}). At start-up the server reports its single-replica placeholder
   * (leader) until the elector runs, hence the start time.
   */
  int mostReportingLeaderAtOnce(long sinceMillis) {
    return leaderOverlap(roleChanges, sinceMillis);
  }

  /**
   * The most replicas certainly leading at once: each is counted from the answer that first said leader to the
   * request that last said so (the next change's {@code previousAskedMillis}), so a slow answer cannot make a
   * leader that already stepped down look like it overlaps its successor.
   */
  static int leaderOverlap(List<RoleChange> changes, long sinceMillis) {
    Map<String, Long> leadingSince = new HashMap<>();
    List<long[]> intervals = new ArrayList<>();
    for (RoleChange rc : changes) {
      Long start = leadingSince.remove(rc.identity());
      if (start != null && rc.previousAskedMillis() > start) {
        intervals.add(new long[] {start, rc.previousAskedMillis()});
      }
      if (rc.role().equals("leader")) {
        leadingSince.put(rc.identity(), rc.millis());
      }
    }
    leadingSince.values().forEach(start -> intervals.add(new long[] {start, Long.MAX_VALUE}));
    List<long[]> edges = new ArrayList<>(); // {time, +1 start / -1 end}; ends first at equal times
    for (long[] i : intervals) {
      if (i[1] > sinceMillis) {
        edges.add(new long[] {Math.max(i[0], sinceMillis), 1});
        edges.add(new long[] {i[1], -1});
      }
    }
    edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int now = 0;
    int most = 0;
    for (long[] e : edges) {
      now += (int) e[1];
      most = Math.max(most, now);
    }
    return most;
  }

  /** The first time after {@code sinceMillis} the poller saw {@code identity} in {@code role}; -1 if never. */
  long firstSeen(String identity, String role, long sinceMillis) {
    return roleChanges.stream().filter(c -> c.identity().equals(identity) && c.role().equals(role)
        && c.millis() >= sinceMillis).mapToLong(RoleChange::millis).findFirst().orElse(-1);
  }

  /** Adds accepted Holdfast writes and client failures to the timeline, for the report. */
  private void foldRecordsIntoTimeline() {
    for (WriteRecord w : api.writes()) {
      if (!w.writer().isEmpty() && (w.isStatusWrite() || (w.isLeaseWrite() && !w.accepted()))) {
        timeline.mark(w.startMillis(), "api", w.method() + " " + shortPath(w.path()) + " by " + w.writer()
            + " -> " + w.code());
      }
    }
    for (LeaseHolderAudit.Tenure t : LeaseHolderAudit.of(api.writes()).timeline()) {
      timeline.mark(t.fromMillis(), "api", "lease holder -> " + (t.holder().isEmpty() ? "(released)" : t.holder()));
    }
    for (CallClient c : clients) {
      for (CallClient.Call f : c.failures()) {
        timeline.mark(f.millis(), c.name(), "call failed: " + f.error());
      }
      timeline.mark(c.startedMillis(), c.name(), "client started (" + c.succeeded() + " ok / " + c.failed()
          + " failed once served / " + c.startUpFailures() + " failed before its first answer)");
    }
  }

  private static String shortPath(String p) {
    return p.replace("/apis/gateway.holdfast.io/v1/namespaces/", "").replace("/apis/coordination.k8s.io/v1/namespaces/", "");
  }

  @Override
  public void close() {
    poller.shutdownNow();
    try {
      foldRecordsIntoTimeline();
      Files.writeString(dir.resolve("timeline.txt"), timeline.render());
    } catch (IOException | RuntimeException e) {
      System.err.println("timeline not written: " + e);
    }
    clients.forEach(CallClient::close);
    replicas.values().forEach(Replica::close);
    api.close();
    backends.values().forEach(EchoBackend::close);
    ManagedProcess.stopAll();
  }
}
