package io.holdfast.it.bench.election;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Everything the election benchmark measured, for {@link ElectionMarkdown}. */
final class ElectionResults {

  /**
   * After a cut-off, the link came back: did the old leader get in touch, and did it lead again once the
   * other replica released the lease?
   *
   * @param finished   the old leader's elector had ended (single-use) when the link returned
   * @param contact    it observed the new leader after the link returned, within the bound
   * @param reLeadMs   time from the release to the old leader leading again; NaN if it did not within the bound
   */
  record Recovery(boolean finished, boolean contact, double reLeadMs) {
    boolean reLed() {
      return !Double.isNaN(reLeadMs);
    }
  }

  /**
   * One repetition of one scenario for one implementation.
   *
   * @param stoppedMs  t0 to the old leader no longer believing it leads; NaN if not within the bound
   * @param takeoverMs t0 to the other replica leading; NaN if not within the bound
   * @param dualMs     total time both believed they led
   * @param recovery   null for the graceful scenario
   */
  record FaultRun(Timings timings, Scenario scenario, Implementation impl, int rep, double stoppedMs,
      double takeoverMs, double dualMs, Recovery recovery) {
  }

  /** API traffic of one replica over a steady-state window. */
  record SteadyRun(Timings timings, Implementation impl, boolean leader, long requests, long bytesToServer,
      long bytesToClient, Duration window) {
    double perMinute(long value) {
      return value * 60_000.0 / window.toMillis();
    }
  }

  /** Sum of the proxies' request counts against the emulated API's own count, for the same window. */
  record CrossCheck(Timings timings, long proxiesTotal, long apiTotal) {
  }

  final List<FaultRun> runs = new CopyOnWriteArrayList<>();
  final List<SteadyRun> steady = new CopyOnWriteArrayList<>();
  final List<CrossCheck> crossChecks = new CopyOnWriteArrayList<>();
  final List<String> problems = new CopyOnWriteArrayList<>();
  final List<Timings> profiles;
  final int reps;

  ElectionResults(List<Timings> profiles, int reps) {
    this.profiles = List.copyOf(profiles);
    this.reps = reps;
  }

  List<FaultRun> runs(Timings t, Scenario s, Implementation impl) {
    return runs.stream().filter(r -> r.timings().equals(t) && r.scenario() == s && r.impl() == impl).toList();
  }
}
