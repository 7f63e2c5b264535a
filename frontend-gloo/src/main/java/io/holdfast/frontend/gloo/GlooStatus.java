package io.holdfast.frontend.gloo;

import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.util.Objects;
import java.util.stream.Collectors;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Gloo object's status in Gloo's own shape, so tools reading Gloo's statuses ({@code glooctl check}, dashboards,
 * {@code kubectl get vs}'s columns) read Holdfast's: {@code status.namespacedStatuses.statuses[<controller
 * namespace>]} with {@code state} (Accepted, Rejected or Warning), {@code reason} (the findings, one line each,
 * with their field and reason code), {@code reportedBy} and, when served with findings, {@code warnings}. Computed
 * from the front end's {@link ObjectStatus} without side effects; writing it is the status writer's job.
 */
public final class GlooStatus {

  /** The {@code reportedBy} Holdfast writes, where Gloo writes {@code gateway} or {@code gloo}. */
  public static final String REPORTED_BY = "holdfast";

  /** Gloo's states, as its API spells them. */
  public enum State {
    Pending, Rejected, Accepted, Warning
  }

  private GlooStatus() {
  }

  /** Gloo's state for {@code status}: Rejected when not served, Warning when served with findings, else Accepted. */
  public static State state(ObjectStatus status) {
    if (!status.isAccepted()) {
      return State.Rejected;
    }
    return status.findings().isEmpty() ? State.Accepted : State.Warning;
  }

  /**
   * The {@code status} subresource body, keyed by {@code controllerNamespace} as Gloo keys it (the namespace of the
   * controller that reports, so several controllers' verdicts can sit side by side).
   */
  public static ObjectNode body(ObjectStatus status, String controllerNamespace) {
    Objects.requireNonNull(controllerNamespace, "controllerNamespace");
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode entry = nodes.objectNode();
    State state = state(status);
    entry.put("state", state.name());
    entry.put("reportedBy", REPORTED_BY);
    if (state == State.Rejected) {
      entry.put("reason", status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR)
          .map(Finding::toString).collect(Collectors.joining("; ")));
    } else if (state == State.Warning) {
      ArrayNode warnings = entry.putArray("warnings");
      status.findings().forEach(f -> warnings.add(f.toString()));
    }
    ObjectNode body = nodes.objectNode();
    body.putObject("namespacedStatuses").putObject("statuses").set(controllerNamespace, entry);
    return body;
  }
}
