package io.holdfast.pipeline;

import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One problem as every Holdfast output shows it: {@code holdfast validate --output json}, the admin
 * {@code /state} and page. The one place its JSON shape is defined ({@link #json()}), so tools read one shape.
 *
 * @param severity ERROR (the object is not served), WARNING, or NOTE (context, e.g. a skipped document)
 * @param reason   stable CamelCase code ({@code io.holdfast.api.Reasons}, a Gateway API condition reason, or one
 *                 of this record's codes for problems of a file)
 * @param field    JSON path inside the object ({@code spec.routes[2].match.prefx}); empty for the whole object
 *                 or for a problem of a file
 * @param object   the object it belongs to; empty for a problem of a file (unreadable, malformed YAML)
 * @param at       where it is in a file; empty where there is no file (objects read from Kubernetes)
 */
public record ReportedProblem(Finding.Severity severity, String reason, String message, String field,
    Optional<ResourceKey> object, Optional<Place> at) {

  /** A file that could not be read (too large, not UTF-8, no permission). */
  public static final String UNREADABLE_FILE = "UnreadableFile";
  /** A document that is not YAML, not a mapping, or names no resource. */
  public static final String INVALID_MANIFEST = "InvalidManifest";
  /** A document of a kind Holdfast does not read, skipped on request ({@code --ignore-unknown-kinds}). */
  public static final String SKIPPED_KIND = "SkippedKind";

  /** A 1-based line and column in a file. */
  public record Place(String file, int line, int column) {
    public Place {
      Objects.requireNonNull(file, "file");
    }
  }

  public ReportedProblem {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(at, "at");
  }

  /** A finding of {@code object}, at {@code at} when its place in a file is known. */
  public static ReportedProblem of(ResourceKey object, Finding finding, Optional<Place> at) {
    return new ReportedProblem(finding.severity(), finding.reason(), finding.message(), finding.field(),
        Optional.of(object), at);
  }

  /** A malformed document or one that names no resource. */
  public static ReportedProblem of(ManifestError error) {
    return new ReportedProblem(Finding.Severity.ERROR, INVALID_MANIFEST, error.reason(), "", Optional.empty(),
        Optional.of(new Place(error.source(), error.line(), error.column())));
  }

  /**
   * The JSON object, with every key always present ({@code null} where unknown), in this order: {@code severity,
   * reason, message, field, group, kind, namespace, name, file, line, column}.
   */
  public Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("severity", severity.name());
    m.put("reason", reason);
    m.put("message", message);
    m.put("field", field);
    m.put("group", object.map(ResourceKey::group).orElse(null));
    m.put("kind", object.map(ResourceKey::kind).orElse(null));
    m.put("namespace", object.map(ResourceKey::namespace).orElse(null));
    m.put("name", object.map(ResourceKey::name).orElse(null));
    m.put("file", at.map(Place::file).orElse(null));
    m.put("line", at.map(Place::line).orElse(null));
    m.put("column", at.map(Place::column).orElse(null));
    return m;
  }
}
