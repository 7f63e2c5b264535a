package io.holdfast.server.validate;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Finding;
import io.holdfast.pipeline.ReportedProblem;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What {@code holdfast validate} found: each resource's verdict at the place it was read, and the problems that
 * belong to no resource (unreadable files, malformed YAML, documents that do not name a resource). Every problem
 * has the one shape of {@link ReportedProblem}, at its field's own line.
 *
 * @param resources     one entry per document that named a resource, in file and line order
 * @param fileErrors    in file and line order
 * @param buildProblems failures of Holdfast itself the check contained (a front end that threw, an IR invariant
 *                      broken), each with its stage; a bug to report, and a failed validation: the server would
 *                      not serve this config as given
 * @param unknownKinds  documents of kinds Holdfast does not read, as notes in file and line order
 * @param unknownKindsSkipped whether those were left out ({@code --ignore-unknown-kinds}) or rejected
 */
public record ValidationReport(List<ResourceReport> resources, List<ReportedProblem> fileErrors,
    List<String> buildProblems, List<ReportedProblem> unknownKinds, boolean unknownKindsSkipped) {

  /** A report of a build in which Holdfast contained no failure of its own. */
  public ValidationReport(List<ResourceReport> resources, List<ReportedProblem> fileErrors) {
    this(resources, fileErrors, List.of(), List.of(), false);
  }

  private static final Comparator<ReportedProblem> BY_PLACE = Comparator.comparing(
      (ReportedProblem p) -> p.at().map(ReportedProblem.Place::file).orElse(""))
      .thenComparingInt(p -> p.at().map(ReportedProblem.Place::line).orElse(0))
      .thenComparingInt(p -> p.at().map(ReportedProblem.Place::column).orElse(0));

  public ValidationReport {
    buildProblems = List.copyOf(buildProblems);
    resources = resources.stream().sorted(Comparator.comparing(ResourceReport::file)
        .thenComparingInt(ResourceReport::line).thenComparing(ResourceReport::key)).toList();
    fileErrors = fileErrors.stream().sorted(BY_PLACE).toList();
    unknownKinds = unknownKinds.stream().sorted(BY_PLACE).toList();
  }

  /**
   * One resource's verdict, reported at the first content line of the document that declared it; each problem at
   * its own field's line.
   */
  public record ResourceReport(String file, int line, ResourceKey key, ResourceStatus.State state,
      List<ReportedProblem> problems) {
    public ResourceReport {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(state, "state");
      problems = List.copyOf(problems);
    }
  }

  /** What the verdict is: in the order of precedence of {@code holdfast validate}'s exit codes. */
  public enum Verdict {
    /** Everything read and accepted (warnings allowed). */
    PASSED,
    /** A resource is rejected or a file cannot be read or parsed. */
    REJECTED,
    /** Holdfast failed while checking (a bug): the config's verdict is unknown. */
    INTERNAL_ERROR
  }

  public Verdict verdict() {
    if (!buildProblems.isEmpty()) {
      return Verdict.INTERNAL_ERROR;
    }
    return passed() ? Verdict.PASSED : Verdict.REJECTED;
  }

  /** True when every file was read and parsed and no resource is rejected (warnings allowed). */
  public boolean passed() {
    return fileErrors.isEmpty() && buildProblems.isEmpty()
        && resources.stream().noneMatch(r -> r.state() == ResourceStatus.State.REJECTED);
  }

  /**
   * One line per problem, {@code file:line:column: Kind/namespace/name: Reason: field: message} at the field's own
   * line, with {@code warning:} or {@code note:} before the reason of what does not reject;
   * {@code file:line:column: message} for file errors; skipped kinds as notes; then a summary line and, when
   * documents of kinds Holdfast does not read were rejected, a hint naming {@code --ignore-unknown-kinds}.
   */
  public String text() {
    StringBuilder out = new StringBuilder();
    fileErrors.forEach(e -> out.append(place(e)).append(e.message()).append('\n'));
    for (ResourceReport r : resources) {
      for (ReportedProblem p : r.problems()) {
        out.append(place(p)).append(r.key()).append(": ");
        if (p.severity() != Finding.Severity.ERROR) {
          out.append(p.severity().name().toLowerCase(Locale.ROOT)).append(": ");
        }
        out.append(p.reason()).append(": ");
        if (!p.field().isEmpty()) {
          out.append(p.field()).append(": ");
        }
        out.append(p.message()).append('\n');
      }
    }
    if (unknownKindsSkipped) {
      unknownKinds.forEach(u -> out.append(place(u)).append("note: skipped: ").append(u.message()).append('\n'));
    }
    buildProblems.forEach(p -> out.append("internal error: ").append(p).append('\n'));
    out.append(summary()).append('\n');
    if (!unknownKindsSkipped && !unknownKinds.isEmpty()) {
      out.append("hint: ").append(unknownKinds.size()).append(unknownKinds.size() == 1 ? " document is" : " documents are")
          .append(" of a kind Holdfast does not read (")
          .append(unknownKinds.stream().map(u -> u.message().replace(" is not a kind Holdfast reads", ""))
              .distinct().limit(5).collect(Collectors.joining(", ")))
          .append("); pass --ignore-unknown-kinds to skip them\n");
    }
    return out.toString();
  }

  private static String place(ReportedProblem p) {
    return p.at().map(a -> a.file() + ":" + a.line() + ":" + a.column() + ": ").orElse("");
  }

  /** E.g. {@code 5 resources: 3 accepted, 1 with warnings, 1 rejected; 1 file error; 2 skipped}. */
  public String summary() {
    return resources.size() + (resources.size() == 1 ? " resource: " : " resources: ")
        + count(ResourceStatus.State.ACCEPTED) + " accepted, " + count(ResourceStatus.State.WARNING)
        + " with warnings, " + count(ResourceStatus.State.REJECTED) + " rejected; " + fileErrors.size()
        + (fileErrors.size() == 1 ? " file error" : " file errors")
        + (unknownKindsSkipped && !unknownKinds.isEmpty() ? "; " + unknownKinds.size() + " skipped" : "")
        + (buildProblems.isEmpty() ? "" : "; " + buildProblems.size() + " internal "
        + (buildProblems.size() == 1 ? "error" : "errors"));
  }

  /**
   * The {@code --output json} document: plain maps and lists, ready for a JSON writer. Each problem, in
   * {@code resources[].problems}, {@code fileErrors} and {@code skipped}, is a {@link ReportedProblem#json()}.
   */
  public Map<String, Object> json() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("passed", passed());
    out.put("verdict", verdict().name());
    out.put("resources", resources.stream().map(r -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", r.file());
      m.put("line", r.line());
      m.put("group", r.key().group());
      m.put("kind", r.key().kind());
      m.put("namespace", r.key().namespace());
      m.put("name", r.key().name());
      m.put("state", r.state().name());
      m.put("problems", r.problems().stream().map(ReportedProblem::json).toList());
      return m;
    }).toList());
    out.put("fileErrors", fileErrors.stream().map(ReportedProblem::json).toList());
    out.put("skipped", unknownKindsSkipped ? unknownKinds.stream().map(ReportedProblem::json).toList() : List.of());
    out.put("buildProblems", buildProblems);
    return out;
  }

  private long count(ResourceStatus.State state) {
    return resources.stream().filter(r -> r.state() == state).count();
  }
}
