package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StatusDocumentTest {
  private static final ResourceKey KEY = ResourceKey.virtualService("apps", "shop");
  private static final Instant T1 = Instant.parse("2025-03-01T10:00:00.750Z");
  private static final Instant T2 = Instant.parse("2025-03-01T11:30:00Z");

  private static DesiredStatus desired(long generation, State state, Problem... problems) {
    return DesiredStatus.of(new ResourceStatus(KEY, generation, state, List.of(problems)));
  }

  private static Problem problem(String reason, String message) {
    return new Problem("spec.routes[0]", reason, message);
  }

  @Test
  void acceptedIsTrueWithReasonAcceptedAndTheGenerationTwice() {
    Map<String, Object> s = StatusDocument.compute(desired(7, State.ACCEPTED), null, T1);
    assertThat(s).containsEntry("observedGeneration", 7L).doesNotContainKey("nack");
    assertThat(Statuses.accepted(s)).containsExactlyInAnyOrderEntriesOf(Map.of("type", "Accepted", "status", "True",
        "reason", "Accepted", "message", "accepted", "observedGeneration", 7L,
        "lastTransitionTime", "2025-03-01T10:00:00Z"));
  }

  @Test
  void rejectedIsFalseWithTheFirstProblemsReasonAndAllProblemsInTheMessage() {
    Map<String, Object> s = StatusDocument.compute(desired(2, State.REJECTED,
        problem(Reasons.UPSTREAM_NOT_FOUND, "upstream apps/a does not exist"),
        problem(Reasons.INVALID_REGEX, "bad regex")), null, T1);
    Map<String, Object> c = Statuses.accepted(s);
    assertThat(c).containsEntry("status", "False").containsEntry("reason", "UpstreamNotFound");
    assertThat(c.get("message")).isEqualTo("spec.routes[0]: upstream apps/a does not exist (UpstreamNotFound); "
        + "spec.routes[0]: bad regex (InvalidRegex)");
  }

  @Test
  void warningIsStillTrueButSaysWhy() {
    Map<String, Object> c = Statuses.accepted(StatusDocument.compute(
        desired(1, State.WARNING, problem(Reasons.FIELD_IGNORED, "ignored")), null, T1));
    assertThat(c).containsEntry("status", "True").containsEntry("reason", "FieldIgnored");
  }

  @Test
  void lastTransitionTimeIsKeptWhileStatusAndReasonStayTheSame() {
    Map<String, Object> before = StatusDocument.compute(
        desired(1, State.REJECTED, problem(Reasons.INVALID_REGEX, "first")), null, T1);
    // New generation and message, same status and reason: same transition time.
    Map<String, Object> after = StatusDocument.compute(
        desired(2, State.REJECTED, problem(Reasons.INVALID_REGEX, "second")), before, T2);
    assertThat(Statuses.accepted(after)).containsEntry("lastTransitionTime", "2025-03-01T10:00:00Z")
        .containsEntry("observedGeneration", 2L);
    // Reason changes: new time.
    Map<String, Object> reason = StatusDocument.compute(
        desired(2, State.REJECTED, problem(Reasons.INVALID_PATH, "other")), before, T2);
    assertThat(Statuses.accepted(reason)).containsEntry("lastTransitionTime", "2025-03-01T11:30:00Z");
    // Status flips: new time.
    Map<String, Object> flipped = StatusDocument.compute(desired(2, State.ACCEPTED), before, T2);
    assertThat(Statuses.accepted(flipped)).containsEntry("lastTransitionTime", "2025-03-01T11:30:00Z");
  }

  @Test
  void recomputingOnItsOwnOutputChangesNothingEvenAfterAJsonRoundTrip() {
    DesiredStatus d = desired(3, State.REJECTED, problem(Reasons.INVALID_REGEX, "bad"));
    Map<String, Object> written = StatusDocument.compute(d, null, T1);
    // What the API returns: JSON parsed back, small numbers as Integer.
    Object readBack = Serialization.unmarshal(Serialization.asJson(written), Map.class);
    assertThat(((Map<?, ?>) readBack).get("observedGeneration")).isInstanceOf(Integer.class);
    assertThat(StatusDocument.same(StatusDocument.compute(d, readBack, T2), readBack)).isTrue();
    assertThat(StatusDocument.same(StatusDocument.compute(desired(4, State.REJECTED,
        problem(Reasons.INVALID_REGEX, "bad")), readBack, T2), readBack)).isFalse();
  }

  @Test
  void theMessageIsBoundedAndCountsWhatItLeavesOut() {
    Problem[] many = IntStream.range(0, 200).mapToObj(i -> problem(Reasons.INVALID_VALUE, "value " + i + " is wrong"))
        .toArray(Problem[]::new);
    String m = StatusDocument.message(List.of(many));
    assertThat(m.length()).isLessThanOrEqualTo(StatusDocument.MAX_MESSAGE);
    assertThat(m).startsWith("spec.routes[0]: value 0 is wrong (InvalidValue)").matches(".*; and \\d+ more$");
    int shown = m.split("; ").length - 1;
    assertThat(m).endsWith("; and " + (200 - shown) + " more");

    String huge = StatusDocument.message(List.of(problem(Reasons.INVALID_VALUE, "x".repeat(5000))));
    assertThat(huge).hasSize(StatusDocument.MAX_MESSAGE).endsWith("...");
  }

  @Test
  void aNackIsReportedWithNodeTypeVersionErrorAndTime() {
    NackEvent nack = new NackEvent("envoy-1", "type.googleapis.com/envoy.config.route.v3.RouteConfiguration", "v42",
        List.of("shop"), "invalid regex", T1);
    Map<String, Object> s = StatusDocument.compute(
        new DesiredStatus(new ResourceStatus(KEY, 1, State.ACCEPTED, List.of()), Optional.of(nack)), null, T2);
    assertThat(s.get("nack")).isEqualTo(Map.of("node", "envoy-1",
        "type", "type.googleapis.com/envoy.config.route.v3.RouteConfiguration", "version", "v42",
        "error", "invalid regex", "at", "2025-03-01T10:00:00Z"));
  }
}
