package io.holdfast.server.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * deploy/monitoring names only metrics that real servers export: a file-mode server over the bundled example (with
 * its certificates) and a proxy connected, and a Kubernetes-mode server on the emulated API for the Kubernetes-only
 * metrics. That the expressions parse and the alerts behave: {@link AlertRulesTest} and {@link DashboardTest}, with
 * promtool.
 */
class MonitoringAssetsTest {
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
        "holdfast_config_staleness_seconds", "holdfast_kube_api_requests_total", TLS_EXPIRY,
        "holdfast_snapshot_store_failures_total", "holdfast_webhook_reviews_total",
        "holdfast_xds_proxies_nacking", "holdfast_config_rejected_resources", "holdfast_build_info");
  }

  @Test
  void theKubernetesOnlyMetricsAreExactlyTheKubeAndStatusOnes() {
    Set<String> kubeOnly = new TreeSet<>(kubeMode);
    kubeOnly.removeAll(fileMode);
    assertThat(kubeOnly).allMatch(n -> n.startsWith("holdfast_kube_") || n.startsWith("holdfast_status_")
        || !n.startsWith("holdfast_"));
    Set<String> fileOnly = new TreeSet<>(fileMode);
    fileOnly.removeAll(kubeMode);
    // Per connected proxy, per served certificate and with the webhook on (the file-mode server had one proxy,
    // the example's certificates and the webhook, the Kubernetes-mode one none); everything else exists in both.
    assertThat(fileOnly.stream().filter(n -> n.startsWith("holdfast_")).toList())
        .containsExactlyInAnyOrder("holdfast_xds_proxy_streams", TLS_EXPIRY, "holdfast_webhook_reviews_total");
  }

  /** Metric names per rule ({@code alert NAME}, {@code record NAME}) and per dashboard panel ({@code panel TITLE}). */
  private static Map<String, Set<String>> usedMetrics() throws Exception {
    Map<String, Set<String>> used = new LinkedHashMap<>();
    for (JsonNode group : MonitoringFiles.prometheusRule().get("spec").get("groups")) {
      for (JsonNode rule : group.get("rules")) {
        String name = rule.has("alert") ? "alert " + rule.get("alert").asString()
            : "record " + rule.get("record").asString();
        used.put(name, MonitoringFiles.exportedNames(rule.get("expr").asString()));
      }
    }
    for (DashboardTest.Panel panel : DashboardTest.panels(MonitoringFiles.dashboard())) {
      Set<String> names = new TreeSet<>();
      panel.exprs().forEach(e -> names.addAll(MonitoringFiles.exportedNames(e)));
      used.put("panel " + panel.title(), names);
    }
    assertThat(used.keySet().stream().filter(k -> k.startsWith("panel "))).hasSizeGreaterThan(10);
    return used;
  }
}
