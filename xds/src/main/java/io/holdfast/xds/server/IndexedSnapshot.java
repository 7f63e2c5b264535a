package io.holdfast.xds.server;

import com.google.protobuf.Message;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The current snapshot plus what serving needs from it: a content hash per resource (delta versions) and a
 * memo of SotW answers, since all proxies usually ask the same questions of the same snapshot. Immutable apart
 * from the memo, which is safe to share.
 */
final class IndexedSnapshot {

  /** Distinct SotW questions remembered per snapshot; beyond this, answers are computed each time. */
  private static final int MAX_MEMO = 4096;

  private final XdsSnapshot snapshot;
  private final Map<String, Map<String, String>> versions;
  private final Map<String, SotwPlan> plans = new ConcurrentHashMap<>();

  private IndexedSnapshot(XdsSnapshot snapshot, Map<String, Map<String, String>> versions) {
    this.snapshot = snapshot;
    this.versions = versions;
  }

  /**
   * Indexes {@code snapshot}. Hashes of resources that are the same instance as in {@code previous} are reused,
   * so a translation that keeps unchanged messages makes this cheap.
   */
  static IndexedSnapshot of(XdsSnapshot snapshot, IndexedSnapshot previous) {
    Map<String, Map<String, String>> versions = new HashMap<>();
    snapshot.resources().forEach((type, byName) -> {
      SortedMap<String, Message> old = previous == null ? null : previous.snapshot.ofType(type);
      Map<String, String> previousVersions = previous == null ? Map.of() : previous.versions.getOrDefault(type, Map.of());
      Map<String, String> hashes = new HashMap<>();
      byName.forEach((name, resource) -> {
        boolean same = old != null && old.get(name) == resource && previousVersions.containsKey(name);
        hashes.put(name, same ? previousVersions.get(name) : Hashes.of(resource));
      });
      versions.put(type, Map.copyOf(hashes));
    });
    return new IndexedSnapshot(snapshot, Map.copyOf(versions));
  }

  XdsSnapshot snapshot() {
    return snapshot;
  }

  String version() {
    return snapshot.version();
  }

  SortedMap<String, Message> resources(String typeUrl) {
    return snapshot.ofType(typeUrl);
  }

  /** The content hash of one resource, or null if the snapshot does not have it. */
  String resourceVersion(String typeUrl, String name) {
    return versions.getOrDefault(typeUrl, Map.of()).get(name);
  }

  /** The SotW answer to a request for {@code requestedNames} of {@code typeUrl}. */
  SotwPlan sotwPlan(String typeUrl, List<String> requestedNames) {
    String question = typeUrl + '\u0000' + String.join("\u0000", requestedNames);
    SotwPlan plan = plans.get(question);
    if (plan == null) {
      plan = SotwPlan.of(this, typeUrl, requestedNames);
      if (plans.size() < MAX_MEMO) {
        plans.putIfAbsent(question, plan);
      }
    }
    return plan;
  }
}
