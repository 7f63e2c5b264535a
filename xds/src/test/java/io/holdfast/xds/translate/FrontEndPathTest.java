package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.ir.IrBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline of the IR (front end, builder, translation of the IR) gives what validating and translating the
 * accepted config gives, on every golden case: same snapshot version and resources, same origins, same statuses.
 */
class FrontEndPathTest {

  private static final Path ROOT = Path.of("src/test/resources/golden");

  static List<String> cases() throws IOException {
    return GoldenTest.cases().toList();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void frontEndAndBuilderGiveTheGoldenTranslation(String name) throws IOException {
    Path dir = ROOT.resolve(name);
    GatewayConfig config = new ConfigLoader().load(
        List.of(new ConfigLoader.Source("input.yaml", Files.readString(dir.resolve("input.yaml")))),
        GoldenTest.endpoints(dir.resolve("endpoints.yaml"))).config();

    ValidationResult legacy = new Validator().validate(config);
    Translation expected = new Translator().translate(HoldfastFrontEnd.lowerAccepted(legacy.accepted()));

    IrBuilder builder = new IrBuilder();
    new HoldfastFrontEnd().lower(config, builder);
    IrBuilder.Result built = builder.build();
    Translation actual = new Translator().translate(built.ir());

    assertThat(actual.snapshot().version()).isEqualTo(expected.snapshot().version());
    assertThat(actual.snapshot().resources()).isEqualTo(expected.snapshot().resources());
    assertThat(actual.origins()).isEqualTo(expected.origins());
    Map<ResourceKey, ResourceStatus> views = new TreeMap<>();
    built.statuses().forEach((key, status) -> views.put(key, ResourceStatus.of(status)));
    assertThat(views).isEqualTo(legacy.statuses());
  }
}
