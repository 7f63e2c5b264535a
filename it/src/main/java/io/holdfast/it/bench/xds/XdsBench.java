package io.holdfast.it.bench.xds;

import io.holdfast.it.bench.Machine;
import io.holdfast.it.bench.Waits;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fan-out and NACK behaviour of Holdfast's XdsServer + XdsCache against java-control-plane's SimpleCache, under
 * the same load from a separate load-client JVM (lightweight SotW ADS streams), one control plane at a time.
 */
public final class XdsBench {
  private static final Logger log = LoggerFactory.getLogger(XdsBench.class);
  private static final int ROUTES = 100;
  private static final int UPSTREAMS = 100;
  static final int STREAMS_PER_CONNECTION = 50;
  /** A run ends after this many changes that did not reach every stream (each waits 30 s). */
  private static final int MAX_TIMEOUTS = 3;

  private static final List<String> PROTOCOLS = List.of("SotW", "delta");

  private final List<Integer> streamCounts;
  private final int repetitions;
  private final int changes;
  private final int warmups;
  private final int nackStreams;
  private final Duration nackWindow;
  private final Path logFile;

  private XdsBench(List<Integer> streamCounts, int repetitions, int changes, int warmups, int nackStreams,
      Duration nackWindow, Path resultsDir) {
    this.streamCounts = List.copyOf(streamCounts);
    this.repetitions = repetitions;
    this.changes = changes;
    this.warmups = warmups;
    this.nackStreams = nackStreams;
    this.nackWindow = nackWindow;
    this.logFile = resultsDir.resolve("load-client.log");
  }

  /**
   * 1,000 and 10,000 streams of each protocol, {@code reps} repetitions (default 2) of 3 unmeasured warm-up
   * changes then 50 measured ones, Holdfast and SimpleCache interleaved; 100 NACKing streams, 10 s windows.
   * Load-client stderr goes to resultsDir.
   */
  public static XdsBench full(Path resultsDir, int reps) {
    return new XdsBench(List.of(1000, 10_000), reps > 0 ? reps : 2, 50, 3, 100, Duration.ofSeconds(10), resultsDir);
  }

  /** 1,000 streams of each protocol, one repetition of 3 warm-up and 10 measured changes; 2 s NACK windows. */
  public static XdsBench quick(Path resultsDir, int reps) {
    return new XdsBench(List.of(1000), reps > 0 ? reps : 1, 10, 3, 100, Duration.ofSeconds(2), resultsDir);
  }

  /** The same with other stream counts (the xDS fan-out runs only); {@code streams} empty keeps them. */
  public XdsBench withStreams(List<Integer> streams) {
    return streams.isEmpty() ? this : new XdsBench(streams, repetitions, changes, warmups, nackStreams, nackWindow,
        logFile.getParent());
  }

  /** The same with {@code measured} changes per run; 0 keeps the default. */
  public XdsBench withChanges(int measured) {
    return measured <= 0 ? this : new XdsBench(streamCounts, repetitions, measured, warmups, nackStreams, nackWindow,
        logFile.getParent());
  }

  public String describe() {
    return streamCounts + " streams, " + PROTOCOLS + ", " + repetitions + " repetition(s) of " + warmups
        + " warm-up + " + changes + " measured changes each, " + nackStreams + " NACKing streams over "
        + nackWindow.toSeconds() + " s windows";
  }

  private enum Kind {
    HOLDFAST(HoldfastTarget::new), SIMPLE_CACHE(SimpleCacheTarget::new);

    final Function<XdsSnapshot, XdsTarget> start;

    Kind(Function<XdsSnapshot, XdsTarget> start) {
      this.start = start;
    }
  }

