package io.holdfast.it.bench.election;

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

  public ElectionBench(List<Timings> profiles, int reps) {
    if (reps < 1 || reps > 50) {
      throw new IllegalArgumentException("reps must be 1..50, got " + reps);
    }
    this.profiles = List.copyOf(profiles);
    this.reps = reps;
  }

  /** Runs everything and renders the report section. */
  public String run() {
    ElectionResults results = new ElectionResults(profiles, reps);
    ExecutorService pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "bench-election");
      t.setDaemon(true);
      return t;
    });
    try (MockKubeApi api = MockKubeApi.start()) {
      for (Timings timings : profiles) {
        for (int rep = 1; rep <= reps; rep++) {
          for (Scenario scenario : Scenario.values()) {
            runScenario(api, timings, scenario, rep, results, pool);
          }
        }
        steady(api, timings, results);
      }
    } finally {
      pool.shutdownNow();
    }
    return new ElectionMarkdown(results).render();
  }

  private static String leaseName(String what, Timings timings, int rep) {
    return (what + "-" + timings.leaseDuration().toSeconds() + "s-" + rep).toLowerCase(Locale.ROOT);
  }

  private void runScenario(MockKubeApi api, Timings timings, Scenario scenario, int rep, ElectionResults results,
      ExecutorService pool) {
    String lease = leaseName(scenario.name(), timings, rep);
    log.info("election: scenario={} profile=\"{}\" rep={}/{}", scenario, timings.name(), rep, reps);
    Map<Implementation, ReplicaPair> pairs = new EnumMap<>(Implementation.class);
    try {
      for (Implementation impl : Implementation.values()) {
        pairs.put(impl, ReplicaPair.start(api, impl, lease, timings));
      }
      List<LeaderSampler.Track> tracks = new ArrayList<>();
      for (ReplicaPair pair : pairs.values()) {
        Optional<Contender> leader = pair.awaitSettledLeader(timings.leaseDuration().multipliedBy(2).plusSeconds(10));
        if (leader.isEmpty()) {
          results.problems.add(pair.impl.label + " " + scenario + " rep " + rep + " (" + timings.name()
              + "): no settled single leader before the fault; repetition skipped");
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
            t.takeoverMs(t0), t.dualMs(), recoveries.get(t.impl));
        results.runs.add(run);
        log.info("election: impl={} scenario={} rep={} stoppedMs={} takeoverMs={} dualMs={} recovery={}", t.impl,
            scenario, rep, fmt(run.stoppedMs()), fmt(run.takeoverMs()), fmt(run.dualMs()), run.recovery());
      }
    } finally {
      pairs.values().forEach(p -> p.replicas.forEach(c -> c.proxy().pass()));
      pairs.values().forEach(ReplicaPair::close);
    }
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

  private void steady(MockKubeApi api, Timings timings, ElectionResults results) {
    String lease = leaseName("steady", timings, 0);
    Duration window = timings.steadyWindow();
    log.info("election: steady-state request counting profile=\"{}\" window={}s", timings.name(), window.toSeconds());
    Map<Implementation, ReplicaPair> pairs = new EnumMap<>(Implementation.class);
    try {
      Map<Implementation, Contender> leaders = new EnumMap<>(Implementation.class);
      for (Implementation impl : Implementation.values()) {
        ReplicaPair pair = ReplicaPair.start(api, impl, lease, timings);
        pairs.put(impl, pair);
      }
      for (ReplicaPair pair : pairs.values()) {
        Optional<Contender> leader = pair.awaitSettledLeader(timings.leaseDuration().multipliedBy(2).plusSeconds(10));
        if (leader.isEmpty()) {
          results.problems.add(pair.impl.label + " steady state (" + timings.name() + "): no settled leader; skipped");
          return;
        }
        leaders.put(pair.impl, leader.get());
      }
      // Past start-up: the first acquire, the follower's first reads and the watch's list are not steady state.
      Waits.pause(timings.retryPeriod().multipliedBy(3));
      List<Contender> all = pairs.values().stream().flatMap(p -> p.replicas.stream()).toList();
      long[][] before = counters(all);
      int apiBefore = api.server().getRequestCount();
      Waits.pause(window);
      long[][] after = counters(all);
      int apiAfter = api.server().getRequestCount();
      long proxiesTotal = 0;
      for (int i = 0; i < all.size(); i++) {
        Contender c = all.get(i);
        Implementation impl = c.identity().startsWith(Implementation.HOLDFAST.prefix) ? Implementation.HOLDFAST
            : Implementation.FABRIC8;
        boolean leader = leaders.get(impl) == c;
        if (c.leads() != leader) {
          results.problems.add(impl.label + " steady state (" + timings.name() + "): leadership changed during the window");
        }
        long requests = after[i][0] - before[i][0];
        proxiesTotal += requests;
        results.steady.add(new ElectionResults.SteadyRun(timings, impl, leader, requests, after[i][1] - before[i][1],
            after[i][2] - before[i][2], window));
      }
      results.crossChecks.add(new ElectionResults.CrossCheck(timings, proxiesTotal, apiAfter - apiBefore));
    } finally {
      pairs.values().forEach(ReplicaPair::close);
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
