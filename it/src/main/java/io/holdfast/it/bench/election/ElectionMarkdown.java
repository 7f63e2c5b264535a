package io.holdfast.it.bench.election;

import io.holdfast.it.bench.Stats;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Renders {@link ElectionResults} as the election section of docs/BENCHMARKS.md. */
final class ElectionMarkdown {
  private final ElectionResults r;
  private final StringBuilder out = new StringBuilder();

  ElectionMarkdown(ElectionResults results) {
    this.r = results;
  }

  String render() {
    line("Both electors: 2 replicas each, each replica behind its own `FaultProxy`, on the same emulated API (fabric8");
    line("`KubernetesMockServer` in CRUD mode, `io.holdfast.testkit.MockKubeApi`): one fresh instance per side and");
    line("repetition, each side in its own namespace and Lease. In every repetition both sides get the same fault at");
    line("the same instant and are sampled together every 10 ms. A probe GETs each side's API every 100 ms; a run in");
    line("which it went more than 1 s unanswered measured a stall of the mock (it can block its event loop for 30 s");
    line("when a watch closes mid-write), not the elector: such runs are listed below the tables, not counted. Holdfast: `LeaderElector` + `KubernetesLeaseLock.using(client, ns, name)`,");
    line("client from `KubernetesLeaseLock.electionConfig` (1 s lock timeout). fabric8: `client.leaderElector()` with");
    line("`LeaseLock`, `withReleaseOnCancel(true)`, started with `start()` and stopped by cancelling its future; client");
    line("with fabric8's default timeouts (10 s), retries off. \"Leads\" means: Holdfast `isLeader()`; fabric8 between its");
    line("`onStartLeading` and `onStopLeading` callbacks. Figures are p50 / p90 / max over " + r.reps + " repetitions;");
    line("a dash means the event did not happen within the scenario's bound (3 x lease + renew deadline + 30 s).");
    line("");
    for (Timings t : r.profiles) {
      profile(t);
    }
    goals();
    if (!r.stalledRuns().isEmpty()) {
      line("Runs not counted because the emulated API stalled (stop / takeover / dual, in ms):");
      line("");
      r.stalledRuns().forEach(x -> line(String.format(Locale.ROOT, "- %s, %s, %s rep %d: API unanswered for %s; %s / %s / %s",
          x.timings().name(), x.impl().label, x.scenario(), x.rep(), Stats.millis(x.apiSlowestMs()),
          Stats.millis(x.stoppedMs()), Stats.millis(x.takeoverMs()), Stats.millis(x.dualMs()))));
      line("");
    }
    if (!r.problems.isEmpty()) {
      line("Problems during the run:");
      line("");
      r.problems.forEach(p -> line("- " + p));
      line("");
    }
    return out.toString();
  }

  private void profile(Timings t) {
    line("### Profile " + t.name() + " (lease / renew deadline / retry period)");
    line("");
    line("| Scenario | Measure | Holdfast | fabric8 8.0.0 | fabric8 / Holdfast (p50) |");
    line("|---|---|---|---|---|");
    for (Scenario s : Scenario.values()) {
      List<ElectionResults.FaultRun> hf = r.runs(t, s, Implementation.HOLDFAST);
      List<ElectionResults.FaultRun> f8 = r.runs(t, s, Implementation.FABRIC8);
      String name = switch (s) {
        case GRACEFUL -> "graceful shutdown";
        case RESET -> "cut off: RESET (= killed)";
        case BLACKHOLE -> "cut off: BLACKHOLE";
      };
      if (s.isFault()) {
        timeRow(name, "old leader stops acting", hf, f8, ElectionResults.FaultRun::stoppedMs);
      }
      timeRow(name, "another replica leads", hf, f8, ElectionResults.FaultRun::takeoverMs);
      row(name, "dual-leader window", dual(hf), dual(f8), "");
      if (s.isFault()) {
        row(name, "link returns: leads again after the other releases", recovery(hf), recovery(f8), "");
      }
    }
    line("");
    steady(t);
  }

  private void timeRow(String scenario, String measure, List<ElectionResults.FaultRun> hf,
      List<ElectionResults.FaultRun> f8, ToDoubleFunction<ElectionResults.FaultRun> metric) {
    Stats a = stats(hf, metric);
    Stats b = stats(f8, metric);
    String ratio = a.n() > 0 && b.n() > 0 && a.p50() > 0 ? String.format(Locale.ROOT, "%.1fx", b.p50() / a.p50()) : "-";
    row(scenario, measure, summary(a, hf.size()), summary(b, f8.size()), ratio);
  }

  private static Stats stats(List<ElectionResults.FaultRun> runs, ToDoubleFunction<ElectionResults.FaultRun> metric) {
    return Stats.of(runs.stream().mapToDouble(metric).filter(v -> !Double.isNaN(v)).boxed().toList());
  }

