package io.holdfast.server.monitoring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The files of deploy/monitoring as the tests read them. */
final class MonitoringFiles {
  static final Path MONITORING = Path.of("..", "deploy", "monitoring");
  static final Path ALERTS = MONITORING.resolve("holdfast-alerts.yaml");
  static final Path DASHBOARD = MONITORING.resolve("holdfast-dashboard.json");
  /**
   * A series name Holdfast exports, as it appears in an expression: its own metrics and the JVM and process ones.
   * Recording rules ({@code holdfast:...}) and other exporters' metrics (kube-state-metrics, {@code up}) are not.
   * promtool has parsed every expression before this runs, so a name is never inside a string or a comment here,
   * and a label name such as {@code label_holdfast_io_xds_client} has no word boundary before "holdfast".
   */
  private static final Pattern EXPORTED_NAME = Pattern.compile("\\b((?:holdfast|jvm|process)_[A-Za-z0-9_]+)\\b");

  private MonitoringFiles() {
  }

  /** The PrometheusRule of holdfast-alerts.yaml. */
  static JsonNode prometheusRule() throws IOException {
    return YAMLMapper.builder().build().readTree(Files.readString(ALERTS));
  }

  /** Its {@code spec}: the {@code groups:} a plain Prometheus rule file holds, which promtool reads. */
  static String ruleFile() throws IOException {
    return YAMLMapper.builder().build().writeValueAsString(prometheusRule().get("spec"));
  }

  static JsonNode dashboard() throws IOException {
    return JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
  }

  /** The names of Holdfast-exported series that {@code expr} reads. */
  static Set<String> exportedNames(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = EXPORTED_NAME.matcher(expr);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }
}
