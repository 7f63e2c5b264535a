package io.holdfast.it.bench.election;

import io.holdfast.it.bench.Stats;
import io.holdfast.it.bench.Waits;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holdfast's elector against fabric8's, two replicas each, both on one emulated API (each side its own
 * namespace and lease, each replica its own fault proxy). In every repetition both sides get the same fault at
 * the same instant and are sampled together, so their figures come from the same conditions.
 */
public final class ElectionBench {
  private static final Logger log = LoggerFactory.getLogger(ElectionBench.class);

  private final List<Timings> profiles;
  private final int reps;
  private final Duration maxSteadyWindow;

  public ElectionBench(List<Timings> profiles, int reps) {
    this(profiles, reps, Duration.ofHours(1));
  }

  /** The same with the steady-state counting window cut to at most {@code maxSteadyWindow} (quick runs). */
  public ElectionBench(List<Timings> profiles, int reps, Duration maxSteadyWindow) {
    if (reps < 1 || reps > 50) {
      throw new IllegalArgumentException("reps must be 1..50, got " + reps);
    }
    this.profiles = List.copyOf(profiles);
    this.reps = reps;
    this.maxSteadyWindow = maxSteadyWindow;
  }

  /** Runs everything and renders the report section. */
  public String run() {
    ElectionResults results = new ElectionResults(profiles, reps);
    ExecutorService pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "bench-election");
      t.setDaemon(true);
      return t;
    });
    try {
      for (Timings timings : profiles) {
        for (int rep = 1; rep <= reps; rep++) {
          for (Scenario scenario : Scenario.values()) {
            runScenario(timings, scenario, rep, results, pool);
          }
        }
        steady(timings, results, pool);
      }
    } finally {
      pool.shutdownNow();
    }
    return new ElectionMarkdown(results).render();
  }

  private static String leaseName(String what, Timings timings, int rep) {
    return (what + "-" + timings.leaseDuration().toSeconds() + "s-" + rep).toLowerCase(Locale.ROOT);
  }

  /**
   * Each side gets its own fresh emulated API per repetition, so a stall of the mock (see {@link ApiProbe})
   * triggered by one side, or left over from the previous repetition, cannot touch the other side's figures.
   */
  private static Map<Implementation, MockKubeApi> startApis() {
    Map<Implementation, MockKubeApi> apis = new EnumMap<>(Implementation.class);
    for (Implementation impl : Implementation.values()) {
      apis.put(impl, MockKubeApi.start());
    }
    return apis;
  }

  private void runScenario(Timings timings, Scenario scenario, int rep, ElectionResults results,
      ExecutorService pool) {
    String lease = leaseName(scenario.name(), timings, rep);
    log.info("election: scenario={} profile=\"{}\" rep={}/{}", scenario, timings.name(), rep, reps);
    Map<Implementation, MockKubeApi> apis = startApis();
    Map<Implementation, ApiProbe> probes = new EnumMap<>(Implementation.class);
    Map<Implementation, ReplicaPair> pairs = new EnumMap<>(Implementation.class);
    try {
      for (Implementation impl : Implementation.values()) {
        probes.put(impl, new ApiProbe(apis.get(impl).port()));
        pairs.put(impl, ReplicaPair.start(apis.get(impl), impl, lease, timings));
      }
      List<LeaderSampler.Track> tracks = new ArrayList<>();
      for (ReplicaPair pair : pairs.values()) {
        Optional<Contender> leader = pair.awaitSettledLeader(timings.leaseDuration().multipliedBy(2).plusSeconds(10));
        if (leader.isEmpty()) {
          results.problems.add(scenario + " rep " + rep + " (" + timings.name() + ") skipped for both electors: "
              + pair.impl.label + " had no settled single leader before the fault (" + pair.describe()
              + "; slowest emulated-API answer " + Stats.millis(probes.get(pair.impl).slowestMs()) + ")");
          return;
        }
        tracks.add(new LeaderSampler.Track(pair.impl, leader.get(), pair.other(leader.get())));
      }
      long t0 = System.nanoTime();
      List<CompletableFuture<Void>> stops = new ArrayList<>();
      for (LeaderSampler.Track t : tracks) {
        switch (scenario) {
          case GRACEFUL -> stops.add(CompletableFuture.runAsync(t.old::stopGracefully, pool));
          case RESET -> t.old.proxy().reset();
          case BLACKHOLE -> t.old.proxy().blackhole();
        }
      }
      LeaderSampler.run(tracks, t0, timings.scenarioBound());
      stops.forEach(CompletableFuture::join);
      Map<Implementation, ElectionResults.Recovery> recoveries = new EnumMap<>(Implementation.class);
      if (scenario.isFault()) {
        List<CompletableFuture<Void>> checks = new ArrayList<>();
        for (LeaderSampler.Track t : tracks) {
          checks.add(CompletableFuture.runAsync(() -> recoveries.put(t.impl, linkReturns(t, timings)), pool));
        }
        checks.forEach(CompletableFuture::join);
      }
      for (LeaderSampler.Track t : tracks) {
        ElectionResults.FaultRun run = new ElectionResults.FaultRun(timings, scenario, t.impl, rep, t.stoppedMs(t0),
            t.takeoverMs(t0), t.dualMs(), recoveries.get(t.impl), probes.get(t.impl).slowestMs());
        results.runs.add(run);
        log.info("election: impl={} scenario={} rep={} stoppedMs={} takeoverMs={} dualMs={} recovery={} apiSlowestMs={}",
            t.impl, scenario, rep, fmt(run.stoppedMs()), fmt(run.takeoverMs()), fmt(run.dualMs()), run.recovery(),
            fmt(run.apiSlowestMs()));
      }
    } finally {
      probes.values().forEach(ApiProbe::close);
      pairs.values().forEach(p -> p.replicas.forEach(c -> c.proxy().pass()));
      closeAll(pairs.values(), apis.values(), pool);
    }
  }

  /** Closes electors, then the APIs, each side in parallel (each close is bounded by its own timeouts). */
  private static void closeAll(java.util.Collection<ReplicaPair> pairs, java.util.Collection<MockKubeApi> apis,
      ExecutorService pool) {
    pairs.stream().map(p -> CompletableFuture.runAsync(p::close, pool)).toList().forEach(CompletableFuture::join);
    apis.stream().map(a -> CompletableFuture.runAsync(a::close, pool)).toList().forEach(CompletableFuture::join);
  }

  /** The link returns; once the old leader is back in touch, the other replica releases: does the old one lead? */
  private static ElectionResults.Recovery linkReturns(LeaderSampler.Track t, Timings timings) {
    t.old.proxy().pass();
    boolean finished = t.old.finished();
    boolean contact = Waits.until(() -> t.old.finished()
        || (!t.old.leads() && t.old.observedLeader().filter(t.other.identity()::equals).isPresent()),
        timings.reactionBound()) && !t.old.finished();
    finished = finished || t.old.finished();
    long released = System.nanoTime();
    t.other.stopGracefully();
    boolean reLed = Waits.until(t.old::leads, timings.reactionBound());
    return new ElectionResults.Recovery(finished, contact,
        reLed ? Waits.millisSince(released, System.nanoTime()) : Double.NaN);
  }

  private void steady(Timings timings, ElectionResults results, ExecutorService pool) {
    String lease = leaseName("steady", timings, 0);
    Duration window = timings.steadyWindow().compareTo(maxSteadyWindow) > 0 ? maxSteadyWindow : timings.steadyWindow();
    log.info("election: steady-state request counting profile=\"{}\" window={}s", timings.name(), window.toSeconds());
    Map<Implementation, MockKubeApi> apis = startApis();
    Map<Implementation, ReplicaPair> pairs = new EnumMap<>(Implementation.class);
    try {
      Map<Implementation, Contender> leaders = new EnumMap<>(Implementation.class);
      for (Implementation impl : Implementation.values()) {
        pairs.put(impl, ReplicaPair.start(apis.get(impl), impl, lease, timings));
      }
      for (ReplicaPair pair : pairs.values()) {
        Optional<Contender> leader = pair.awaitSettledLeader(timings.leaseDuration().multipliedBy(2).plusSeconds(10));
        if (leader.isEmpty()) {
          results.problems.add(pair.impl.label + " steady state (" + timings.name() + "): no settled leader ("
              + pair.describe() + "); skipped");
          return;
        }
        leaders.put(pair.impl, leader.get());
      }
      // Past start-up: the first acquire, the follower's first reads and the watch's list are not steady state.
      Waits.pause(timings.retryPeriod().multipliedBy(3));
      Map<Implementation, long[][]> before = new EnumMap<>(Implementation.class);
      Map<Implementation, Integer> apiBefore = new EnumMap<>(Implementation.class);
      pairs.forEach((impl, pair) -> {
        before.put(impl, counters(pair.replicas));
        apiBefore.put(impl, apis.get(impl).server().getRequestCount());
      });
      Waits.pause(window);
      for (Implementation impl : Implementation.values()) {
        ReplicaPair pair = pairs.get(impl);
        long[][] after = counters(pair.replicas);
        int apiAfter = apis.get(impl).server().getRequestCount();
        long proxiesTotal = 0;
        for (int i = 0; i < pair.replicas.size(); i++) {
          Contender c = pair.replicas.get(i);
          boolean leader = leaders.get(impl) == c;
          if (c.leads() != leader) {
            results.problems.add(impl.label + " steady state (" + timings.name() + "): leadership changed during the window");
          }
          long requests = after[i][0] - before.get(impl)[i][0];
          proxiesTotal += requests;
          results.steady.add(new ElectionResults.SteadyRun(timings, impl, leader, requests,
              after[i][1] - before.get(impl)[i][1], after[i][2] - before.get(impl)[i][2], window));
        }
        results.crossChecks.add(new ElectionResults.CrossCheck(timings, impl, proxiesTotal, apiAfter - apiBefore.get(impl)));
      }
    } finally {
      closeAll(pairs.values(), apis.values(), pool);
    }
  }

  private static long[][] counters(List<Contender> all) {
    long[][] c = new long[all.size()][];
    for (int i = 0; i < all.size(); i++) {
      FaultProxy p = all.get(i).proxy();
      c[i] = new long[] {p.requestsForwarded(), p.bytesToServer(), p.bytesToClient()};
    }
    return c;
  }

  private static String fmt(double ms) {
    return Double.isNaN(ms) ? "none" : String.format(Locale.ROOT, "%.0f", ms);
  }
}
