package io.holdfast.it.bench;

import io.holdfast.it.bench.election.ElectionBench;
import io.holdfast.it.bench.election.Timings;
import io.holdfast.it.bench.startup.StartupBench;
import io.holdfast.it.bench.xds.XdsBench;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the side-by-side benchmarks and writes docs/BENCHMARKS.md. Started by {@code it/bench.sh}:
 * {@code BenchMain [election|xds|startup|all|report] [--quick] [--reps N] [--streams N,N] [--changes N] [--root DIR]}.
 * Never part of {@code mvn test}.
 */
public final class BenchMain {
  private static final Logger log = LoggerFactory.getLogger(BenchMain.class);
  /** Held so the level sticks: fabric8's mock server logs every request through java.util.logging. */
  private static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");
  /** Held for the same reason: grpc-netty warns with a stack trace for every stream a load client closes mid-write. */
  private static final java.util.logging.Logger GRPC_NETTY_LOG =
      java.util.logging.Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler");

  private BenchMain() {
  }

  public static void main(String[] args) {
    Options o = Options.parse(args);
    MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
    GRPC_NETTY_LOG.setLevel(java.util.logging.Level.SEVERE);
    // A quick run is a sanity check: its figures (few repetitions) go to their own document and never replace the
    // committed ones.
    Path results = o.root().resolve(o.quick() ? "it/target/bench-results-quick" : "it/target/bench-results");
    Path document = o.root().resolve(o.quick() ? "it/target/BENCHMARKS-quick.md" : "docs/BENCHMARKS.md");
    if (o.election()) {
      List<Timings> profiles = o.quick() ? List.of(Timings.FAST) : List.of(Timings.FAST, Timings.DEFAULT);
      int reps = o.reps() > 0 ? o.reps() : o.quick() ? 1 : 5;
      measure("election", Report.ELECTION, o, reps + " repetitions, profiles "
          + profiles.stream().map(Timings::name).toList(), () -> new ElectionBench(profiles, reps, o.quick() ? Duration.ofSeconds(10) : Duration.ofHours(1)).run()).save(results);
    }
    if (o.xds()) {
      XdsBench bench = (o.quick() ? XdsBench.quick(results, o.reps()) : XdsBench.full(results, o.reps()))
          .withStreams(o.streams()).withChanges(o.changes());
      measure("xds", Report.XDS, o, bench.describe(),
          bench::run).save(results);
    }
    if (o.startup()) {
      StartupBench bench = new StartupBench(o.root(), results, o.reps() > 0 ? o.reps() : o.quick() ? 1 : 7);
      measure("startup", Report.STARTUP, o, bench.describe(), bench::run).save(results);
    }
    Report.write(o.root(), results, document, o.command());
    log.info("bench: wrote {}", document);
    // Non-daemon threads of the libraries under test must not keep the JVM alive after the report is written.
    System.exit(0);
  }

  private static Section measure(String name, String title, Options o, String mode,
      java.util.function.Supplier<String> body) {
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    log.info("bench: {} starting ({})", name, mode);
    String text = body.get();
    Duration took = Duration.between(started, Instant.now());
    log.info("bench: {} done in {} s", name, took.toSeconds());
    return Section.measured(name, title, o.command(), (o.quick() ? "quick: " : "full: ") + mode, started, took,
        loadBefore, Machine.loadAverage(), text);
  }

  /** Command-line options. */
  record Options(boolean election, boolean xds, boolean startup, boolean quick, int reps, List<Integer> streams,
      int changes, Path root,
      String command) {
    static Options parse(String[] args) {
      String what = "all";
      boolean quick = false;
      int reps = 0;
      List<Integer> streams = List.of();
      int changes = 0;
      Path root = Path.of(".");
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "election", "xds", "startup", "all", "report" -> what = args[i];
          case "--quick" -> quick = true;
          case "--reps" -> reps = Integer.parseInt(args[++i]);
          case "--changes" -> changes = Integer.parseInt(args[++i]);
          case "--streams" -> streams = java.util.Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
          case "--root" -> root = Path.of(args[++i]);
          default -> throw new IllegalArgumentException("unknown argument '" + args[i]
              + "'; usage: BenchMain [election|xds|startup|all|report] [--quick] [--reps N] [--streams N,N] [--changes N]"
              + " [--root DIR]");
        }
      }
      String command = System.getProperty("bench.command", "BenchMain " + String.join(" ", args));
      boolean all = what.equals("all");
      return new Options(all || what.equals("election"), all || what.equals("xds"), all || what.equals("startup"),
          quick, reps, streams, changes, root.toAbsolutePath().normalize(), command);
    }
  }
}
