package io.holdfast.server.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * deploy/monitoring: every alert rule and dashboard query parses ({@link PromQl}) and names only metrics that real
 * servers export: a file-mode server over the bundled example (with its certificates) and a proxy connected, and a Kubernetes-mode
 * server on the emulated API for the Kubernetes-only metrics.
 */
class MonitoringAssetsTest {
  private static final Path MONITORING = Path.of("..", "deploy", "monitoring");
  /** Exported per served certificate (the bundled example serves two). */
  private static final String TLS_EXPIRY = "holdfast_tls_certificate_expiry_seconds";

  private static Set<String> fileMode;
  private static Set<String> kubeMode;

  @BeforeAll
  static void scrape() throws Exception {
    fileMode = RunningServers.names(RunningServers.fileModeScrapeWithProxy(Path.of("..", "examples", "config"),
        "proxy-a.test"));
    kubeMode = RunningServers.names(RunningServers.kubeModeScrape());
  }

  @Test
  void everyAlertRuleIsWellFormedAndParses() throws Exception {
    JsonNode rules = YAMLMapper.builder().build().readTree(Files.readString(MONITORING.resolve("holdfast-alerts.yaml")));
    Set<String> alerts = new TreeSet<>();
    for (JsonNode group : rules.get("groups")) {
      assertThat(group.get("name").asString()).isNotBlank();
      for (JsonNode rule : group.get("rules")) {
        String alert = rule.get("alert").asString();
        assertThat(alerts.add(alert)).as("alert names are unique: " + alert).isTrue();
        assertThat(PromQl.metricNames(rule.get("expr").asString())).as(alert).isNotEmpty();
        if (rule.has("for")) {
          assertThat(rule.get("for").asString()).as(alert + " for").matches("(\\d+(ms|s|m|h|d|w|y))+");
        }
        assertThat(rule.get("labels").get("severity").asString()).as(alert).isIn("critical", "warning", "info");
        assertThat(rule.get("annotations").get("summary").asString()).as(alert).isNotBlank();
      }
    }
    assertThat(alerts).contains("HoldfastNoLeader", "HoldfastProxyDisconnected", "HoldfastConfigStale",
        "HoldfastXdsNacks", "HoldfastCertificateExpiresSoon");
  }

  @Test
  void everyMetricTheRulesAndDashboardUseIsExported() throws Exception {
    Map<String, Set<String>> used = usedMetrics();
    Set<String> exported = new TreeSet<>(fileMode);
    exported.addAll(kubeMode);
    List<String> missing = new ArrayList<>();
    used.forEach((where, names) -> names.stream()
        .filter(n -> !exported.contains(n))
        .forEach(n -> missing.add(where + ": " + n)));
    assertThat(missing).as("metrics used but not exported").isEmpty();
    // The check is not vacuous: the assets use each area's metrics.
    Set<String> all = new TreeSet<>();
    used.values().forEach(all::addAll);
    assertThat(all).contains("holdfast_election_leader", "holdfast_xds_proxy_streams", "holdfast_xds_nacks_total",
        "holdfast_config_staleness_seconds", "holdfast_kube_api_requests_total", TLS_EXPIRY);
  }

  @Test
  void theKubernetesOnlyMetricsAreExactlyTheKubeAndStatusOnes() {
    Set<String> kubeOnly = new TreeSet<>(kubeMode);
    kubeOnly.removeAll(fileMode);
    assertThat(kubeOnly).allMatch(n -> n.startsWith("holdfast_kube_") || n.startsWith("holdfast_status_")
        || !n.startsWith("holdfast_"));
    Set<String> fileOnly = new TreeSet<>(fileMode);
    fileOnly.removeAll(kubeMode);
    // Per connected proxy and per served certificate (the file-mode server had one proxy and the example's
    // certificates, the Kubernetes-mode one neither); everything else exists in both modes.
    assertThat(fileOnly.stream().filter(n -> n.startsWith("holdfast_")).toList())
        .containsExactlyInAnyOrder("holdfast_xds_proxy_streams", TLS_EXPIRY);
  }

  /** Metric names per rule ({@code alert NAME}) and per dashboard panel ({@code panel TITLE}). */
  private static Map<String, Set<String>> usedMetrics() throws Exception {
    Map<String, Set<String>> used = new LinkedHashMap<>();
    JsonNode rules = YAMLMapper.builder().build().readTree(Files.readString(MONITORING.resolve("holdfast-alerts.yaml")));
    for (JsonNode group : rules.get("groups")) {
      for (JsonNode rule : group.get("rules")) {
        used.put("alert " + rule.get("alert").asString(), PromQl.metricNames(rule.get("expr").asString()));
      }
    }
    JsonNode dashboard = JsonMapper.builder().build().readTree(
        Files.readString(MONITORING.resolve("holdfast-dashboard.json")));
    collectPanels(dashboard.get("panels"), used);
    assertThat(used.keySet().stream().filter(k -> k.startsWith("panel "))).hasSizeGreaterThan(10);
    return used;
  }

  private static void collectPanels(JsonNode panels, Map<String, Set<String>> used) {
    for (JsonNode panel : panels) {
      if (panel.has("panels")) {
        collectPanels(panel.get("panels"), used);
      }
      if (panel.has("targets")) {
        Set<String> names = new TreeSet<>();
        for (JsonNode target : panel.get("targets")) {
          names.addAll(PromQl.metricNames(target.get("expr").asString()));
        }
        used.put("panel " + panel.get("title").asString(), names);
      }
    }
  }
}
