package io.holdfast.it.bench;

import io.holdfast.api.GatewayConfig;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.ir.Ir;
import io.holdfast.xds.translate.Translator;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * The {@link TranslationBenchmark} operations for 10k routes, measured in CPU time of the calling thread instead
 * of wall-clock time: on a machine shared with other work, a thread waiting for a core inflates wall-clock figures
 * many times over but not its own CPU time. Excludes the JIT compiler's and the garbage collector's threads (their
 * work is not this thread's), so it is a lower bound of the cost on an idle machine. Prints a Markdown table;
 * {@code it/bench-translation.sh} writes it next to the JMH results.
 */
public final class TranslationCpuTime {

  private static final int WARM_UP = 30;
  private static final int MEASURED = 20;

  private TranslationCpuTime() {
  }

  public static void main(String[] args) {
    int routes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    double loadBefore = Machine.loadAverage();
    Validator validator = new Validator();
    var config = TranslationBenchmark.config(routes, 0);
    var accepted = TranslationBenchmark.accepted(validator.validate(config));
    Ir[] revisions = {HoldfastFrontEnd.lowerAccepted(accepted),
        HoldfastFrontEnd.lowerAccepted(TranslationBenchmark.accepted(
            validator.validate(TranslationBenchmark.config(routes, 1))))};
    Translator incremental = new Translator();
    // Two revisions lowered one after the other by one front end: the second shares the first's unchanged elements.
    GatewayConfig[] acceptedRevisions = {accepted,
        TranslationBenchmark.accepted(validator.validate(TranslationBenchmark.config(routes, 1)))};
    HoldfastFrontEnd sharing = new HoldfastFrontEnd();
    Ir[] sharedRevisions = {sharing.lowerIncrementally(acceptedRevisions[0]),
        sharing.lowerIncrementally(acceptedRevisions[1])};
    Translator incrementalShared = new Translator();
    HoldfastFrontEnd frontEnd = new HoldfastFrontEnd();
    Translator endToEnd = new Translator();
    List<String> rows = new ArrayList<>();
    rows.add(row("validate + lower + translate (fresh translator)", i ->
        new Translator().translate(HoldfastFrontEnd.lowerAccepted(validator.validate(config).accepted()))));
    rows.add(row("lower + translate (fresh translator)", i ->
        new Translator().translate(HoldfastFrontEnd.lowerAccepted(accepted))));
    rows.add(row("translate only (fresh translator)", i -> new Translator().translate(revisions[0])));
    rows.add(row("incremental re-translation of an edit", i -> incremental.translate(revisions[i & 1])));
    rows.add(row("incremental re-translation of an edit, IRs from the incremental front end",
        i -> incrementalShared.translate(sharedRevisions[i & 1])));
    rows.add(row("lower + translate after a one-route edit (incremental front end + translator)",
        i -> endToEnd.translate(frontEnd.lowerIncrementally(acceptedRevisions[i & 1]))));
    System.out.printf(Locale.ROOT, "CPU time of the benchmark thread per operation, %d routes / %d upstreams "
        + "(%d warm-up, %d measured operations; mean, min), load average %.2f before / %.2f after:%n%n", routes,
        routes / TranslationBenchmark.ROUTES_PER_UPSTREAM, WARM_UP, MEASURED, loadBefore, Machine.loadAverage());
    System.out.println("| Operation | CPU ms / op (mean) | min |");
    System.out.println("|---|---|---|");
    rows.forEach(System.out::println);
  }

  private static String row(String name, IntConsumer operation) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < WARM_UP; i++) {
      operation.accept(i);
    }
    long total = 0;
    long min = Long.MAX_VALUE;
    for (int i = 0; i < MEASURED; i++) {
      long start = threads.getCurrentThreadCpuTime();
      operation.accept(WARM_UP + i);
      long took = threads.getCurrentThreadCpuTime() - start;
      total += took;
      min = Math.min(min, took);
    }
    return String.format(Locale.ROOT, "| %s | %.2f | %.2f |", name, total / 1e6 / MEASURED, min / 1e6);
  }
}
