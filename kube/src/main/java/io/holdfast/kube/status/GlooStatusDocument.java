package io.holdfast.kube.status;

import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The status of a Gloo Edge object in Gloo's own shape (issue 27): {@code status.statuses[<key>]} with
 * {@code state} (Accepted, Warning, Rejected), {@code reason} (the errors), {@code warnings} and
 * {@code reportedBy: holdfast}. That is where solo-kit puts a resource's {@code namespacedStatuses} on the cluster
 * (it patches {@code /status/statuses/<its namespace>}; {@code kubectl get vs -o yaml} on a Gloo cluster shows
 * {@code status.statuses.gloo-system}). Only Holdfast's entry is set: Gloo's own entries (a Gloo still running
 * beside Holdfast during a move) and any other status field are kept as they are.
 */
final class GlooStatusDocument {

  /**
   * The key of Holdfast's entry. Gloo keys its entry by the namespace its controller runs in; Holdfast's is the
   * namespace deploy/ installs it in.
   */
  static final String REPORTER_KEY = "holdfast-system";

  private GlooStatusDocument() {
  }

  static boolean isGloo(ResourceKey key) {
    // AuthConfig (and Settings) carry solo-kit's namespacedStatuses too; the rate limiter's RateLimitConfig has a
    // status of another shape, which Holdfast does not write (its verdict is on /state and from validate).
    return key.group().equals("gateway.solo.io") || key.group().equals("gloo.solo.io")
        || key.group().equals("enterprise.gloo.solo.io");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> compute(ResourceStatus verdict, Object existing) {
    Map<String, Object> status = existing instanceof Map<?, ?> map
        ? new LinkedHashMap<>((Map<String, Object>) map) : new LinkedHashMap<>();
    Map<String, Object> statuses = status.get("statuses") instanceof Map<?, ?> map
        ? new LinkedHashMap<>((Map<String, Object>) map) : new LinkedHashMap<>();
    Map<String, Object> entry = new LinkedHashMap<>();
    switch (verdict.state()) {
      case ACCEPTED -> entry.put("state", "Accepted");
      case WARNING -> {
        entry.put("state", "Warning");
        entry.put("warnings", verdict.problems().stream().map(GlooStatusDocument::line).toList());
      }
      default -> {
        entry.put("state", "Rejected");
        entry.put("reason", verdict.problems().stream().map(GlooStatusDocument::line)
            .collect(Collectors.joining("; ")));
      }
    }
    entry.put("reportedBy", "holdfast");
    statuses.put(REPORTER_KEY, entry);
    status.put("statuses", statuses);
    return status;
  }

  private static String line(Problem problem) {
    return (problem.field().isEmpty() ? "" : problem.field() + ": ") + problem.message() + " (" + problem.reason()
        + ")";
  }
}
