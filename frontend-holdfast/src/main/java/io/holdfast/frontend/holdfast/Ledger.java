package io.holdfast.frontend.holdfast;

import io.holdfast.api.InputLimits;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The errors, warnings and notes found so far, per resource, during one validation run, and the conditions of
 * resources that attach to parents (a RouteTable under each route delegating to it). Not thread-safe.
 */
final class Ledger {

  private final Map<ResourceKey, Entry> entries = new TreeMap<>();
  private final InputLimits limits;

  Ledger(InputLimits limits) {
    this.limits = limits;
  }

  /** The bounds this run checks against. */
  InputLimits limits() {
    return limits;
  }

  private static final class Entry {
    long generation;
    final List<Finding> errors = new ArrayList<>();
    final List<Finding> warnings = new ArrayList<>();
    final List<Finding> notes = new ArrayList<>();
    final List<ParentStatus> parents = new ArrayList<>();
  }

  /** Registers a resource (keeping the highest generation seen for the key). */
  void track(ResourceKey key, long generation) {
    Entry entry = entries.computeIfAbsent(key, k -> new Entry());
    entry.generation = Math.max(entry.generation, generation);
  }

  void error(ResourceKey key, String field, String reason, String message) {
    entries.get(key).errors.add(new Finding(Finding.Severity.ERROR, field, reason, message));
  }

  void errors(ResourceKey key, List<Problem> problems) {
    problems.forEach(p -> error(key, p.field(), p.reason(), p.message()));
  }

  void warn(ResourceKey key, String field, String reason, String message) {
    entries.get(key).warnings.add(new Finding(Finding.Severity.WARNING, field, reason, message));
  }

  void note(ResourceKey key, String field, String reason, String message) {
    entries.get(key).notes.add(new Finding(Finding.Severity.NOTE, field, reason, message));
  }

  void parent(ResourceKey key, ParentStatus parent) {
    entries.get(key).parents.add(parent);
  }

  long generation(ResourceKey key) {
    return entries.get(key).generation;
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

      @Override
      public InputLimits limits() {
        return limits;
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

  SortedMap<ResourceKey, ObjectStatus> statuses() {
    SortedMap<ResourceKey, ObjectStatus> statuses = new TreeMap<>();
    entries.forEach((key, entry) -> {
      List<Finding> findings = new ArrayList<>(entry.errors);
      findings.addAll(entry.warnings);
      findings.addAll(entry.notes);
      ObjectStatus status = ObjectStatus.of(key, entry.generation, findings);
      for (ParentStatus parent : entry.parents) {
        status = status.withParent(parent);
      }
      statuses.put(key, status);
    });
    return statuses;
  }

  /** Where a rule reports what it finds about one resource. */
  interface Sink {
    void error(String field, String reason, String message);

    void warn(String field, String reason, String message);

    /** The bounds the rules check against. */
    InputLimits limits();
  }
}
