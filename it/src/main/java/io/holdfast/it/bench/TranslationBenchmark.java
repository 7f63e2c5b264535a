package io.holdfast.it.bench;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Reasons;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.ir.Ir;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one full config rebuild (validate + lower + translate, including the snapshot's content hash), of a
 * full translation alone, and of re-translating after a small edit, for generated configs of 1k and 10k routes
 * over one upstream per 5 routes (10k routes: 2,000 upstreams). Run it with {@code it/bench-translation.sh}.
 *
 * <p>Full benchmarks translate with a new {@link Translator} each time, so nothing is remembered from an earlier
 * build. {@code incrementalEdit} keeps one translator and alternates between two revisions of the config that
 * differ in one route and one upstream's endpoints ({@link GeneratedConfigs#of}), so each call re-translates an
 * edit against the previous build; {@code incrementalEditSharedIr} does the same with IRs that share their
 * unchanged elements, and {@code incrementalEditFrontEnd} lowers each revision with the incremental front end too.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dlogback.configurationFile=logback-it.xml"})
public class TranslationBenchmark {

  /** Upstreams per route in the generated configs: 10,000 routes over 2,000 upstreams. */
  public static final int ROUTES_PER_UPSTREAM = 5;

  @Param({"1000", "10000"})
  public int routes;

  private final Validator validator = new Validator();
  private final Translator incremental = new Translator();
  private GatewayConfig config;
  private GatewayConfig accepted;
  private final Translator incrementalShared = new Translator();
  private final Ir[] revisions = new Ir[2];
  private final Ir[] sharedRevisions = new Ir[2];
  private int next;
  private int nextShared;
  private final GatewayConfig[] acceptedRevisions = new GatewayConfig[2];
  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd();
  private final Translator endToEnd = new Translator();
  private int nextEndToEnd;

  @Setup(Level.Trial)
  public void setUp() {
    config = config(routes, 0);
    accepted = accepted(validator.validate(config));
    acceptedRevisions[0] = accepted;
    acceptedRevisions[1] = accepted(validator.validate(config(routes, 1)));
    revisions[0] = HoldfastFrontEnd.lowerAccepted(accepted);
    revisions[1] = HoldfastFrontEnd.lowerAccepted(acceptedRevisions[1]);
    endToEnd.translate(frontEnd.lowerIncrementally(acceptedRevisions[1]));
    incremental.translate(revisions[1]);
    sharedRevisions[0] = revisions[0];
    sharedRevisions[1] = new Ir(reuse(revisions[0].listeners(), revisions[1].listeners()),
        reuse(revisions[0].clusters(), revisions[1].clusters()), revisions[1].secrets());
    incrementalShared.translate(sharedRevisions[1]);
  }

  /** {@code fresh} with every element equal to one of {@code previous} replaced by that instance. */
  private static <T> List<T> reuse(List<T> previous, List<T> fresh) {
    Map<T, T> instances = new HashMap<>();
    previous.forEach(element -> instances.put(element, element));
    return fresh.stream().map(element -> instances.getOrDefault(element, element)).toList();
  }

  /** The benchmark config of {@code routes} routes at {@code revision} (0 = base). */
  public static GatewayConfig config(int routes, int revision) {
    return GeneratedConfigs.of(routes, Math.max(2, routes / ROUTES_PER_UPSTREAM), revision);
  }

  /**
   * The accepted config, insisting it is all served: the only warnings allowed are those of the generated
   * redirect and direct-response routes that gRPC clients get as non-forwarding actions (still served).
   */
  static GatewayConfig accepted(ValidationResult result) {
    long rejected = result.statuses().values().stream().filter(s -> !s.isServed()).count();
    long otherProblems = result.statuses().values().stream().flatMap(s -> s.problems().stream())
        .filter(p -> !p.reason().equals(Reasons.GRPC_NON_FORWARDING_ROUTE)).count();
    if (rejected + otherProblems > 0) {
      throw new IllegalStateException("generated config is not clean: rejected=" + rejected
          + " problems=" + otherProblems);
    }
    return result.accepted();
  }

  @Benchmark
  public Translation validateAndTranslate() {
    return new Translator().translate(HoldfastFrontEnd.lowerAccepted(validator.validate(config).accepted()));
  }

  @Benchmark
  public Translation translateOnly() {
    return new Translator().translate(HoldfastFrontEnd.lowerAccepted(accepted));
  }

  @Benchmark
  public Translation incrementalEdit() {
    next ^= 1;
    return incremental.translate(revisions[next]);
  }

  /**
   * As {@link #incrementalEdit}, but the two IRs share their unchanged top-level elements (clusters, client
   * listeners) as the same instances, as a front end that re-lowers only what changed would pass them.
   */
  @Benchmark
  public Translation incrementalEditSharedIr() {
    nextShared ^= 1;
    return incrementalShared.translate(sharedRevisions[nextShared]);
  }

  /**
   * Lowering and translating after the one-route, one-upstream edit, end to end: the incremental front end
   * ({@link HoldfastFrontEnd#lowerIncrementally}) reuses the unchanged IR elements, which the translator then finds
   * by identity.
   */
  @Benchmark
  public Translation incrementalEditFrontEnd() {
    nextEndToEnd ^= 1;
    return endToEnd.translate(frontEnd.lowerIncrementally(acceptedRevisions[nextEndToEnd]));
  }
}
