package io.holdfast.xds.envoycheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** Assertions on a {@link Probe}'s single field {@code v}. */
final class RuleAssertions {

  private RuleAssertions() {
  }

  static void accepts(Probe probe, Object... values) {
    for (Object value : values) {
      assertThat(probe.check(value)).as("violations for %s", Findings.show(value)).isEmpty();
    }
  }

  /** {@code value} breaks exactly {@code rules}, each reported on the field itself. */
  static void rejects(Probe probe, Object value, String... rules) {
    List<Violation> violations = probe.check(value);
    assertThat(violations).as("violations for %s", Findings.show(value))
        .extracting(Violation::rule).containsExactly(rules);
    assertThat(violations).extracting(Violation::path).containsOnly("v");
  }
}