  public String run() {
    try {
      Files.createDirectories(logFile.getParent());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    BenchSnapshots snapshots = new BenchSnapshots(ROUTES, UPSTREAMS);
    XdsResults results = new XdsResults();
    XdsSnapshot base = snapshots.revision(0);
    results.snapshotDescription = snapshots.config() + " -> " + BenchSnapshots.describe(base);
    Set<String> changed = BenchSnapshots.changedTypes(base, snapshots.revision(1));
    results.changedTypes = changed.size();
    results.changeDescription = "each change alters " + changed.stream()
        .map(t -> t.substring(t.lastIndexOf('.') + 1)).toList() + " (endpoints of two upstreams, one route)";
    for (int r = 0; r <= warmups + changes; r++) {
      snapshots.revision(r); // translate up front, outside any timing
    }
    for (int streams : streamCounts) {
      // Repetition outermost, then protocol, then the two control planes: each repetition covers every
      // configuration, and both control planes see the same machine conditions.
      for (int rep = 1; rep <= repetitions; rep++) {
        for (String protocol : PROTOCOLS) {
          for (Kind kind : Kind.values()) {
            try {
              results.fanOut.add(fanOut(kind, protocol, rep, streams, snapshots));
            } catch (RuntimeException e) {
              log.warn("xds: fan-out kind={} protocol={} streams={} failed", kind, protocol, streams, e);
              results.problems.add(kind + " " + protocol + " fan-out with " + streams + " streams (repetition "
                  + rep + ") failed: " + e.getMessage());
            }
          }
        }
      }
    }
    for (Kind kind : Kind.values()) {
      try {
        results.nack.add(nack(kind, snapshots));
      } catch (RuntimeException e) {
        log.warn("xds: NACK run kind={} failed", kind, e);
        results.problems.add(kind + " NACK run failed: " + e.getMessage());
      }
    }
    return new XdsMarkdown(results, changes, warmups, repetitions).render();
  }

  private XdsResults.FanOutRun fanOut(Kind kind, String protocol, int rep, int streams, BenchSnapshots snapshots) {
    int connections = Math.max(1, (streams + STREAMS_PER_CONNECTION - 1) / STREAMS_PER_CONNECTION);
    try (XdsTarget target = kind.start.apply(snapshots.revision(0))) {
      log.info("xds: fan-out target=\"{}\" protocol={} rep={} streams={} connections={}", target.label(), protocol,
          rep, streams, connections);
      long heapBefore = usedHeapAfterGc();
      long opened = System.nanoTime();
      try (ChildLoad child = ChildLoad.start(target.port(), streams, connections, false, protocol.equals("delta"),
          logFile)) {
        child.await(Duration.ofSeconds(300), "READY");
        double openMs = Waits.millisSince(opened, System.nanoTime());
        child.checkSharedClock();
        // Let the last ACKs land: the heap is then what idle streams cost.
        Waits.pause(Duration.ofSeconds(1));
        double heapPerStream = (usedHeapAfterGc() - heapBefore) / (double) streams;
        List<Double> last = new ArrayList<>();
        List<Double> median = new ArrayList<>();
        int timeouts = 0;
        for (int c = 1; c <= warmups; c++) {
          if (!change(target, child, snapshots, c, streams, new ArrayList<>(), new ArrayList<>())) {
            timeouts++;
          }
        }
        long cpuBefore = Machine.processCpuNanos();
        ChildLoad.Count before = child.count();
        for (int c = warmups + 1; c <= warmups + changes; c++) {
          if (!change(target, child, snapshots, c, streams, last, median)) {
            timeouts++;
          }
          if (timeouts >= MAX_TIMEOUTS) {
            log.warn("xds: {} changes timed out, ending this run after {} changes", timeouts, c - warmups);
            break;
          }
        }
        double serverCpuMs = (Machine.processCpuNanos() - cpuBefore) / 1e6;
        ChildLoad.Count count = child.count();
        String mismatch = child.verify();
        XdsResults.FanOutRun run = new XdsResults.FanOutRun(target.label(), protocol, rep, streams, connections, last,
            median, timeouts, openMs, heapPerStream, serverCpuMs, (count.cpuNanos() - before.cpuNanos()) / 1e6,
            count.errors(), count.bytes() - before.bytes(), mismatch);
        log.info("xds: fan-out done target=\"{}\" protocol={} streams={} last={} timeouts={} errors={} cpu/change/1k={}"
            + " bytes/change/stream={} heap/stream={} mismatch={}", target.label(), protocol, streams, last, timeouts,
            count.errors(), run.serverCpuPerChangePer1000(), run.bytesPerChangePerStream(), heapPerStream, mismatch);
        return run;
      }
    }
  }

  /** Publishes revision {@code c} and records its push times; false if some stream missed it within 30 s. */
  private static boolean change(XdsTarget target, ChildLoad child, BenchSnapshots snapshots, int c, int streams,
      List<Double> last, List<Double> median) {
    XdsSnapshot next = snapshots.revision(c);
    Set<String> types = BenchSnapshots.changedTypes(snapshots.revision(c - 1), next);
    child.expect(target.versions(next, types), Duration.ofSeconds(30));
    long t0 = System.nanoTime();
    target.publish(next);
    String[] w = child.await(Duration.ofSeconds(40), "DONE", "TIMEOUT").split(" ");
    // Let the ACKs of this change land before the next one, as changes seconds apart would.
    Waits.pause(Duration.ofMillis(200 + streams / 50));
    if (w[0].equals("DONE")) {
      last.add(Waits.millisSince(t0, Long.parseLong(w[1])));
      median.add(Waits.millisSince(t0, Long.parseLong(w[2])));
      return true;
    }
    log.warn("xds: change {} reached only {} of {} streams within 30 s", c, w[1], streams);
    return false;
  }

  private XdsResults.NackRun nack(Kind kind, BenchSnapshots snapshots) {
    try (XdsTarget target = kind.start.apply(snapshots.revision(0))) {
      log.info("xds: NACK run target=\"{}\" streams={}", target.label(), nackStreams);
      int connections = Math.max(1, nackStreams / STREAMS_PER_CONNECTION);
      try (ChildLoad child = ChildLoad.start(target.port(), nackStreams, connections, true, false, logFile)) {
        child.await(Duration.ofSeconds(120), "READY");
        Waits.pause(Duration.ofSeconds(1));
        ChildLoad.Count c0 = child.count();
        long cpu0 = Machine.processCpuNanos();
        Waits.pause(nackWindow);
        ChildLoad.Count c1 = child.count();
        long cpu1 = Machine.processCpuNanos();
        target.publish(snapshots.revision(1));
        Waits.pause(nackWindow);
        ChildLoad.Count c2 = child.count();
        long cpu2 = Machine.processCpuNanos();
        XdsResults.NackRun run = new XdsResults.NackRun(target.label(), nackStreams, nackWindow,
            c1.responses() - c0.responses(), c2.responses() - c1.responses(), (cpu1 - cpu0) / 1e6,
            (cpu2 - cpu1) / 1e6, c2.errors());
        log.info("xds: NACK run done target=\"{}\" quiet={} afterChange={}", target.label(), run.quietResponses(),
            run.afterChangeResponses());
        return run;
      }
    }
  }

  /** Heap in use after full collections (System.gc() is a full GC with the JVM's default collector). */
  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
