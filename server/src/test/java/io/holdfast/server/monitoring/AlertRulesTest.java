package io.holdfast.server.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * deploy/monitoring/holdfast-alerts.yaml is a PrometheusRule whose rules Prometheus' own {@code promtool} accepts
 * ({@code check rules}) and whose behaviour its unit tests pin ({@code test rules} with
 * src/test/resources/promtool/holdfast-alerts-test.yaml): rollouts do not page, a lost proxy keeps paging, NACKs
 * page while a proxy holds old config, an API outage is no critical leader alert.
 */
class AlertRulesTest {
  private static final String TESTS = "holdfast-alerts-test.yaml";

  @TempDir
  Path dir;

  @Test
  void theRuleFileIsAPrometheusRuleKubectlCanApply() throws Exception {
    JsonNode rule = MonitoringFiles.prometheusRule();
    assertThat(rule.get("apiVersion").asString()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(rule.get("kind").asString()).isEqualTo("PrometheusRule");
    assertThat(rule.get("metadata").get("name").asString()).isEqualTo("holdfast");
    assertThat(rule.get("metadata").get("namespace").asString()).isEqualTo("holdfast-system");
  }

  @Test
  void promtoolAcceptsTheRules() throws Exception {
    Files.writeString(dir.resolve("holdfast-rules.yaml"), MonitoringFiles.ruleFile());
    Promtool.Run run = Promtool.run(dir, "check", "rules", "holdfast-rules.yaml");
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("SUCCESS");
  }

  @Test
  void promtoolUnitTestsOfTheRulesPass() throws Exception {
    Files.writeString(dir.resolve("holdfast-rules.yaml"), MonitoringFiles.ruleFile());
    copyTests();
    Promtool.Run run = Promtool.run(dir, "test", "rules", TESTS);
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("SUCCESS").doesNotContain("FAILED");
  }

  /** The unit tests are not vacuous: a rule that does nothing fails them. */
  @Test
  void theUnitTestsCatchARuleThatNeverFires() throws Exception {
    String neutered = MonitoringFiles.ruleFile().replace("holdfast_xds_proxies_nacking) > 0",
        "holdfast_xds_proxies_nacking) > 1e9");
    assertThat(neutered).isNotEqualTo(MonitoringFiles.ruleFile());
    Files.writeString(dir.resolve("holdfast-rules.yaml"), neutered);
    copyTests();
    Promtool.Run run = Promtool.run(dir, "test", "rules", TESTS);
    assertThat(run.exitCode()).as(run.output()).isNotZero();
    assertThat(run.output()).contains("FAILED").contains("HoldfastXdsNacks");
  }

  @Test
  void everyAlertHasATestCaseWhereItFires() throws Exception {
    Set<String> alerts = new TreeSet<>();
    for (JsonNode group : MonitoringFiles.prometheusRule().get("spec").get("groups")) {
      for (JsonNode rule : group.get("rules")) {
        if (rule.has("alert")) {
          assertThat(alerts.add(rule.get("alert").asString())).as("unique: " + rule.get("alert")).isTrue();
          assertThat(rule.get("labels").get("severity").asString()).isIn("critical", "warning");
          assertThat(rule.get("annotations").get("summary").asString()).isNotBlank();
        }
      }
    }
    Set<String> firing = new TreeSet<>();
    try (InputStream in = getClass().getResourceAsStream("/promtool/" + TESTS)) {
      for (JsonNode test : YAMLMapper.builder().build().readTree(in).get("tests")) {
        for (JsonNode check : test.get("alert_rule_test")) {
          if (!check.get("exp_alerts").isEmpty()) {
            firing.add(check.get("alertname").asString());
          }
        }
      }
    }
    assertThat(alerts).contains("HoldfastProxyDisconnected", "HoldfastXdsNacks", "HoldfastNoLeader",
        "HoldfastTargetDown", "HoldfastSnapshotStoreFailing", "HoldfastWebhookFailing");
    assertThat(firing).as("alerts with a firing case in " + TESTS).isEqualTo(alerts);
  }

  private void copyTests() throws Exception {
    try (InputStream in = getClass().getResourceAsStream("/promtool/" + TESTS)) {
      Files.copy(in, dir.resolve(TESTS));
    }
  }
}
