package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.Listener;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Listener.DownstreamTls;
import io.holdfast.ir.SectionStatus;
import io.holdfast.ir.SectionStatus.GroupKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one build learns about one listener of a Gateway: its spec with defaults applied, the problems found on it
 * (each one a condition of its status section), its TLS once its certificate resolved, and how many routes attach.
 * Filled by {@link ListenerRules} and the route attachment, in that order, on the one pipeline thread.
 */
final class ListenerState {

  /**
   * A condition's False (or, for Conflicted, True) reason and message, with where it was found for the finding
   * that reports it.
   *
   * @param field   path inside the listener (or route parentRef), e.g. {@code tls.certificateRefs[0]}; empty for
   *                the whole element
   * @param finding the finding's reason: the condition's, or a more precise one ({@link Findings#INVALID_ENUM},
   *                {@link Findings#MISSING_FIELD}) where the specification's condition reasons are coarser
   */
  record Problem(String reason, String message, String field, String finding) {
    Problem {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(field, "field");
      Objects.requireNonNull(finding, "finding");
    }

    Problem(String reason, String message) {
      this(reason, message, "", reason);
    }

    Problem(String reason, String message, String field) {
      this(reason, message, field, reason);
    }
  }

  static final String HTTP = "HTTP";
  static final String HTTPS = "HTTPS";
  static final String TLS = "TLS";
  static final String TCP = "TCP";
  static final String PROGRAMMED = "Programmed";
  static final String RESOLVED_REFS = "ResolvedRefs";
  static final String CONFLICTED = "Conflicted";

  final int index;
  final Listener spec;
  final String name;
  final int port;
  final String protocol;
  final Optional<String> hostname;
  List<GroupKind> supportedKinds = List.of();
  Optional<Problem> notAccepted = Optional.empty();
  Optional<Problem> unresolvedRefs = Optional.empty();
  Optional<Problem> conflict = Optional.empty();
  /** Set when the listener's certificate refs are unusable: ResolvedRefs=False, and it is not programmed. */
  boolean certificateUnusable;
  Optional<DownstreamTls> tls = Optional.empty();
  int attachedRoutes;

  ListenerState(int index, Listener spec) {
    this.index = index;
    this.spec = spec;
    this.name = Objects.requireNonNullElse(spec.getName(), "");
    this.port = spec.getPort() == null ? 0 : spec.getPort();
    this.protocol = Objects.requireNonNullElse(spec.getProtocol(), "");
    this.hostname = Optional.ofNullable(spec.getHostname()).filter(h -> !h.isEmpty());
  }

  /** The field path of this listener in its Gateway. */
  String field() {
    return "spec.listeners[" + index + "]";
  }

  /** Whether routes may attach: the listener is accepted (conflicted and unresolved ones still count routes). */
  boolean accepted() {
    return notAccepted.isEmpty();
  }

  /** Whether the proxies serve it. */
  boolean programmed() {
    return accepted() && conflict.isEmpty() && !certificateUnusable && !supportedKinds.isEmpty();
  }

  boolean accepts(GroupKind kind) {
    return supportedKinds.contains(kind);
  }

  SectionStatus status(long generation) {
    Condition accepted = notAccepted
        .map(p -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE, p.reason(), p.message(), generation))
        .orElseGet(() -> new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED,
            "the listener is accepted", generation));
    Condition resolved = unresolvedRefs
        .map(p -> new Condition(RESOLVED_REFS, Condition.Status.FALSE, p.reason(), p.message(), generation))
        .orElseGet(() -> new Condition(RESOLVED_REFS, Condition.Status.TRUE, RESOLVED_REFS,
            "every reference resolved", generation));
    Condition conflicted = conflict
        .map(p -> new Condition(CONFLICTED, Condition.Status.TRUE, p.reason(), p.message(), generation))
        .orElseGet(() -> new Condition(CONFLICTED, Condition.Status.FALSE, "NoConflicts",
            "no conflict with another listener", generation));
    Condition programmed = programmed()
        ? new Condition(PROGRAMMED, Condition.Status.TRUE, PROGRAMMED, "served on port " + port, generation)
        : new Condition(PROGRAMMED, Condition.Status.FALSE, "Invalid", "not served: " + whyNotProgrammed(),
            generation);
    return new SectionStatus(name, List.of(accepted, programmed, resolved, conflicted), supportedKinds,
        attachedRoutes);
  }

  /** The problems its status reports, in the order of its conditions. */
  List<Problem> problems() {
    List<Problem> out = new java.util.ArrayList<>();
    notAccepted.ifPresent(out::add);
    conflict.ifPresent(out::add);
    unresolvedRefs.ifPresent(out::add);
    if (out.isEmpty() && !programmed()) {
      out.add(new Problem("Invalid", "not served: " + whyNotProgrammed(), "allowedRoutes.kinds"));
    }
    return out;
  }

  private String whyNotProgrammed() {
    return notAccepted.or(() -> conflict).or(() -> unresolvedRefs).map(Problem::message)
        .orElse("it supports none of the route kinds it allows");
  }
}
