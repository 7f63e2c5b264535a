package io.holdfast.it.bench.xds;

import io.holdfast.it.bench.Stats;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Renders {@link XdsResults} as the xDS section of docs/BENCHMARKS.md. */
final class XdsMarkdown {
  private static final String HOLDFAST = "Holdfast XdsCache";
  /** The SotW server CPU per change per 1,000 streams before this work: 257 ms per change at 1,000 streams. */
  private static final double OLD_SOTW_CPU_PER_1000 = 257.0;
  private final XdsResults r;
  private final int changes;
  private final int warmups;
  private final StringBuilder out = new StringBuilder();

  private final int repetitions;

  XdsMarkdown(XdsResults results, int changes, int warmups, int repetitions) {
    this.r = results;
    this.changes = changes;
    this.warmups = warmups;
    this.repetitions = repetitions;
  }

  String render() {
    line("Server: one control plane at a time in the benchmark JVM (the whole machine available to it), ADS on");
    line("127.0.0.1. Load: a separate JVM (`io.holdfast.it.bench.xds.LoadClient`) of lightweight ADS clients over");
    line("grpc-java (Envoy v3 protos), " + XdsBench.STREAMS_PER_CONNECTION + " streams per connection, with a fixed thread budget: one Netty event loop");
    line("thread for all connections (responses handled on it), one GC thread, two JIT threads, so it uses at most");
    line("about one of the two cores; its CPU is reported beside the server's. Each stream subscribes as Envoy does");
    line("(CDS and LDS wildcard, then EDS for the clusters' service names and RDS for the listeners' route names),");
    line("state of the world (SotW) or delta xDS, and ACKs every response. Snapshot:");
    line(r.snapshotDescription + "; " + r.changeDescription + ".");
    line("Holdfast: `XdsServer` + `XdsCache`. Peer: java-control-plane 1.0.49 `SimpleCache` behind");
    line("`V3DiscoveryServer` on a plain grpc-netty-shaded server, one version per type (so unchanged types are not");
    line("re-sent). Push latency: from just before `setSnapshot` to the arrival of the last awaited response (both JVMs");
    line("read the same monotonic clock; checked per run). Each run makes " + warmups + " unmeasured warm-up changes, then");
    line(changes + " measured ones, 200 ms + 20 ms per 1,000 streams apart; " + repetitions + " repetition(s) per configuration,");
    line("Holdfast and SimpleCache interleaved. CPU: process CPU time over the measured changes (JIT and GC included),");
    line("per change and per 1,000 streams. Bytes: serialized responses plus the 5-byte gRPC message header, per change");
    line("and stream (HTTP/2 framing not counted). Heap: growth of the server's used heap, after full GCs, from");
    line("opening the streams until all are served and idle, per stream. After the last change every stream's state");
    line("is checked against stream 0's (per type: version and resource count; delta: every name and version).");
    line("");
    line("### Push fan-out, per repetition");
    line("");
    line("| Streams (conns) | Protocol | Control plane | Rep | to last stream p50 / p99 / max | to median stream p50 | server CPU per change per 1k streams | load client CPU per change | bytes per change per stream | heap per idle stream | connect to all served | errors / timeouts / state check |");
    line("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (XdsResults.FanOutRun f : r.fanOut) {
      Stats last = Stats.of(f.lastMs());
      Stats median = Stats.of(f.medianMs());
      line(String.format(Locale.ROOT, "| %d (%d) | %s | %s | %d | %s / %s / %s | %s | %.1f ms | %.1f ms | %s | %.1f KiB | %s | %d / %d / %s |",
          f.streams(), f.connections(), f.protocol(), f.target(), f.repetition(), Stats.millis(last.p50()),
          Stats.millis(last.p99()), Stats.millis(last.max()), Stats.millis(median.p50()),
          f.serverCpuPerChangePer1000(), f.clientCpuMs() / Math.max(1, f.changes()),
          bytes(f.bytesPerChangePerStream()), f.heapPerStream() / 1024, Stats.millis(f.openMs()), f.errors(),
          f.timeouts(), f.mismatch() == null ? "ok" : "**" + f.mismatch() + "**"));
    }
    line("");
    line("### Push fan-out, repetitions pooled");
    line("");
    line("p99 is nearest-rank over all measured changes of the configuration; the spread is the range of the");
    line("per-repetition values.");
    line("");
    line("| Streams | Protocol | Control plane | changes | to last stream p50 / p99 (pooled) | per-repetition p50 range | per-repetition p99 range | server CPU per change per 1k streams (range) | bytes per change per stream | heap per idle stream (range) |");
    line("|---|---|---|---|---|---|---|---|---|---|");
    for (Group g : groups()) {
      List<XdsResults.FanOutRun> runs = g.runs();
      List<Double> pooled = runs.stream().flatMap(f -> f.lastMs().stream()).toList();
      Stats all = Stats.of(pooled);
      line(String.format(Locale.ROOT, "| %d | %s | %s | %d | %s / %s | %s | %s | %s | %s | %s |", g.streams(),
          g.protocol(), g.target(), pooled.size(), Stats.millis(all.p50()), Stats.millis(all.p99()),
          range(runs.stream().map(f -> Stats.of(f.lastMs()).p50()).toList(), "ms"),
          range(runs.stream().map(f -> Stats.of(f.lastMs()).p99()).toList(), "ms"),
          range(runs.stream().map(XdsResults.FanOutRun::serverCpuPerChangePer1000).toList(), "ms"),
          bytes(runs.stream().mapToDouble(XdsResults.FanOutRun::bytesPerChangePerStream).average().orElse(Double.NaN)),
          range(runs.stream().map(f -> f.heapPerStream() / 1024).toList(), "KiB")));
    }
    line("");
    ratios();
    line("");
    line("### NACKing streams: every response rejected");
    line("");
    line("| Control plane | Streams | responses / s with no config change | responses per stream in the " + windowSeconds()
        + " s after one change | server CPU in the quiet window |");
    line("|---|---|---|---|---|");
    for (XdsResults.NackRun n : r.nack) {
      line(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.2f s |", n.target(), n.streams(), n.quietPerSecond(),
          n.afterChangeResponses() / (double) n.streams(), n.quietServerCpuMs() / 1000));
    }
    line("");
    goals();
    if (!r.problems.isEmpty()) {
      line("Problems during the run:");
      line("");
      r.problems.forEach(p -> line("- " + p));
      line("");
    }
    return out.toString();
  }

  private record Group(int streams, String protocol, String target, List<XdsResults.FanOutRun> runs) {
  }

  private List<Group> groups() {
    java.util.Map<String, Group> groups = new java.util.LinkedHashMap<>();
    for (XdsResults.FanOutRun f : r.fanOut) {
      groups.computeIfAbsent(f.streams() + "/" + f.protocol() + "/" + f.target(),
          k -> new Group(f.streams(), f.protocol(), f.target(), new java.util.ArrayList<>())).runs().add(f);
    }
    return List.copyOf(groups.values());
  }

  private static String range(List<Double> values, String unit) {
    if (values.isEmpty()) {
      return "-";
    }
    Stats s = Stats.of(values);
    if (unit.equals("ms")) {
      return s.min() == s.max() ? Stats.millis(s.min()) : Stats.millis(s.min()) + " - " + Stats.millis(s.max());
    }
    return s.min() == s.max() ? String.format(Locale.ROOT, "%.1f %s", s.min(), unit)
        : String.format(Locale.ROOT, "%.1f - %.1f %s", s.min(), s.max(), unit);
  }

  private static String bytes(double b) {
    if (Double.isNaN(b)) {
      return "-";
    }
    return b >= 10 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", b / 1024) : String.format(Locale.ROOT, "%.0f B", b);
  }

  private String windowSeconds() {
    return r.nack.isEmpty() ? "?" : String.valueOf(r.nack.get(0).window().toSeconds());
  }

  private void ratios() {
    for (Group g : groups()) {
      if (!g.target().equals(HOLDFAST)) {
        continue;
      }
      groups().stream().filter(o -> o.streams() == g.streams() && o.protocol().equals(g.protocol())
          && !o.target().equals(HOLDFAST)).findFirst().ifPresent(sc -> {
            double a = Stats.of(g.runs().stream().flatMap(f -> f.lastMs().stream()).toList()).p50();
            double b = Stats.of(sc.runs().stream().flatMap(f -> f.lastMs().stream()).toList()).p50();
            double ca = g.runs().stream().mapToDouble(XdsResults.FanOutRun::serverCpuPerChangePer1000).average().orElse(0);
            double cb = sc.runs().stream().mapToDouble(XdsResults.FanOutRun::serverCpuPerChangePer1000).average().orElse(0);
            line(String.format(Locale.ROOT, "- %,d %s streams, same run: SimpleCache / Holdfast push time to the last "
                + "stream (p50) = %.2fx; server CPU per change %.2fx.", g.streams(), g.protocol(), b / a, cb / Math.max(1e-9, ca)));
          });
    }
  }

  private Optional<Group> find(int streams, String protocol, boolean holdfast) {
    return groups().stream().filter(g -> g.streams() == streams && g.protocol().equals(protocol)
        && g.target().equals(HOLDFAST) == holdfast).findFirst();
  }

  private void goals() {
    line("### xDS goals");
    line("");
    for (String protocol : List.of("SotW", "delta")) {
      find(10_000, protocol, true).ifPresentOrElse(g -> {
        List<XdsResults.FanOutRun> runs = g.runs();
        Stats s = Stats.of(runs.stream().flatMap(f -> f.lastMs().stream()).toList());
        int timeouts = runs.stream().mapToInt(XdsResults.FanOutRun::timeouts).sum();
        long errors = runs.stream().mapToLong(XdsResults.FanOutRun::errors).sum();
        long mismatches = runs.stream().filter(f -> f.mismatch() != null).count();
        double cpu = runs.stream().mapToDouble(XdsResults.FanOutRun::serverCpuPerChangePer1000).max().orElse(0);
        double heap = runs.stream().mapToDouble(XdsResults.FanOutRun::heapPerStream).max().orElse(0) / 1024;
        line(String.format(Locale.ROOT, "- 10,000 %s streams: p99 to the last stream %s (goal < 2 s) -> %s; server CPU per "
            + "change per 1,000 streams at most %.1f ms (goal <= %.1f ms, half of the old SotW figure) -> %s; heap per idle "
            + "stream at most %.1f KiB (goal < 12 KiB) -> %s; %d errors, %d timeouts, %d state mismatches -> %s.",
            protocol, Stats.millis(s.p99()), mark(s.n() > 0 && s.p99() < 2000), cpu, OLD_SOTW_CPU_PER_1000 / 2,
            mark(cpu <= OLD_SOTW_CPU_PER_1000 / 2), heap, mark(heap < 12), errors, timeouts, mismatches,
            mark(errors == 0 && timeouts == 0 && mismatches == 0)));
      }, () -> line("- 10,000 " + protocol + " streams: not measured in this run."));
    }
    List<XdsResults.NackRun> hf = r.nack.stream().filter(n -> n.target().equals(HOLDFAST)).toList();
    hf.forEach(n -> line("- NACK resends 0 until config changes: Holdfast re-sent " + n.quietResponses() + " responses to "
        + n.streams() + " NACKing streams in " + n.window().toSeconds() + " s -> "
        + (n.quietResponses() == 0 ? "**met**" : "**not met**") + "; after one change each stream got "
        + String.format(Locale.ROOT, "%.1f", n.afterChangeResponses() / (double) n.streams())
        + " responses in the next " + n.window().toSeconds() + " s"
        + (n.afterChangeResponses() == 4L * n.streams()
            ? ": the new snapshot once on each of its 4 subscribed types (it had accepted none), nothing more."
            : "."))); 
    line("");
  }

  private static String mark(boolean met) {
    return met ? "**met**" : "**not met**";
  }

  private void line(String s) {
    out.append(s).append('\n');
  }
}
