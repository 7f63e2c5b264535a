package io.holdfast.server.fleet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /state} documents in the shape replicas give today: one captured from a file-mode server on
 * examples/config, and Kubernetes-mode ones written in the same shape (election and kube sections as
 * KubernetesMode.state writes them) for the roles and faults a fleet goes through.
 */
final class StateFixtures {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  static final String V1 = "2b6c06e617a01501";
  static final String V0 = "11aa22bb33cc44dd";

  private StateFixtures() {
  }

  /** Captured from {@code holdfast serve --config-dir examples/config} (file mode, no proxies). */
  static String fileMode() {
    try {
      return Files.readString(Path.of("src/test/resources/fleet/file-mode-state.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A Kubernetes-mode replica. {@code apiAnswered} false gives the outage's picture: stale since a minute before
   * generatedAt, last contact 60 s ago.
   */
  static String kube(String identity, String role, String holder, boolean apiAnswered, String proxiesJson) {
    String staleSince = apiAnswered ? "null" : "\"2026-12-04T17:00:00Z\"";
    return """
        {
          "identity": "%s", "role": "%s", "electionMode": "lease",
          "election": {"state": "%s", "holder": %s, "term": null, "leaseTransitions": 3,
                       "secondsSinceRenew": 12.5, "watchHealthy": %s, "lastError": null},
          "kube": {"synced": true, "apiAnswered": %s, "staleSince": %s,
                   "lastContact": "2026-12-04T17:00:00Z", "secondsSinceContact": %s},
          "snapshotVersion": "%s", "staleSince": %s, "snapshotAgeSeconds": 300.0, "xdsStreams": 1,
          "proxies": %s,
          "config": {"lastBuild": {"at": "2026-12-04T16:56:00Z", "outcome": "ok", "stage": null, "message": null,
                                   "problems": []},
                     "version": "%s", "builtAt": "2026-12-04T16:56:00Z", "manifestErrors": [],
                     "resources": {"Upstream/demo/a": {"state": "ACCEPTED", "observedGeneration": 1, "problems": []}},
                     "unattributedNacks": []},
          "timeline": [], "generatedAt": "2026-12-04T17:01:00Z", "certificates": []
        }
        """.formatted(identity, role, role, holder == null ? "null" : "\"" + holder + "\"", apiAnswered,
        apiAnswered, staleSince, apiAnswered ? "0.2" : "60.0", V1, staleSince, proxiesJson, V1);
  }

  /** One proxy that was sent and ACKed {@code version} of the four types it asks, optionally with a NACK. */
  static String proxy(String node, String version, String nackJson) {
    return proxy(node, version, version, nackJson);
  }

  /** One proxy sent {@code sent} and ACKing {@code acked} of the four types it asks. */
  static String proxy(String node, String sent, String acked, String nackJson) {
    return """
        {"nodeId": "%s", "streams": 1,
         "ackedVersions": {"Cluster": "%s", "ClusterLoadAssignment": "%s", "Listener": "%s",
                           "RouteConfiguration": "%s"},
         "sentVersions": {"Cluster": "%s", "ClusterLoadAssignment": "%s", "Listener": "%s",
                           "RouteConfiguration": "%s"},
         "lastNack": %s}
        """.formatted(node, acked, acked, acked, acked, sent, sent, sent, sent, nackJson);
  }

  static Map<?, ?> parse(String json) {
    return JSON.readValue(json, Map.class);
  }

  static ReplicaAnswer answer(String address, String json) {
    return ReplicaAnswer.answered(address, ReplicaState.of(parse(json)));
  }
}
