package io.holdfast.server.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The fleet judged from its replicas' answers: who leads (and whether they agree), the version proxies should
 * run, and every finding with its severity. A replica that gives its own {@code verdict} is taken at its word for
 * itself; otherwise its verdict is derived from the fields every version of {@code /state} has. What no single
 * replica can see (replicas not answering, disagreeing on the leader or the version, proxies of one replica
 * behind another's version) is judged here in either case.
 *
 * @param replicas       every replica asked, in the order given
 * @param leadership     who leads, as the replicas see it
 * @param currentVersion the version proxies should run: the leader's, else the one most replicas serve
 * @param findings       worst first; empty when safe
 */
public record FleetReport(List<ReplicaAnswer> replicas, Leadership leadership, Optional<String> currentVersion,
    List<Finding> findings) {

  /** {@code holdfast status}'s exit status when no replica answered, or the command itself failed. */
  public static final int EXIT_NO_ANSWER = 3;

  public FleetReport {
    replicas = List.copyOf(replicas);
    findings = List.copyOf(findings);
  }

  /**
   * One thing wrong.
   *
   * @param replica the replica it concerns; empty for the fleet as a whole
   */
  public record Finding(Verdict severity, String replica, String text) {
  }

  /**
   * Leadership as the answering replicas report it.
   *
   * @param claimants     replicas whose role is leader now
   * @param holderSeenBy  each lease holder named, with the replicas that see it so (their last observation)
   * @param leaseElection whether any replica elects through a Lease (else every replica leads alone, file mode)
   */
  public record Leadership(List<String> claimants, Map<String, List<String>> holderSeenBy, boolean leaseElection) {
    public Leadership {
      claimants = List.copyOf(claimants);
      holderSeenBy = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(holderSeenBy));
    }

    /** The one leader: the replica claiming it, else the lease holder most replicas last saw. */
    public Optional<String> leader() {
      if (claimants.size() == 1) {
        return Optional.of(claimants.get(0));
      }
      return holderSeenBy.entrySet().stream().max(Comparator.comparingInt(
          (Map.Entry<String, List<String>> e) -> e.getValue().size()).thenComparing(Map.Entry::getKey,
          Comparator.reverseOrder())).map(Map.Entry::getKey);
    }

    /** Every answering replica names the same lease holder, and at most one claims to lead. */
    public boolean agreed() {
      return holderSeenBy.size() <= 1 && claimants.size() <= 1
          && (claimants.isEmpty() || holderSeenBy.isEmpty() || holderSeenBy.containsKey(claimants.get(0)));
    }
  }

  /** The fleet's verdict: the worst finding's; empty when no replica answered (nothing to judge by). */
  public Optional<Verdict> verdict() {
    if (answered().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(findings.stream().map(Finding::severity).reduce(Verdict.SAFE, Verdict::worst));
  }

  /** 0 safe, 1 at risk, 2 broken, {@value #EXIT_NO_ANSWER} when no replica answered. */
  public int exitCode() {
    return verdict().map(Verdict::exitCode).orElse(EXIT_NO_ANSWER);
  }

  public List<ReplicaAnswer> answered() {
    return replicas.stream().filter(r -> r.state().isPresent()).toList();
  }

  /** Judges the fleet from its replicas' answers. */
  public static FleetReport of(List<ReplicaAnswer> replicas) {
    List<ReplicaAnswer> answered = replicas.stream().filter(r -> r.state().isPresent()).toList();
    Leadership leadership = leadership(answered);
    Optional<String> current = currentVersion(answered, leadership);
    List<Finding> findings = new ArrayList<>();
    for (ReplicaAnswer r : replicas) {
      if (r.state().isEmpty()) {
        findings.add(new Finding(Verdict.AT_RISK, r.address(), "does not answer: " + r.error().orElse("")));
        continue;
      }
      ReplicaState s = r.state().get();
      String name = r.name();
      if (s.verdict().isPresent()) {
        ReplicaState.OwnVerdict own = s.verdict().get();
        if (own.verdict() != Verdict.SAFE) {
          if (own.reasons().isEmpty()) {
            findings.add(new Finding(own.verdict(), name, "reports itself " + own.verdict().label()));
          }
          own.reasons().forEach(reason -> findings.add(new Finding(reason.level(), name, reason.text())));
        }
      } else {
        derive(s, name, findings);
      }
      behind(s, name, findings);
    }
    fleetWide(answered, leadership, findings);
    findings.sort(Comparator.comparing(Finding::severity, Comparator.reverseOrder()));
    return new FleetReport(replicas, leadership, current, findings);
  }

  private static Leadership leadership(List<ReplicaAnswer> answered) {
    List<String> claimants = new ArrayList<>();
    Map<String, List<String>> seen = new TreeMap<>();
    boolean lease = false;
    for (ReplicaAnswer r : answered) {
      ReplicaState s = r.state().orElseThrow();
      lease |= s.electionMode().equals("lease");
      if (s.leads()) {
        claimants.add(r.name());
      }
      s.leaseHolder().ifPresent(h -> seen.computeIfAbsent(h, k -> new ArrayList<>()).add(r.name()));
    }
    return new Leadership(claimants, seen, lease);
  }

  /** The leader's version; else the one most replicas serve, ties to the most recently built. */
  private static Optional<String> currentVersion(List<ReplicaAnswer> answered, Leadership leadership) {
    if (leadership.claimants().size() == 1) {
      Optional<String> leaders = answered.stream().filter(r -> r.name().equals(leadership.claimants().get(0)))
          .findFirst().flatMap(r -> r.state().orElseThrow().snapshotVersion());
      if (leaders.isPresent()) {
        return leaders;
      }
    }
    Map<String, Integer> count = new TreeMap<>();
    Map<String, Duration> youngest = new TreeMap<>();
    for (ReplicaAnswer r : answered) {
      ReplicaState s = r.state().orElseThrow();
      s.snapshotVersion().ifPresent(v -> {
        count.merge(v, 1, Integer::sum);
        Duration age = s.snapshotAge().orElse(Duration.ofDays(36_500));
        youngest.merge(v, age, (a, b) -> a.compareTo(b) <= 0 ? a : b);
      });
    }
    return count.keySet().stream().max(Comparator.comparingInt((String v) -> count.get(v))
        .thenComparing(v -> youngest.get(v), Comparator.reverseOrder()));
  }

  /** A replica's findings from the fields every version of {@code /state} has. */
  private static void derive(ReplicaState s, String name, List<Finding> out) {
    if (s.snapshotVersion().isEmpty()) {
      out.add(new Finding(Verdict.BROKEN, name, "serves no config"));
    }
    s.lastBuildOutcome().ifPresent(outcome -> {
      String message = s.lastBuildMessage().map(m -> " (" + m + ")").orElse("");
      if (outcome.equals("failed")) {
        out.add(new Finding(Verdict.AT_RISK, name, "its last config build failed" + message
            + "; the previous snapshot is still served"));
      } else if (outcome.equals("degraded")) {
        out.add(new Finding(Verdict.AT_RISK, name, "its last config build contained internal errors" + message));
      }
    });
    for (ReplicaState.Proxy p : s.proxies()) {
      p.lastNack().filter(n -> stuck(p, n, s)).ifPresent(n -> {
        String acked = p.ackedVersions().get(n.type());
        out.add(new Finding(Verdict.BROKEN, name, "proxy " + p.nodeId() + " rejects " + n.type() + " version "
            + n.version() + " (it runs " + (acked == null ? "nothing of that type" : acked) + "): " + n.error()));
      });
    }
    if (s.apiAnswered().equals(Optional.of(false))) {
      out.add(new Finding(Verdict.AT_RISK, name, "the Kubernetes API does not answer it"
          + s.sinceApiContact().map(d -> " (last contact " + FleetText.duration(d) + " ago)").orElse("")
          + "; it serves its last config"));
    }
    s.staleFor().ifPresent(d -> out.add(new Finding(Verdict.AT_RISK, name, "its config is unconfirmed by its"
        + " source for " + FleetText.duration(d))));
    if (!s.rejected().isEmpty()) {
      out.add(new Finding(Verdict.AT_RISK, name, s.rejected().size() + (s.rejected().size() == 1
          ? " resource is" : " resources are") + " rejected, first " + s.rejected().get(0).resource()));
    }
    if (!s.manifestErrors().isEmpty()) {
      out.add(new Finding(Verdict.AT_RISK, name, s.manifestErrors().size() + " unreadable manifest"
          + (s.manifestErrors().size() == 1 ? "" : "s") + ", first " + s.manifestErrors().get(0)));
    }
    if (s.role().equals("starting") || s.role().equals("stopped")) {
      out.add(new Finding(Verdict.AT_RISK, name, "is " + s.role()));
    }
  }

  /**
   * Whether {@code nack} still stands: the proxy has not ACKed that type's last response since (or, from a
   * replica that does not say what it sent, the NACK is of the version served and not ACKed since).
   */
  static boolean stuck(ReplicaState.Proxy p, ReplicaState.Nack nack, ReplicaState s) {
    String acked = p.ackedVersions().get(nack.type());
    if (!p.sentVersions().isEmpty()) {
      return p.pending().contains(nack.type());
    }
    return s.snapshotVersion().equals(Optional.of(nack.version())) && !nack.version().equals(acked);
  }

  /**
   * Proxies that have not ACKed the last response of some type (and are not stuck on a NACK, said already):
   * a push in flight, or a proxy that stopped answering. Not judged for a replica that does not say what it sent.
   */
  private static void behind(ReplicaState s, String name, List<Finding> out) {
    for (ReplicaState.Proxy p : s.proxies()) {
      if (p.pending().isEmpty() || (s.verdict().isEmpty() && p.lastNack().filter(n -> stuck(p, n, s)).isPresent())) {
        continue;
      }
      List<String> types = new ArrayList<>();
      p.pending().forEach(type -> types.add(type + " " + p.sentVersions().get(type) + " (ACKed "
          + p.ackedVersions().getOrDefault(type, "nothing") + ")"));
      out.add(new Finding(Verdict.AT_RISK, name, "proxy " + p.nodeId() + " has not ACKed the last response of "
          + String.join(", ", types)));
    }
  }

  private static void fleetWide(List<ReplicaAnswer> answered, Leadership leadership, List<Finding> out) {
    if (answered.isEmpty()) {
      return;
    }
    if (leadership.leaseElection()) {
      if (leadership.claimants().isEmpty()) {
        out.add(new Finding(Verdict.AT_RISK, "", "no replica leads now"
            + leadership.leader().map(l -> " (lease holder last seen: " + l + ")").orElse("")
            + "; proxies are still served, status writes wait for a leader"));
      } else if (leadership.claimants().size() > 1) {
        out.add(new Finding(Verdict.AT_RISK, "", leadership.claimants().size() + " replicas say they lead: "
            + String.join(", ", leadership.claimants())));
      }
      if (leadership.holderSeenBy().size() > 1) {
        List<String> views = new ArrayList<>();
        leadership.holderSeenBy().forEach((holder, by) -> views.add(holder + " (seen by " + String.join(", ", by)
            + ")"));
        out.add(new Finding(Verdict.AT_RISK, "", "replicas disagree on the lease holder: " + String.join("; ",
            views)));
      }
    }
    TreeSet<String> versions = new TreeSet<>();
    answered.forEach(r -> r.state().orElseThrow().snapshotVersion().ifPresent(versions::add));
    if (versions.size() > 1) {
      out.add(new Finding(Verdict.AT_RISK, "", "replicas serve different versions: " + String.join(", ",
          versions)));
    }
  }
}
