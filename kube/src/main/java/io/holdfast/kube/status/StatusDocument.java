package io.holdfast.kube.status;

import io.holdfast.api.Problem;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Kubernetes {@code status} of a gateway resource, computed from a {@link DesiredStatus} and the status the
 * object has now. Pure: no I/O, the time comes in as an argument. Holdfast owns the whole {@code status} stanza of
 * its own kinds:
 *
 * <pre>
 * status:
 *   observedGeneration: 3
 *   conditions:
 *   - type: Accepted
 *     status: "True" | "False"         # True for ACCEPTED and WARNING, False for REJECTED
 *     reason: Accepted | &lt;first problem's reason&gt;
 *     message: accepted | &lt;problems joined by "; ", at most 1024 characters&gt;
 *     observedGeneration: 3
 *     lastTransitionTime: 2025-01-01T00:00:00Z   # kept while status and reason stay the same
 *   nack:                              # only while a proxy rejects what was built from this resource
 *     node: ...  type: ...  version: ...  error: ...  at: ...
 * </pre>
 */
final class StatusDocument {
  static final String ACCEPTED = "Accepted";
  static final int MAX_MESSAGE = 1024;
  static final String ACCEPTED_MESSAGE = "accepted";

  private StatusDocument() {
  }

  /**
   * The status the object should have.
   *
   * @param existing the object's current {@code status} value (any JSON shape, or null)
   * @param now      used as {@code lastTransitionTime} when the Accepted condition changes
   */
  static Map<String, Object> compute(DesiredStatus desired, Object existing, Instant now) {
    ResourceStatus verdict = desired.verdict();
    String conditionStatus = verdict.isServed() ? "True" : "False";
    String reason = verdict.problems().isEmpty() ? ACCEPTED : verdict.problems().get(0).reason();
    String transition = keptTransitionTime(existing, conditionStatus, reason).orElse(timestamp(now));

    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("type", ACCEPTED);
    condition.put("status", conditionStatus);
    condition.put("reason", reason);
    condition.put("message", message(verdict.problems()));
    condition.put("observedGeneration", verdict.observedGeneration());
    condition.put("lastTransitionTime", transition);

    Map<String, Object> status = new LinkedHashMap<>();
    status.put("observedGeneration", verdict.observedGeneration());
    status.put("conditions", List.of(condition));
    desired.nack().ifPresent(n -> status.put("nack", nack(n)));
    return status;
  }

  /** Whether two status values are the same JSON, ignoring integer widths (Jackson reads small longs as ints). */
  static boolean same(Object a, Object b) {
    return Objects.equals(normalize(a), normalize(b));
  }

  /** The problems as one bounded line; the tail is summarised as a count instead of being cut mid-word. */
  static String message(List<Problem> problems) {
    if (problems.isEmpty()) {
      return ACCEPTED_MESSAGE;
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < problems.size(); i++) {
      String next = (i == 0 ? "" : "; ") + problems.get(i);
      String more = "; and " + (problems.size() - i - 1) + " more";
      boolean last = i == problems.size() - 1;
      if (out.length() + next.length() + (last ? 0 : more.length()) <= MAX_MESSAGE) {
        out.append(next);
        continue;
      }
      if (i == 0) {
        return truncate(next, MAX_MESSAGE);
      }
      return out.append("; and ").append(problems.size() - i).append(" more").toString();
    }
    return out.toString();
  }

  private static Map<String, Object> nack(NackEvent n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("node", n.nodeId());
    m.put("type", n.typeUrl());
    m.put("version", n.rejectedVersion());
    m.put("error", truncate(n.errorDetail(), MAX_MESSAGE));
    m.put("at", timestamp(n.at()));
    return m;
  }

  private static java.util.Optional<String> keptTransitionTime(Object existing, String status, String reason) {
    if (!(existing instanceof Map<?, ?> m) || !(m.get("conditions") instanceof List<?> conditions)) {
      return java.util.Optional.empty();
    }
    for (Object c : conditions) {
      if (c instanceof Map<?, ?> cond && ACCEPTED.equals(cond.get("type"))) {
        Object time = cond.get("lastTransitionTime");
        if (status.equals(cond.get("status")) && reason.equals(cond.get("reason"))
            && time instanceof String s && !s.isEmpty()) {
          return java.util.Optional.of(s);
        }
        return java.util.Optional.empty();
      }
    }
    return java.util.Optional.empty();
  }

  /** RFC 3339 in seconds, as Kubernetes writes its own timestamps. */
  static String timestamp(Instant t) {
    return t.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static String truncate(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 3) + "...";
  }

  private static Object normalize(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(k, normalize(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(normalize(x)));
      return out;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof java.math.BigInteger b && b.bitLength() < 64) {
      return b.longValue();
    }
    return v;
  }
}
