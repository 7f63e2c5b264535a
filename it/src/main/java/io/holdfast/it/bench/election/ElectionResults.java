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
   * @param apiSlowestMs slowest answer of this side's emulated API during the run (see {@link ApiProbe})
   */
  record FaultRun(Timings timings, Scenario scenario, Implementation impl, int rep, double stoppedMs,
      double takeoverMs, double dualMs, Recovery recovery, double apiSlowestMs) {
    /** Above this the mock itself stalled and the run says nothing about the elector. */
    static final double API_STALL_MS = 1000;

    boolean apiStalled() {
      return apiSlowestMs > API_STALL_MS;
    }
  }

  /** API traffic of one replica over a steady-state window. */
  record SteadyRun(Timings timings, Implementation impl, boolean leader, long requests, long bytesToServer,
      long bytesToClient, Duration window) {
    double perMinute(long value) {
      return value * 60_000.0 / window.toMillis();
    }
  }

  /** Sum of one side's proxies' request counts against its emulated API's own count, for the same window. */
  record CrossCheck(Timings timings, Implementation impl, long proxiesTotal, long apiTotal) {
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

  /** The runs of one cell whose emulated API did not stall. */
  List<FaultRun> runs(Timings t, Scenario s, Implementation impl) {
    return runs.stream().filter(r -> r.timings().equals(t) && r.scenario() == s && r.impl() == impl)
        .filter(r -> !r.apiStalled()).toList();
  }

  List<FaultRun> stalledRuns() {
    return runs.stream().filter(FaultRun::apiStalled).toList();
  }
}
