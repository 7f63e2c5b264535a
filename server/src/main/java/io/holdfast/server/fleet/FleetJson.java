package io.holdfast.server.fleet;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code holdfast status --output json}: the report as plain maps and lists (durations in seconds), for scripts.
 * Keys are stable; a value unknown to the replica is {@code null}.
 */
public final class FleetJson {
  private FleetJson() {
  }

  public static Map<String, Object> toMap(FleetReport report) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("verdict", report.verdict().map(Verdict::label).orElse(null));
    out.put("exitCode", report.exitCode());
    out.put("findings", report.findings().stream().map(f -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("severity", f.severity().label());
      m.put("replica", f.replica().isEmpty() ? null : f.replica());
      m.put("text", f.text());
      return m;
    }).toList());
    FleetReport.Leadership l = report.leadership();
    Map<String, Object> leader = new LinkedHashMap<>();
    leader.put("leader", l.leader().orElse(null));
    leader.put("claimedBy", l.claimants());
    leader.put("leaseHolderSeenBy", l.holderSeenBy());
    leader.put("agreed", l.agreed());
    leader.put("leaseElection", l.leaseElection());
    out.put("leadership", leader);
    out.put("currentVersion", report.currentVersion().orElse(null));
    out.put("replicas", report.replicas().stream().map(r -> replica(report, r)).toList());
    return out;
  }

  private static Map<String, Object> replica(FleetReport report, ReplicaAnswer r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("address", r.address());
    m.put("reachable", r.state().isPresent());
    m.put("error", r.error().orElse(null));
    if (r.state().isEmpty()) {
      return m;
    }
    ReplicaState s = r.state().get();
    m.put("identity", s.identity().isEmpty() ? null : s.identity());
    m.put("role", s.role().isEmpty() ? null : s.role());
    m.put("electionMode", s.electionMode().isEmpty() ? null : s.electionMode());
    m.put("leaseHolder", s.leaseHolder().orElse(null));
    m.put("snapshotVersion", s.snapshotVersion().orElse(null));
    m.put("snapshotAgeSeconds", seconds(s.snapshotAge()));
    m.put("staleForSeconds", seconds(s.staleFor()));
    m.put("apiAnswered", s.apiAnswered().orElse(null));
    m.put("secondsSinceApiContact", seconds(s.sinceApiContact()));
    m.put("lastBuild", s.lastBuildOutcome().orElse(null));
    m.put("ownVerdict", s.verdict().map(v -> v.verdict().label()).orElse(null));
    m.put("proxies", s.proxies().stream().map(p -> {
      Map<String, Object> proxy = new LinkedHashMap<>();
      proxy.put("nodeId", p.nodeId());
      proxy.put("streams", p.streams());
      proxy.put("ackedVersions", p.ackedVersions());
      proxy.put("sentVersions", p.sentVersions());
      proxy.put("inSync", p.inSync().orElse(null));
      proxy.put("lastNack", p.lastNack().map(n -> {
        Map<String, Object> nack = new LinkedHashMap<>();
        nack.put("type", n.type());
        nack.put("version", n.version());
        nack.put("error", n.error());
        nack.put("at", n.at().map(Object::toString).orElse(null));
        return nack;
      }).orElse(null));
      return proxy;
    }).toList());
    m.put("rejected", s.rejected().stream().map(x -> Map.of("resource", x.resource(), "problems", x.problems()))
        .toList());
    m.put("manifestErrors", s.manifestErrors());
    return m;
  }

  private static Double seconds(Optional<Duration> d) {
    return d.map(x -> x.toMillis() / 1000.0).orElse(null);
  }
}
