package io.holdfast.it.outage;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parts of a replica's admin {@code /state} the scenarios read. Fields missing from the document read as
 * empty or -1 rather than failing, so a diagnostic can still print the rest ({@link #raw}).
 */
record ReplicaState(String identity, String role, String holder, long term, long leaseTransitions,
    String snapshotVersion, String staleSince, int xdsStreams, boolean kubeSynced, Map<String, String> resourceStates, String raw) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  ReplicaState {
    resourceStates = Map.copyOf(resourceStates);
  }

  static ReplicaState parse(String body) {
    JsonNode n = JSON.readTree(body);
    JsonNode election = n.path("election");
    Map<String, String> states = new LinkedHashMap<>();
    JsonNode resources = n.path("config").path("resources");
    for (Map.Entry<String, JsonNode> e : resources.properties()) {
      states.put(e.getKey(), e.getValue().path("state").asString(""));
    }
    return new ReplicaState(n.path("identity").asString(""), n.path("role").asString(""),
        election.path("holder").asString(""), election.path("term").asLong(-1),
        election.path("leaseTransitions").asLong(-1), n.path("snapshotVersion").asString(""),
        n.path("staleSince").isNull() ? "" : n.path("staleSince").asString(""),
        n.path("xdsStreams").asInt(-1), n.path("kube").path("synced").asBoolean(false), states, body);
  }

  boolean isLeader() {
    return role.equals("leader");
  }
}
