package io.holdfast.server.admin;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Finding;
import io.holdfast.ir.NackEvent;
import io.holdfast.pipeline.BuildOutcome;
import io.holdfast.pipeline.ReportedProblem;
import io.holdfast.pipeline.StatusBoard;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code config} part of {@code /state}: the build served, each resource's verdict with its problems as the
 * objects {@code holdfast validate --output json} gives ({@link ReportedProblem}, for unreadable manifests too),
 * and where each resource was read when the source knows (file mode: {@code file} and {@code line}).
 */
public final class ConfigState {
  private ConfigState() {}

  /** Where a resource was read; empty when the source has no files (Kubernetes mode). */
  @FunctionalInterface
  public interface Locations {
    Locations NONE = key -> List.of();

    List<ConfigLoader.Location> of(ResourceKey key);
  }

  public static Map<String, Object> of(StatusBoard board, Locations locations) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("lastBuild", board.lastOutcome().map(BuildOutcome::toState).orElse(null));
    Optional<StatusBoard.Build> current = board.current();
    if (current.isEmpty()) {
      out.put("version", null);
      return out;
    }
    StatusBoard.Build build = current.get();
    out.put("version", build.version());
    out.put("builtAt", build.builtAt().toString());
    out.put("manifestErrors", build.manifestErrors().stream().map(ReportedProblem::of)
        .map(ReportedProblem::json).toList());
    Map<String, Object> resources = new LinkedHashMap<>();
    build.statuses().forEach((key, status) -> {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("state", status.state().name());
      r.put("observedGeneration", status.observedGeneration());
      List<ConfigLoader.Location> at = locations.of(key);
      if (!at.isEmpty()) {
        r.put("file", at.get(0).source());
        r.put("line", at.get(0).line());
      }
      Optional<ReportedProblem.Place> place = at.isEmpty() ? Optional.empty()
          : Optional.of(new ReportedProblem.Place(at.get(0).source(), at.get(0).line(), 1));
      r.put("problems", problems(key, status, place).stream().map(ReportedProblem::json).toList());
      board.nackOf(key).ifPresent(n -> r.put("nack", nack(n)));
      resources.put(key.toString(), r);
    });
    out.put("resources", resources);
    out.put("unattributedNacks", board.unattributedNacks().stream()
        .map(n -> n.nodeId() + " " + n.typeUrl() + ": " + n.errorDetail()).toList());
    return out;
  }

  /** A rejected resource as the verdict names it: its key, and where it was read when known. */
  public static String described(ResourceKey key, Locations locations) {
    List<ConfigLoader.Location> at = locations.of(key);
    return key + (at.isEmpty() ? "" : " (" + at.get(0).source() + ":" + at.get(0).line() + ")");
  }

  /**
   * The status's problems in the one problem shape, placed at the object's document (the board keeps neither
   * their severities nor their lines: those of a rejected resource are reported as errors, those of a served one
   * as warnings).
   */
  private static List<ReportedProblem> problems(ResourceKey key, ResourceStatus status,
      Optional<ReportedProblem.Place> place) {
    Finding.Severity severity = status.state() == ResourceStatus.State.REJECTED ? Finding.Severity.ERROR
        : Finding.Severity.WARNING;
    return status.problems().stream()
        .map(p -> new ReportedProblem(severity, p.reason(), p.message(), p.field(), Optional.of(key), place))
        .toList();
  }

  private static Map<String, Object> nack(NackEvent n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("node", n.nodeId());
    m.put("type", n.typeUrl());
    m.put("version", n.rejectedVersion());
    m.put("error", n.errorDetail());
    m.put("at", n.at().toString());
    return m;
  }
}
