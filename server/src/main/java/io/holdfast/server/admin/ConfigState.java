package io.holdfast.server.admin;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Finding;
import io.holdfast.ir.NackEvent;
import io.holdfast.pipeline.BuildOutcome;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.validate.ValidationReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code config} part of {@code /state}: the build served, each resource's verdict with its problems as the
 * objects {@code holdfast validate --output json} gives ({@link ValidationReport.Item}, and
 * {@link ValidationReport.FileError} for unreadable manifests), and where each resource was read when the source
 * knows (file mode: {@code file} and {@code line}).
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
    out.put("manifestErrors", build.manifestErrors().stream().map(ConfigState::fileError)
        .map(ValidationReport.FileError::json).toList());
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
      r.put("problems", items(status).stream().map(ValidationReport.Item::json).toList());
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

  static ValidationReport.FileError fileError(ManifestError e) {
    return new ValidationReport.FileError(e.source(), e.line(), e.column(), e.reason());
  }

  /**
   * The status's problems as validation items. The board keeps problems without their severities, so those of a
   * rejected resource are reported as errors and those of a served one as warnings.
   */
  private static List<ValidationReport.Item> items(ResourceStatus status) {
    Finding.Severity severity = status.state() == ResourceStatus.State.REJECTED ? Finding.Severity.ERROR
        : Finding.Severity.WARNING;
    return status.problems().stream()
        .map(p -> new ValidationReport.Item(severity, p.field(), p.reason(), p.message())).toList();
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
