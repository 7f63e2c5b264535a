package io.holdfast.xds.validate;

import io.holdfast.xds.model.Problem;
import io.holdfast.xds.model.ResourceKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** The errors and warnings found so far, per resource, during one validation run. Not thread-safe. */
final class Ledger {

  private final Map<ResourceKey, Entry> entries = new TreeMap<>();

  private static final class Entry {
    long generation;
    final List<Problem> errors = new ArrayList<>();
    final List<Problem> warnings = new ArrayList<>();
  }

  /** Registers a resource (keeping the highest generation seen for the key). */
  void track(ResourceKey key, long generation) {
    Entry entry = entries.computeIfAbsent(key, k -> new Entry());
    entry.generation = Math.max(entry.generation, generation);
  }

  void error(ResourceKey key, String field, String reason, String message) {
    entries.get(key).errors.add(new Problem(field, reason, message));
  }

  void errors(ResourceKey key, List<Problem> problems) {
    entries.get(key).errors.addAll(problems);
  }

  void warn(ResourceKey key, String field, String reason, String message) {
    entries.get(key).warnings.add(new Problem(field, reason, message));
  }

  /** A problem sink for one resource's own rules. */
  Sink sink(ResourceKey key) {
    return new Sink() {
      @Override
      public void error(String field, String reason, String message) {
        Ledger.this.error(key, field, reason, message);
      }

      @Override
      public void warn(String field, String reason, String message) {
        Ledger.this.warn(key, field, reason, message);
      }
    };
  }

  boolean isKnown(ResourceKey key) {
    return entries.containsKey(key);
  }

  boolean isRejected(ResourceKey key) {
    Entry entry = entries.get(key);
    return entry != null && !entry.errors.isEmpty();
  }

  SortedMap<ResourceKey, ResourceStatus> statuses() {
    SortedMap<ResourceKey, ResourceStatus> statuses = new TreeMap<>();
    entries.forEach((key, entry) -> {
      List<Problem> problems = new ArrayList<>(entry.errors);
      problems.addAll(entry.warnings);
      ResourceStatus.State state = !entry.errors.isEmpty() ? ResourceStatus.State.REJECTED
          : !entry.warnings.isEmpty() ? ResourceStatus.State.WARNING : ResourceStatus.State.ACCEPTED;
      statuses.put(key, new ResourceStatus(key, entry.generation, state, problems));
    });
    return statuses;
  }

  /** Where a rule reports what it finds about one resource. */
  interface Sink {
    void error(String field, String reason, String message);

    void warn(String field, String reason, String message);
  }
}
