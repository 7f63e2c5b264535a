package io.holdfast.server.validate;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Finding;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code holdfast validate} found: each resource's verdict at the place it was read, and the problems that
 * belong to no resource (unreadable files, malformed YAML, documents that do not name a resource).
 *
 * @param resources  one entry per document that named a resource, in file and line order
 * @param fileErrors in file and line order
 * @param buildProblems failures of Holdfast itself the check contained (a front end that threw, an IR invariant
 *                   broken), each with its stage; a bug to report, and a failed validation: the server would
 *                   not serve this config as given
 */
public record ValidationReport(List<ResourceReport> resources, List<FileError> fileErrors,
    List<String> buildProblems) {

  /** A report of a build in which Holdfast contained no failure of its own. */
  public ValidationReport(List<ResourceReport> resources, List<FileError> fileErrors) {
    this(resources, fileErrors, List.of());
  }

  public ValidationReport {
    buildProblems = List.copyOf(buildProblems);
    resources = resources.stream().sorted(Comparator.comparing(ResourceReport::file)
        .thenComparingInt(ResourceReport::line).thenComparing(ResourceReport::key)).toList();
    fileErrors = fileErrors.stream().sorted(Comparator.comparing(FileError::file).thenComparingInt(FileError::line)
        .thenComparingInt(FileError::column)).toList();
  }

  /** One resource's verdict, reported at the first content line of the document that declared it. */
  public record ResourceReport(String file, int line, ResourceKey key, ResourceStatus.State state,
      List<Item> problems) {
    public ResourceReport {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(state, "state");
      problems = List.copyOf(problems);
    }
  }

  /** One finding, with the reason code the resource's status carries. */
  public record Item(Finding.Severity severity, String field, String reason, String message) {
    public Item {
      Objects.requireNonNull(severity, "severity");
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }

    /** Its JSON object, as {@code validate --output json} and the admin {@code /state} give it. */
    public Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("severity", severity.name());
      m.put("field", field);
      m.put("reason", reason);
      m.put("message", message);
      return m;
    }
  }

  /** A problem of a file rather than of a resource. */
  public record FileError(String file, int line, int column, String message) {
    public FileError {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(message, "message");
    }

    /** Its JSON object, as {@code validate --output json} and the admin {@code /state} give it. */
    public Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", file);
      m.put("line", line);
      m.put("column", column);
      m.put("message", message);
      return m;
    }
  }

  /** True when every file was read and parsed and no resource is rejected (warnings allowed). */
  public boolean passed() {
    return fileErrors.isEmpty() && buildProblems.isEmpty() && resources.stream().noneMatch(r -> r.state() == ResourceStatus.State.REJECTED);
  }

  /**
   * One line per problem, {@code file:line: Kind/namespace/name: Reason: field: message}, with {@code warning:}
   * or {@code note:} before the reason of what does not reject; {@code file:line:column: message} for file
   * errors; then a summary line.
   */
  public String text() {
    StringBuilder out = new StringBuilder();
    fileErrors.forEach(e -> out.append(e.file()).append(':').append(e.line()).append(':').append(e.column())
        .append(": ").append(e.message()).append('\n'));
    for (ResourceReport r : resources) {
      for (Item item : r.problems()) {
        out.append(r.file()).append(':').append(r.line()).append(": ").append(r.key()).append(": ");
        if (item.severity() != Finding.Severity.ERROR) {
          out.append(item.severity().name().toLowerCase(Locale.ROOT)).append(": ");
        }
        out.append(item.reason()).append(": ");
        if (!item.field().isEmpty()) {
          out.append(item.field()).append(": ");
        }
        out.append(item.message()).append('\n');
      }
    }
    buildProblems.forEach(p -> out.append("internal error: ").append(p).append('\n'));
    out.append(summary()).append('\n');
    return out.toString();
  }

  /** E.g. {@code 5 resources: 3 accepted, 1 with warnings, 1 rejected; 1 file error}. */
  public String summary() {
    return resources.size() + (resources.size() == 1 ? " resource: " : " resources: ")
        + count(ResourceStatus.State.ACCEPTED) + " accepted, " + count(ResourceStatus.State.WARNING)
        + " with warnings, " + count(ResourceStatus.State.REJECTED) + " rejected; " + fileErrors.size()
        + (fileErrors.size() == 1 ? " file error" : " file errors")
        + (buildProblems.isEmpty() ? "" : "; " + buildProblems.size() + " internal "
        + (buildProblems.size() == 1 ? "error" : "errors"));
  }

  /** The {@code --output json} document: plain maps and lists, ready for a JSON writer. */
  public Map<String, Object> json() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("passed", passed());
    out.put("resources", resources.stream().map(r -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", r.file());
      m.put("line", r.line());
      m.put("kind", r.key().kind());
      m.put("namespace", r.key().namespace());
      m.put("name", r.key().name());
      m.put("state", r.state().name());
      m.put("problems", r.problems().stream().map(Item::json).toList());
      return m;
    }).toList());
    out.put("fileErrors", fileErrors.stream().map(FileError::json).toList());
    out.put("buildProblems", buildProblems);
    return out;
  }

  private long count(ResourceStatus.State state) {
    return resources.stream().filter(r -> r.state() == state).count();
  }
}
