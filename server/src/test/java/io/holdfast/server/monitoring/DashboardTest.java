package io.holdfast.server.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * deploy/monitoring/holdfast-dashboard.json picks one install (namespace and job variables, and every query
 * filtered by both, so two installs never add up), shows one unit per panel (seconds, rates and counts never share
 * an axis), and every query parses with promtool.
 */
class DashboardTest {
  private static final String NAMESPACE_FILTER = "namespace=~\"$namespace\"";
  private static final String JOB_FILTER = "job=~\"$job\"";
  private static final Pattern SELECTOR = Pattern.compile(
      "\\b((?:holdfast|jvm|process)_[A-Za-z0-9_]+)\\b(\\{[^}]*\\})?");

  @TempDir
  Path dir;

  /** A panel with queries, as the tests read it. */
  record Panel(String title, String unit, List<String> exprs, JsonNode overrides) {
  }

  /** Every panel with queries, rows' nested panels included. */
  static List<Panel> panels(JsonNode dashboard) {
    List<Panel> out = new ArrayList<>();
    collect(dashboard.get("panels"), out);
    return out;
  }

  private static void collect(JsonNode panels, List<Panel> out) {
    for (JsonNode panel : panels) {
      if (panel.has("panels")) {
        collect(panel.get("panels"), out);
      }
      if (panel.has("targets")) {
        List<String> exprs = new ArrayList<>();
        panel.get("targets").forEach(t -> exprs.add(t.get("expr").asString()));
        JsonNode defaults = panel.path("fieldConfig").path("defaults");
        out.add(new Panel(panel.get("title").asString(), defaults.path("unit").asString(""), exprs,
            panel.path("fieldConfig").path("overrides")));
      }
    }
  }

  @Test
  void theNamespaceAndJobVariablesExist() throws Exception {
    Map<String, JsonNode> variables = new TreeMap<>();
    MonitoringFiles.dashboard().get("templating").get("list").forEach(v -> variables.put(v.get("name").asString(), v));
    assertThat(variables).containsKeys("datasource", "namespace", "job");
    assertThat(variables.get("namespace").get("type").asString()).isEqualTo("query");
    assertThat(variables.get("job").get("type").asString()).isEqualTo("query");
    // The job list follows the namespace picked.
    assertThat(variables.get("job").get("definition").asString()).contains(NAMESPACE_FILTER);
  }

  @Test
  void everySeriesEveryQueryReadsIsFilteredByNamespaceAndJob() throws Exception {
    List<String> unfiltered = new ArrayList<>();
    int selectors = 0;
    for (Panel panel : panels(MonitoringFiles.dashboard())) {
      for (String expr : panel.exprs()) {
        Matcher m = SELECTOR.matcher(expr);
        while (m.find()) {
          selectors++;
          String matchers = m.group(2) == null ? "" : m.group(2);
          if (!matchers.contains(NAMESPACE_FILTER) || !matchers.contains(JOB_FILTER)) {
            unfiltered.add(panel.title() + ": " + m.group());
          }
        }
      }
    }
    assertThat(selectors).isGreaterThan(20);
    assertThat(unfiltered).isEmpty();
  }

  @Test
  void everyPanelHasOneUnitThatFitsItsQueries() throws Exception {
    for (Panel panel : panels(MonitoringFiles.dashboard())) {
      assertThat(panel.unit()).as(panel.title()).isNotBlank();
      assertThat(panel.overrides().toString()).as(panel.title() + ": no override changes the unit")
          .doesNotContain("\"unit\"");
      for (String expr : panel.exprs()) {
        switch (panel.unit()) {
          case "ops", "reqps" -> assertThat(expr).as(panel.title() + " (a rate)").contains("rate(");
          case "short" -> assertThat(expr).as(panel.title() + " (a count)").doesNotContain("rate(");
          case "s" -> assertThat(MonitoringFiles.exportedNames(expr)).as(panel.title() + " (seconds)")
              .allMatch(n -> n.matches(".*_seconds(_sum|_count|_max)?"));
          default -> {
          }
        }
      }
    }
  }

  @Test
  void everyQueryParses() throws Exception {
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
    int i = 0;
    for (Panel panel : panels(MonitoringFiles.dashboard())) {
      for (String expr : panel.exprs()) {
        // Grafana's variables, as Grafana substitutes them before Prometheus sees the query.
        String promql = expr.replace("$__rate_interval", "5m").replace("$namespace", ".*").replace("$job", ".*");
        rules.append("      - record: dashboard:query").append(i++).append('\n')
            .append("        expr: '").append(promql.replace("'", "''")).append("'\n");
      }
    }
    Files.writeString(dir.resolve("dashboard-queries.yaml"), rules);
    Promtool.Run run = Promtool.run(dir, "check", "rules", "dashboard-queries.yaml");
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("SUCCESS: " + i + " rules found");
  }
}
