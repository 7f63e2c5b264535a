package io.holdfast.ir;

import java.util.Objects;

/**
 * One observation about an object, or about an object as seen from one parent, in the shape Kubernetes and the
 * Gateway API use ({@code type}, {@code status}, {@code reason}, {@code message}, {@code observedGeneration}).
 * An object has at most one condition of each type. The writer adds {@code lastTransitionTime}.
 *
 * @param reason CamelCase code, stable: machines match on it
 */
public record Condition(String type, Status status, String reason, String message, long observedGeneration) {

  /** Whether the object is served (True) or not (False). */
  public static final String ACCEPTED = "Accepted";
  /**
   * Whether the object's config is sent to the proxies (the Gateway API's Gateway); the IR turns it False on an
   * object it leaves out ({@link IrBuilder#build}).
   */
  public static final String PROGRAMMED = "Programmed";

  public enum Status {
    TRUE, FALSE, UNKNOWN
  }

  public Condition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    if (type.isEmpty() || reason.isEmpty()) {
      throw new IllegalArgumentException("a condition needs a type and a reason: " + type + "/" + reason);
    }
  }
}
