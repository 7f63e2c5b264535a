package io.holdfast.xds.envoycheck;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@link EnvoyConstraints} found.
 *
 * @param violations broken constraints, in walk order
 * @param unenforced rule kinds (e.g. {@code timestamp.lt_now}) that applied to a value but that this checker
 *                   cannot evaluate, with how many values they applied to; such a value is not known to be valid
 */
public record Report(List<Violation> violations, SortedMap<String, Integer> unenforced) {

  public Report {
    violations = List.copyOf(violations);
    unenforced = Collections.unmodifiableSortedMap(new TreeMap<>(unenforced));
  }

  /** True if nothing is broken and every applicable rule was evaluated. */
  public boolean clean() {
    return violations.isEmpty() && unenforced.isEmpty();
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    violations.forEach(v -> text.append("\n  ").append(v));
    unenforced.forEach((kind, count) -> text.append("\n  not enforced by the checker: ").append(kind)
        .append(" (on ").append(count).append(count == 1 ? " value)" : " values)"));
    return violations.size() + " violation(s), " + unenforced.size() + " unenforced rule kind(s)" + text;
  }
}
