package io.holdfast.server.fleet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code holdfast status}'s text output: the verdict and its reasons first, then the replicas, then the proxies. */
public final class FleetText {
  private FleetText() {
  }

  public static String render(FleetReport report) {
    StringBuilder out = new StringBuilder();
    out.append("Fleet: ").append(report.verdict().map(v -> v.label().toUpperCase(Locale.ROOT))
        .orElse("UNKNOWN (no replica answered)")).append('\n');
    for (FleetReport.Finding f : report.findings()) {
      out.append("  ").append(f.severity() == Verdict.BROKEN ? "[broken]  " : "[at risk] ")
          .append(f.replica().isEmpty() ? "" : f.replica() + ": ").append(f.text()).append('\n');
    }
    FleetReport.Leadership l = report.leadership();
    out.append("Leader: ").append(leader(l)).append('\n');
    out.append("Current version: ").append(report.currentVersion().orElse("none")).append("\n\n");

    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("REPLICA", "ADDRESS", "ROLE", "LEASE HOLDER", "VERSION", "BUILT", "STALE FOR", "API",
        "PROXIES", "REJECTED"));
    for (ReplicaAnswer r : report.replicas()) {
      if (r.state().isEmpty()) {
        rows.add(List.of("?", r.address(), "unreachable", "-", "-", "-", "-", "-", "-", "-"));
        continue;
      }
      ReplicaState s = r.state().get();
      rows.add(List.of(r.name(), r.address(), s.role().isEmpty() ? "?" : s.role(), s.leaseHolder().orElse("-"),
          s.snapshotVersion().orElse("none"), s.snapshotAge().map(d -> duration(d) + " ago").orElse("-"),
          s.staleFor().map(FleetText::duration).orElse("fresh"),
          s.apiAnswered().map(a -> a ? "ok" : "down").orElse("-"), Integer.toString(s.proxies().size()),
          Integer.toString(s.rejected().size())));
    }
    table(out, rows);

    List<List<String>> proxies = new ArrayList<>();
    proxies.add(List.of("REPLICA", "NODE", "STREAMS", "ACKED", "LAST NACK"));
    for (ReplicaAnswer r : report.answered()) {
      for (ReplicaState.Proxy p : r.state().orElseThrow().proxies()) {
        proxies.add(List.of(r.name(), p.nodeId(), Integer.toString(p.streams()), acked(p),
            p.lastNack().map(n -> n.type() + " " + n.version() + ": " + oneLine(n.error())).orElse("none")));
      }
    }
    out.append('\n');
    if (proxies.size() == 1) {
      out.append("Proxies: none connected\n");
    } else {
      out.append("Proxies:\n");
      table(out, proxies);
    }
    for (ReplicaAnswer r : report.answered()) {
      ReplicaState s = r.state().orElseThrow();
      if (!s.rejected().isEmpty() || !s.manifestErrors().isEmpty()) {
        out.append('\n').append("Rejected on ").append(r.name()).append(":\n");
        s.rejected().forEach(x -> out.append("  ").append(x.resource()).append(": ")
            .append(x.problems().isEmpty() ? "rejected" : oneLine(String.join("; ", x.problems()))).append('\n'));
        s.manifestErrors().forEach(m -> out.append("  ").append(oneLine(m)).append('\n'));
      }
    }
    return out.toString();
  }

  private static String leader(FleetReport.Leadership l) {
    if (!l.leaseElection()) {
      return l.claimants().isEmpty() ? "none" : "each replica leads alone (no lease election): "
          + String.join(", ", l.claimants());
    }
    Optional<String> leader = l.leader();
    if (leader.isEmpty()) {
      return "unknown (no replica names a lease holder)";
    }
    String how = l.claimants().size() == 1 ? "leading now" : l.claimants().isEmpty()
        ? "lease holder last seen; no replica leads now" : "lease holder last seen; " + l.claimants().size()
        + " replicas say they lead";
    return leader.get() + " (" + how + "; " + (l.agreed() ? "replicas agree" : "replicas DISAGREE") + ")";
  }

  private static String acked(ReplicaState.Proxy p) {
    if (p.ackedVersions().isEmpty() && p.sentVersions().isEmpty()) {
      return "nothing yet";
    }
    if (p.inSync().equals(Optional.of(true))) {
      return "in sync";
    }
    List<String> parts = new ArrayList<>();
    if (p.inSync().isEmpty()) {
      p.ackedVersions().forEach((type, version) -> parts.add(type + " " + version));
      return String.join(", ", parts);
    }
    p.pending().forEach(type -> parts.add(type + " " + p.sentVersions().get(type) + " sent, "
        + p.ackedVersions().getOrDefault(type, "nothing") + " ACKed"));
    return "behind: " + String.join("; ", parts);
  }

  /** Left-aligned columns, two spaces apart. */
  private static void table(StringBuilder out, List<List<String>> rows) {
    int[] width = new int[rows.get(0).size()];
    rows.forEach(row -> {
      for (int i = 0; i < row.size(); i++) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    });
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        line.append(i == row.size() - 1 ? row.get(i) : String.format(Locale.ROOT, "%-" + (width[i] + 2) + "s",
            row.get(i)));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\s+", " ").trim();
  }

  /** {@code 0.4s}, {@code 42s}, {@code 3m 12s}, {@code 2h 5m}, {@code 3d 4h}. */
  static String duration(Duration d) {
    long millis = Math.max(0, d.toMillis());
    if (millis < 10_000) {
      return String.format(Locale.ROOT, "%.1fs", millis / 1000.0).replace(".0s", "s");
    }
    long s = millis / 1000;
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return s / 60 + "m" + (s % 60 == 0 ? "" : " " + s % 60 + "s");
    }
    if (s < 86_400) {
      return s / 3600 + "h" + (s % 3600 / 60 == 0 ? "" : " " + s % 3600 / 60 + "m");
    }
    return s / 86_400 + "d" + (s % 86_400 / 3600 == 0 ? "" : " " + s % 86_400 / 3600 + "h");
  }
}
