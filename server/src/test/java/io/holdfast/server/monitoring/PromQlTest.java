package io.holdfast.server.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The checker the monitoring assets are held to: it accepts PromQL and names the metrics, and rejects the rest. */
class PromQlTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "sum by (job) (holdfast_election_leader) == 0|holdfast_election_leader",
    "sum(rate(a_total{x=\"1\",y=~\"b.*\"}[5m])) by (x) / ignoring (y) group_left (z) b|a_total,b",
    "max_over_time(a[1h:5m] offset -1d) > bool 2 * 3e2|a",
    "histogram_quantile(0.99, sum by (le) (rate(h_bucket[$__rate_interval])))|h_bucket",
    "{__name__=\"a\", job!=\"x\"} unless on (job) -b or vector(1)|a,b",
    "count(sum by (node) (p) > 0) and absent(q @ start())|p,q",
  })
  void validExpressionsParseAndNameTheirMetrics(String expr, String names) {
    assertThat(PromQl.metricNames(expr)).containsExactlyInAnyOrder(names.split(","));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "sum(a",                  // unbalanced
    "a)",                     // trailing
    "rate(a[5])",             // duration without unit
    "rat(a[5m])",             // unknown function
    "a{x=1}",                 // unquoted label value
    "a{x==\"1\"}",            // bad matcher
    "sum by job (a)",         // by needs a list
    "a + ",                   // missing operand
    "a[5m",                   // unclosed range
    "a # b\n+",               // comment, then dangling operator
    "\"unterminated",
    "a ! b",
  })
  void invalidExpressionsAreRejected(String expr) {
    assertThatThrownBy(() -> PromQl.metricNames(expr)).isInstanceOf(IllegalArgumentException.class);
  }
}
