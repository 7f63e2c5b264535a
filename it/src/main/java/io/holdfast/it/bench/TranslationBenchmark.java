package io.holdfast.it.bench;

import io.holdfast.api.GatewayConfig;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
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
 * Cost of one full config rebuild (validate + translate, including the snapshot's content hash) and of
 * translation alone, for generated configs of 1k and 10k routes. Run it with {@code it/bench-translation.sh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class TranslationBenchmark {

  @Param({"1000", "10000"})
  public int routes;

  private final Validator validator = new Validator();
  private final Translator translator = new Translator();
  private GatewayConfig config;
  private GatewayConfig accepted;

  @Setup(Level.Trial)
  public void setUp() {
    config = GeneratedConfigs.withRoutes(routes);
    ValidationResult result = validator.validate(config);
    long rejected = result.statuses().values().stream().filter(s -> !s.isServed()).count();
    long warned = result.statuses().values().stream().filter(s -> s.state() == ResourceStatus.State.WARNING).count();
    if (rejected + warned > 0) {
      throw new IllegalStateException("generated config is not clean: rejected=" + rejected + " warned=" + warned);
    }
    accepted = result.accepted();
  }

  @Benchmark
  public Translation validateAndTranslate() {
    return translator.translate(HoldfastFrontEnd.lowerAccepted(validator.validate(config).accepted()));
  }

  @Benchmark
  public Translation translateOnly() {
    return translator.translate(HoldfastFrontEnd.lowerAccepted(accepted));
  }
}
