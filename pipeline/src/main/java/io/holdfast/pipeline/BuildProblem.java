package io.holdfast.pipeline;

import io.holdfast.api.ResourceKey;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A failure inside Holdfast that a build contained: a front end that threw, an invariant of the IR that broke, a
 * translation that failed. Never the user's fault (their mistakes are findings on their objects); each one is
 * counted in {@code holdfast_config_build_failures_total{stage}} and shown on {@code /state} and the status page.
 *
 * @param objects the objects left out because of it; empty when none could be named
 * @param message what failed, for the operator (and the bug report)
 */
public record BuildProblem(Stage stage, List<ResourceKey> objects, String message) {

  /** Where in the build it happened. */
  public enum Stage {
    /** Lowering one API's objects (the Holdfast or the Gateway API front end). */
    FRONTEND,
    /** Settling claims and assembling the IR. */
    IR,
    /** Turning the IR into xDS resources. */
    TRANSLATE,
    /** Serving the snapshot and publishing the statuses. */
    PUBLISH;

    /** The metric and {@code /state} label. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public BuildProblem {
    Objects.requireNonNull(stage, "stage");
    objects = List.copyOf(objects);
    Objects.requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return stage.label() + ": " + message + (objects.isEmpty() ? "" : " (left out: " + objects + ")");
  }
}
