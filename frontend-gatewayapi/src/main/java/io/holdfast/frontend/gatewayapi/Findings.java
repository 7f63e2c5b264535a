package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The findings behind a Gateway API status: every condition that is False on a Gateway, one of its listeners or
 * one of a route's parents (and every reference a route could not resolve) becomes a finding with its reason and
 * the field it is about, so {@code holdfast validate}, {@code /state} and the status page show what the Kubernetes
 * status says. A finding is an error when the object as a whole is not accepted, else a warning (the object is
 * served; a part of it is not, or serves less than written).
 */
final class Findings {

  /** A field holds a value outside its enum (e.g. {@code path.type: Prefix}); the API server's schema refuses it. */
  static final String INVALID_ENUM = "InvalidEnumValue";
  /** A required field is missing (e.g. a listener without a port); the API server's schema would refuse it. */
  static final String MISSING_FIELD = "MissingRequiredField";
  /** Finding reason of a note that an older, accepted generation is served in place of this one. */
  static final String LAST_GOOD_SERVED = "LastAcceptedGenerationServed";

  private Findings() {
  }

  /** {@code status} with one finding per problem of {@code listeners} (or of the Gateway itself). */
  static ObjectStatus gateway(ObjectStatus status, List<ListenerState> listeners) {
    Finding.Severity severity = severity(status);
    List<Finding> findings = new ArrayList<>(status.findings());
    for (ListenerState listener : listeners) {
      for (ListenerState.Problem problem : listener.problems()) {
        // A listener that is served despite a problem (the last good certificate) is only ever a warning.
        findings.add(new Finding(listener.programmed() ? Finding.Severity.WARNING : severity,
            join(listener.field(), problem.field()), problem.finding(), problem.message()));
      }
    }
    if (findings.isEmpty()) {
      status.conditions().stream().filter(c -> c.status() == Condition.Status.FALSE)
          .forEach(c -> findings.add(new Finding(severity, "spec.listeners", c.reason(), c.message())));
    }
    return with(status, findings);
  }

  /** {@code status} (an object with no parts) with a finding for each of its False conditions, at {@code field}. */
  static ObjectStatus whole(ObjectStatus status, String field, String finding) {
    List<Finding> findings = new ArrayList<>(status.findings());
    status.conditions().stream().filter(c -> c.status() == Condition.Status.FALSE)
        .forEach(c -> findings.add(new Finding(severity(status), field, c.type().equals(Condition.ACCEPTED)
            ? finding : c.reason(), c.message())));
    return with(status, findings);
  }

  static Finding.Severity severity(ObjectStatus status) {
    return status.isAccepted() ? Finding.Severity.WARNING : Finding.Severity.ERROR;
  }

  static ObjectStatus with(ObjectStatus status, List<Finding> findings) {
    return new ObjectStatus(status.key(), status.observedGeneration(), status.conditions(), findings,
        status.parents(), status.sections());
  }

  static String join(String base, String field) {
    return field.isEmpty() ? base : base.isEmpty() ? field : base + "." + field;
  }
}