  private static String summary(Stats s, int runs) {
    if (runs == 0) {
      return "not run";
    }
    String missing = s.n() < runs ? "; " + (runs - s.n()) + " of " + runs + " never" : "";
    return s.n() == 0 ? "never (0 of " + runs + ")" : s.millisSummary() + missing;
  }

  private static String dual(List<ElectionResults.FaultRun> runs) {
    if (runs.isEmpty()) {
      return "not run";
    }
    long overlapping = runs.stream().filter(x -> x.dualMs() > 0).count();
    double max = runs.stream().mapToDouble(ElectionResults.FaultRun::dualMs).max().orElse(0);
    Stats s = Stats.of(runs.stream().map(ElectionResults.FaultRun::dualMs).toList());
    return overlapping == 0 ? "0 in all " + runs.size()
        : "p50 " + Stats.millis(s.p50()) + ", max " + Stats.millis(max) + "; > 0 in " + overlapping + " of " + runs.size();
  }

  private static String recovery(List<ElectionResults.FaultRun> runs) {
    if (runs.isEmpty()) {
      return "not run";
    }
    List<ElectionResults.Recovery> rec = runs.stream().map(ElectionResults.FaultRun::recovery).toList();
    long reLed = rec.stream().filter(ElectionResults.Recovery::reLed).count();
    long ended = rec.stream().filter(ElectionResults.Recovery::finished).count();
    Stats s = Stats.of(rec.stream().filter(ElectionResults.Recovery::reLed).map(ElectionResults.Recovery::reLeadMs).toList());
    String text = "yes in " + reLed + " of " + rec.size();
    if (reLed > 0) {
      text += " (p50 " + Stats.millis(s.p50()) + " after the release)";
    }
    if (ended > 0) {
      text += "; elector had ended in " + ended + " of " + rec.size();
    }
    return text;
  }

  private void steady(Timings t) {
    List<ElectionResults.SteadyRun> runs = r.steady.stream().filter(s -> s.timings().equals(t)).toList();
    if (runs.isEmpty()) {
      return;
    }
    line("Steady state, API traffic per replica through its proxy over " + runs.get(0).window().toSeconds()
        + " s (one window; HTTP requests, and bytes including the watch stream):");
    line("");
    line("| Elector | Role | API requests / min | bytes to API / min | bytes from API / min |");
    line("|---|---|---|---|---|");
    for (Implementation impl : Implementation.values()) {
      for (boolean leader : new boolean[] {true, false}) {
        runs.stream().filter(s -> s.impl() == impl && s.leader() == leader).forEach(s -> line(String.format(
            Locale.ROOT, "| %s | %s | %.1f | %.0f | %.0f |", impl.label, leader ? "leader" : "follower",
            s.perMinute(s.requests()), s.perMinute(s.bytesToServer()), s.perMinute(s.bytesToClient()))));
      }
    }
    line("");
    r.crossChecks.stream().filter(c -> c.timings().equals(t)).forEach(c -> line("Cross-check, " + c.impl().label
        + ": its two proxies counted " + c.proxiesTotal() + " requests in the window, its emulated API recorded "
        + c.apiTotal() + ".  "));
    line("");
  }

  private void goals() {
    line("### Election goals");
    line("");
    for (Timings t : r.profiles) {
      Stats g = stats(r.runs(t, Scenario.GRACEFUL, Implementation.HOLDFAST), ElectionResults.FaultRun::takeoverMs);
      line("- Takeover after graceful shutdown p50 <= 150 ms (" + t.name() + "): Holdfast p50 " + Stats.millis(g.p50())
          + " -> " + (g.n() > 0 && g.p50() <= 150 ? "**met**" : "**not met**") + ".");
      // Safety counts every run, stalled API or not.
      List<ElectionResults.FaultRun> all = r.runs.stream()
          .filter(x -> x.timings().equals(t) && x.impl() == Implementation.HOLDFAST).toList();
      long dual = all.stream().filter(x -> x.dualMs() > 0).count();
      line("- Dual-leader window 0 in every fault (" + t.name() + "): Holdfast > 0 in " + dual + " of " + all.size()
          + " runs, all scenarios, stalled ones included -> " + (dual == 0 && !all.isEmpty() ? "**met**" : "**not met**") + ".");
      r.steady.stream().filter(s -> s.timings().equals(t) && !s.leader()).map(s -> s.impl().label + " follower "
          + String.format(Locale.ROOT, "%.1f", s.perMinute(s.requests())) + " requests/min").reduce((a, b) -> a + ", " + b)
          .ifPresent(text -> line("- Follower API requests well under a polling elector's (" + t.name() + "): " + text + "."));
    }
    line("");
  }

  private void row(String a, String b, String c, String d, String e) {
    line("| " + a + " | " + b + " | " + c + " | " + d + " | " + e + " |");
  }

  private void line(String s) {
    out.append(s).append('\n');
  }
}
