package io.holdfast.server.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every Holdfast meter is exported from start-up, its known label sets at 0, so dashboards and alerts need no
 * {@code absent()}: scraped right after start, before any proxy connected or anything failed.
 */
class MetricsAtStartTest {
  private static final List<String> XDS_TYPES = List.of("Cluster", "ClusterLoadAssignment", "Listener",
      "RouteConfiguration", "Secret");
  private static final List<String> CAUSES = List.of("conflict", "already_exists", "not_found",
      "namespace_not_found", "timeout", "unreachable", "forbidden", "other");

  /** Series every mode exports: election (single replica or lease), xDS, config, snapshot. */
  private static List<String> everyMode() {
    List<String> series = new ArrayList<>(List.of("holdfast_election_leader", "holdfast_election_last_renew_age_seconds",
        "holdfast_xds_streams", "holdfast_config_staleness_seconds", "holdfast_snapshot_build_seconds_count",
        "holdfast_snapshot_build_seconds_sum", "holdfast_snapshot_build_seconds_max",
        "holdfast_snapshot_store_failures_total{op=\"save\"}", "holdfast_snapshot_store_failures_total{op=\"load\"}"));
    for (String to : List.of("follower", "leader", "stopped")) {
      series.add("holdfast_election_transitions_total{to=\"" + to + "\"}");
    }
    for (String cause : CAUSES) {
      series.add("holdfast_election_renew_failures_total{cause=\"" + cause + "\"}");
      series.add("holdfast_election_acquire_failures_total{cause=\"" + cause + "\"}");
    }
    for (String type : XDS_TYPES) {
      series.add("holdfast_xds_pushes_total{type=\"" + type + "\"}");
      series.add("holdfast_xds_nacks_total{type=\"" + type + "\"}");
    }
    for (String reason : List.of("node_id_too_long", "node_id_invalid", "type_url_too_long", "too_many_types",
        "too_many_names", "too_many_streams", "no_proxy_identity")) {
      series.add("holdfast_xds_refused_streams_total{reason=\"" + reason + "\"}");
    }
    return series;
  }

  @Test
  void aFileModeServerExportsEveryMeterAtStartAndLeads() throws Exception {
    Map<String, Double> samples = RunningServers.samples(RunningServers.fileModeScrape(Path.of("..", "examples", "config")));

    assertThat(samples).containsKeys(everyMode().toArray(String[]::new));
    assertThat(samples).containsEntry("holdfast_election_leader", 1.0)
        .containsEntry("holdfast_election_last_renew_age_seconds", 0.0)
        .containsEntry("holdfast_xds_nacks_total{type=\"Listener\"}", 0.0)
        .containsEntry("holdfast_xds_pushes_total{type=\"Cluster\"}", 0.0)
        .containsEntry("holdfast_election_transitions_total{to=\"stopped\"}", 0.0);
  }

  @Test
  void aKubernetesModeServerAlsoExportsTheKubernetesMetersAtStart() throws Exception {
    Map<String, Double> samples = RunningServers.samples(RunningServers.kubeModeScrape());

    assertThat(samples).containsKeys(everyMode().toArray(String[]::new));
    List<String> kube = new ArrayList<>(List.of("holdfast_kube_synced", "holdfast_kube_stale",
        "holdfast_kube_rebuilds_total{outcome=\"pushed\"}", "holdfast_kube_rebuilds_total{outcome=\"unchanged\"}",
        "holdfast_kube_rebuild_seconds_count", "holdfast_status_pending"));
    for (String kind : List.of("Gateway", "VirtualService", "Upstream", "TcpGateway", "RouteTable", "Service", "Secret",
        "EndpointSlice")) {
      kube.add("holdfast_kube_informer_failures_total{kind=\"" + kind + "\"}");
    }
    for (String outcome : List.of("written", "skipped_unchanged", "conflict", "failed", "not_found")) {
      kube.add("holdfast_status_writes_total{outcome=\"" + outcome + "\"}");
    }
    for (String client : List.of("source", "status", "lease")) {
      kube.add("holdfast_kube_api_requests_total{client=\"" + client + "\",code=\"error\",verb=\"get\"}");
      kube.add("holdfast_kube_api_requests_total{client=\"" + client + "\",code=\"201\",verb=\"create\"}");
      kube.add("holdfast_kube_api_latency_seconds_count{client=\"" + client + "\",verb=\"watch\"}");
    }
    assertThat(samples).containsKeys(kube.toArray(String[]::new));
    assertThat(samples).containsEntry("holdfast_status_writes_total{outcome=\"failed\"}", 0.0)
        .containsEntry("holdfast_kube_informer_failures_total{kind=\"Gateway\"}", 0.0);
  }
}
