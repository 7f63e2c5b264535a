package io.holdfast.it.bench.xds;

import io.holdfast.it.bench.Stats;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Renders {@link XdsResults} as the xDS section of docs/BENCHMARKS.md. */
final class XdsMarkdown {
  private static final String HOLDFAST = "Holdfast XdsCache";
  private final XdsResults r;
  private final int changes;
  private final int warmups;
  private final StringBuilder out = new StringBuilder();

  XdsMarkdown(XdsResults results, int changes, int warmups) {
    this.r = results;
    this.changes = changes;
    this.warmups = warmups;
  }

  String render() {
    line("Server: one control plane at a time in the benchmark JVM, ADS on 127.0.0.1. Load: a separate JVM");
    line("(`io.holdfast.it.bench.xds.LoadClient`) with lightweight SotW ADS clients over grpc-java (Envoy v3 protos),");
    line("25 streams per connection. Each stream subscribes as Envoy does (CDS and LDS wildcard, then EDS for the");
    line("clusters' service names and RDS for the listeners' route names) and ACKs every response. Snapshot:");
    line(r.snapshotDescription + "; " + r.changeDescription + ".");
    line("Holdfast: `XdsServer` + `XdsCache`. Peer: java-control-plane 1.0.49 `SimpleCache` behind");
    line("`V3DiscoveryServer` on a plain grpc-netty-shaded server, one version per type (so unchanged types are not");
    line("re-sent). Push latency: from just before `setSnapshot` to the arrival of the last awaited response (both JVMs");
    line("read the same monotonic clock; checked per run). Each run first makes " + warmups + " unmeasured warm-up changes,");
    line("then " + changes + " measured ones, 200 ms apart. CPU: process CPU time of the server JVM over the measured changes");
    line("(JIT and GC included). Heap: growth of the server's used heap, after full GCs, from opening the streams.");
    line("");
    line("### Push fan-out: " + changes + " measured changes per run");
    line("");
    line("| Streams (connections) | Control plane | to last stream p50 / p99 / max | to median stream p50 | server CPU per change | heap per stream | connect to all streams served | errors / timeouts |");
    line("|---|---|---|---|---|---|---|---|");
    for (XdsResults.FanOutRun f : r.fanOut) {
      Stats last = Stats.of(f.lastMs());
      Stats median = Stats.of(f.medianMs());
      line(String.format(Locale.ROOT, "| %d (%d) | %s | %s / %s / %s | %s | %.1f ms | %.1f KiB | %s | %d / %d |",
          f.streams(), f.connections(), f.target(), Stats.millis(last.p50()), Stats.millis(last.p99()),
          Stats.millis(last.max()), Stats.millis(median.p50()), f.serverCpuMs() / Math.max(1, f.lastMs().size()),
          f.heapPerStream() / 1024, Stats.millis(f.openMs()), f.errors(), f.timeouts()));
    }
    line("");
    ratios();
    marginalHeap();
    line("p99 is nearest-rank: with " + changes + " changes it is the slowest change but one or the slowest.");
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

  private String windowSeconds() {
    return r.nack.isEmpty() ? "?" : String.valueOf(r.nack.get(0).window().toSeconds());
  }

  private void ratios() {
    for (int streams : r.fanOut.stream().map(XdsResults.FanOutRun::streams).distinct().toList()) {
      Optional<XdsResults.FanOutRun> hf = find(streams, true);
      Optional<XdsResults.FanOutRun> sc = find(streams, false);
      if (hf.isPresent() && sc.isPresent() && !hf.get().lastMs().isEmpty() && !sc.get().lastMs().isEmpty()) {
        double a = Stats.of(hf.get().lastMs()).p50();
        double b = Stats.of(sc.get().lastMs()).p50();
        line(String.format(Locale.ROOT, "- %d streams, same run: SimpleCache / Holdfast push time to the last stream (p50) = %.2fx; "
            + "server CPU per change %.2fx.", streams, b / a, sc.get().serverCpuMs() / Math.max(1e-9, hf.get().serverCpuMs())));
      }
    }
  }

  /** Heap growth between the two stream counts, which removes fixed costs (connections, first-use caches). */
  private void marginalHeap() {
    for (boolean holdfast : new boolean[] {true, false}) {
      List<XdsResults.FanOutRun> runs = r.fanOut.stream().filter(f -> f.target().equals(HOLDFAST) == holdfast)
          .sorted(java.util.Comparator.comparingInt(XdsResults.FanOutRun::streams)).toList();
      if (runs.size() >= 2) {
        XdsResults.FanOutRun small = runs.get(0);
        XdsResults.FanOutRun big = runs.get(runs.size() - 1);
        double perStream = (big.heapPerStream() * big.streams() - small.heapPerStream() * small.streams())
            / (big.streams() - small.streams());
        line(String.format(Locale.ROOT, "- %s: marginal server heap per stream between %d and %d streams: %.1f KiB.",
            big.target(), small.streams(), big.streams(), perStream / 1024));
      }
    }
  }

  private Optional<XdsResults.FanOutRun> find(int streams, boolean holdfast) {
    return r.fanOut.stream().filter(f -> f.streams() == streams && f.target().equals(HOLDFAST) == holdfast).findFirst();
  }

  private void goals() {
    line("### xDS goals");
    line("");
    Optional<XdsResults.FanOutRun> thousand = find(1000, true);
    thousand.ifPresentOrElse(f -> {
      Stats s = Stats.of(f.lastMs());
      boolean met = f.timeouts() == 0 && s.n() > 0 && s.p99() < 1000;
      line("- Push to 1,000 streams p99 < 1 s on 2 cores: Holdfast p99 " + Stats.millis(s.p99()) + " (" + f.timeouts()
          + " timeouts) -> " + (met ? "**met**" : "**not met**") + " (machine shared, see above).");
    }, () -> line("- Push to 1,000 streams p99 < 1 s: not measured (run failed, see problems)."));
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

  private void line(String s) {
    out.append(s).append('\n');
  }
}
