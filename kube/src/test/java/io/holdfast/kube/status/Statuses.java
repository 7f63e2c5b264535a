package io.holdfast.kube.status;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.frontend.holdfast.ResourceStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Desired statuses and readers of written ones, for the tests. */
final class Statuses {
  static final String NS = "apps";
  static final ResourceKey GATEWAY = ResourceKey.gateway(NS, "edge");
  static final ResourceKey VS = ResourceKey.virtualService(NS, "shop");
  static final ResourceKey UPSTREAM = ResourceKey.upstream(NS, "echo");
  static final List<ResourceKey> ALL = List.of(GATEWAY, VS, UPSTREAM);
  /** A Gloo Edge VirtualService: its status is written through the object (Gloo's CRD has no /status). */
  static final ResourceKey GLOO_VS = new ResourceKey("gateway.solo.io", "VirtualService", NS, "shop");

  private Statuses() {
  }

  static ResourceStatus verdict(ResourceKey key, long generation, State state) {
    List<Problem> problems = switch (state) {
      case ACCEPTED -> List.of();
      case WARNING -> List.of(new Problem("spec.retries", Reasons.FIELD_IGNORED, "retries are ignored here"));
      case REJECTED -> List.of(new Problem("spec.routes[0].upstream", Reasons.UPSTREAM_NOT_FOUND,
          "upstream apps/missing does not exist"));
    };
    return new ResourceStatus(key, generation, state, problems);
  }

  /** Every key with the same state and generation. */
  static Map<ResourceKey, DesiredStatus> all(List<ResourceKey> keys, long generation, State state) {
    Map<ResourceKey, DesiredStatus> m = new LinkedHashMap<>();
    keys.forEach(k -> m.put(k, DesiredStatus.of(verdict(k, generation, state))));
    return m;
  }

  private static String glooState(State state) {
    return switch (state) {
      case ACCEPTED -> "Accepted";
      case WARNING -> "Warning";
      case REJECTED -> "Rejected";
    };
  }

  /** The Accepted condition of a status value, or an empty map. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> accepted(Object status) {
    if (status instanceof Map<?, ?> m && m.get("conditions") instanceof List<?> l) {
      for (Object c : l) {
        if (c instanceof Map<?, ?> cond && "Accepted".equals(cond.get("type"))) {
          return (Map<String, Object>) cond;
        }
      }
    }
    return Map.of();
  }

  /**
   * Whether the object's status says what {@code d} says: condition status, reason, generation; for a Gloo Edge
   * object, the state of Holdfast's entry in Gloo's shape (which carries no generation).
   */
  static boolean shows(Object status, DesiredStatus d) {
    if (GlooStatusDocument.isGloo(d.verdict().key())) {
      return status instanceof Map<?, ?> m && m.get("statuses") instanceof Map<?, ?> entries
          && entries.get(GlooStatusDocument.REPORTER_KEY) instanceof Map<?, ?> ours
          && glooState(d.verdict().state()).equals(ours.get("state"));
    }
    Map<String, Object> c = accepted(status);
    String want = d.verdict().isServed() ? "True" : "False";
    String reason = d.verdict().problems().isEmpty() ? "Accepted" : d.verdict().problems().get(0).reason();
    return want.equals(c.get("status")) && reason.equals(c.get("reason"))
        && c.get("observedGeneration") instanceof Number g && g.longValue() == d.verdict().observedGeneration()
        && status instanceof Map<?, ?> m && m.get("observedGeneration") instanceof Number og
        && og.longValue() == d.verdict().observedGeneration()
        && (d.nack().isPresent() == (m.get("nack") != null));
  }
}
