package io.holdfast.server.validate;

import static io.holdfast.server.validate.GatewayApiProblemsTestCases.BASE;
import static io.holdfast.server.validate.GatewayApiProblemsTestCases.GOOD;
import static io.holdfast.server.validate.GatewayApiProblemsTestCases.gatewayKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Finding;
import io.holdfast.server.source.ConfigPaths;
import io.holdfast.server.validate.GatewayApiProblemsTestCases.Case;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way a Gateway API object ends fully rejected, or served with less than it asked for, through the whole of
 * {@code holdfast validate} (loader, front end, IR builder, report): the object gets its named reason at its
 * field in the text and JSON reports, and an unrelated route beside it stays accepted. (Before, a fully
 * rejected object crashed the build: "state REJECTED with 0 problems"; the partial cases said ACCEPTED.)
 */
class GatewayApiProblemsTest {

  @TempDir
  Path dir;

  static Stream<Case> cases() {
    return GatewayApiProblemsTestCases.cases();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eachProblemIsNamedAtItsFieldAndTheRestIsServed(Case c) throws IOException {
    Files.writeString(dir.resolve("base.yaml"), BASE);
    Files.writeString(dir.resolve("bad.yaml"), c.yaml());

    ValidationReport report = new ConfigValidation().validate(List.of(ConfigPaths.readDirectory(dir,
        Clock.systemUTC())));

    ValidationReport.ResourceReport bad = report.resources().stream().filter(r -> r.key().equals(c.key()))
        .findFirst().orElseThrow(() -> new AssertionError(c.key() + " is not reported: " + report.text()));
    assertThat(bad.state()).as(report.text()).isEqualTo(c.state());
    Finding.Severity severity = c.state() == ResourceStatus.State.REJECTED ? Finding.Severity.ERROR
        : Finding.Severity.WARNING;
    assertThat(bad.problems()).as(report.text())
        .anySatisfy(p -> {
          assertThat(p.field()).isEqualTo(c.field());
          assertThat(p.reason()).isEqualTo(c.reason());
          assertThat(p.severity()).isEqualTo(severity);
        });
    assertThat(report.text()).contains(c.reason() + ": " + c.field() + ": ");
    assertThat(report.json().toString()).contains(c.reason());
    assertThat(report.resources()).filteredOn(r -> r.key().equals(GOOD)).singleElement()
        .satisfies(r -> assertThat(r.state()).isEqualTo(ResourceStatus.State.ACCEPTED));
    assertThat(report.resources()).filteredOn(r -> r.key().equals(gatewayKey("edge"))).singleElement()
        .satisfies(r -> assertThat(r.state()).as(report.text()).isEqualTo(ResourceStatus.State.ACCEPTED));
  }
}
