package io.holdfast.pipeline;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How the latest build went, for {@code /state}, the status page's banner and readiness: whether the config it was
 * given is what is now served, and which failures of Holdfast it contained on the way.
 *
 * @param at       when the build ended
 * @param served   true if the build's snapshot is served; false if it failed (translation, publication) and the
 *                 previous snapshot is still served
 * @param problems the failures contained (or, when not served, the one that stopped it)
 */
public record BuildOutcome(Instant at, boolean served, List<BuildProblem> problems) {

  /** What the banner says, from worst to best. */
  public enum Verdict {
    /** The config given was not served: the previous snapshot still is. */
    FAILED,
    /** Served, but some objects were left out or stand in from a last good build because Holdfast failed. */
    DEGRADED,
    /** Served as given. */
    OK
  }

  public BuildOutcome {
    Objects.requireNonNull(at, "at");
    problems = List.copyOf(problems);
  }

  public Verdict verdict() {
    return !served ? Verdict.FAILED : problems.isEmpty() ? Verdict.OK : Verdict.DEGRADED;
  }

  /** The first problem's stage, the one an operator looks at first. */
  public Optional<BuildProblem.Stage> failedStage() {
    return problems.stream().findFirst().map(BuildProblem::stage);
  }

  /** A JSON-friendly view for {@code /state}. */
  public Map<String, Object> toState() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("at", at.toString());
    out.put("outcome", verdict().name().toLowerCase(java.util.Locale.ROOT));
    out.put("stage", failedStage().map(BuildProblem.Stage::label).orElse(null));
    out.put("message", problems.stream().findFirst().map(BuildProblem::message).orElse(null));
    out.put("problems", problems.stream().map(p -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("stage", p.stage().label());
      m.put("message", p.message());
      m.put("objects", p.objects().stream().map(Object::toString).toList());
      return m;
    }).toList());
    return out;
  }
}
