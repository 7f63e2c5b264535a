package io.holdfast.it.bench.xds;

import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.it.bench.GeneratedConfigs;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Realistic snapshots for the xDS benchmark: {@link GeneratedConfigs#of} validated and translated, revision by
 * revision. Consecutive revisions differ in two ClusterLoadAssignments and one route (two RouteConfigurations:
 * the gateway's and the first API listener's).
 */
final class BenchSnapshots {
  private final int routes;
  private final int upstreams;
  private final Validator validator = new Validator();
  private final Translator translator = new Translator();
  private final Map<Integer, XdsSnapshot> built = new LinkedHashMap<>();

  BenchSnapshots(int routes, int upstreams) {
    this.routes = routes;
    this.upstreams = upstreams;
  }

  synchronized XdsSnapshot revision(int revision) {
    return built.computeIfAbsent(revision,
        r -> translator.translate(HoldfastFrontEnd.lowerAccepted(validator.validate(GeneratedConfigs.of(routes, upstreams, r)).accepted())).snapshot());
  }

  /** Type URLs whose resources differ between the two snapshots. */
  static Set<String> changedTypes(XdsSnapshot before, XdsSnapshot after) {
    Set<String> types = new TreeSet<>(before.resources().keySet());
    types.addAll(after.resources().keySet());
    types.removeIf(t -> Objects.equals(before.ofType(t), after.ofType(t)));
    return types;
  }

  /** "100 Cluster, 100 ClusterLoadAssignment, 3 Listener, 3 RouteConfiguration; 54 KiB serialised". */
  static String describe(XdsSnapshot s) {
    StringBuilder b = new StringBuilder();
    long bytes = 0;
    for (var type : s.resources().entrySet()) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(type.getValue().size()).append(' ').append(type.getKey().substring(type.getKey().lastIndexOf('.') + 1));
      bytes += type.getValue().values().stream().mapToLong(m -> m.getSerializedSize()).sum();
    }
    return b.append("; ").append(bytes / 1024).append(" KiB serialised").toString();
  }

  String config() {
    return routes + " routes over " + upstreams + " upstreams (io.holdfast.it.bench.GeneratedConfigs.of)";
  }
}
