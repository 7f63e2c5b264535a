package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a build found about one object: its conditions (at most one per type, always an {@link Condition#ACCEPTED}
 * one), the findings behind them with their field paths, and per-parent conditions where its API has parents.
 *
 * @param findings errors first, then warnings, then notes; each group in the order found
 * @param sections per-part statuses where its API reports parts (a Gateway API Gateway's listeners), in order
 */
public record ObjectStatus(ResourceKey key, long observedGeneration, List<Condition> conditions,
    List<Finding> findings, List<ParentStatus> parents, List<SectionStatus> sections) {

  public ObjectStatus {
    Objects.requireNonNull(key, "key");
    conditions = uniqueTypes(conditions);
    List<Finding> ordered = new ArrayList<>(findings);
    ordered.sort(Comparator.comparing(Finding::severity));
    findings = List.copyOf(ordered);
    parents = List.copyOf(parents);
    sections = List.copyOf(sections);
    if (conditions.stream().noneMatch(c -> c.type().equals(Condition.ACCEPTED))) {
      throw new IllegalArgumentException(key + ": no " + Condition.ACCEPTED + " condition");
    }
  }

  /** A status without sections (the Holdfast kinds'). */
  public ObjectStatus(ResourceKey key, long observedGeneration, List<Condition> conditions, List<Finding> findings,
      List<ParentStatus> parents) {
    this(key, observedGeneration, conditions, findings, parents, List.of());
  }

  /**
   * The status of an object whose findings decide it: Accepted is False when there is an error (reason: the first
   * error's), else True (reason {@code Accepted}); the message lists the findings.
   */
  public static ObjectStatus of(ResourceKey key, long observedGeneration, List<Finding> findings) {
    Optional<Finding> error = findings.stream().filter(f -> f.severity() == Finding.Severity.ERROR).findFirst();
    String message = findings.isEmpty() ? "accepted"
        : findings.stream().sorted(Comparator.comparing(Finding::severity)).map(Finding::toString)
            .collect(Collectors.joining("; "));
    Condition accepted = error
        .map(e -> new Condition(Condition.ACCEPTED, Condition.Status.FALSE, e.reason(), message, observedGeneration))
        .orElseGet(() -> new Condition(Condition.ACCEPTED, Condition.Status.TRUE, Condition.ACCEPTED, message,
            observedGeneration));
    return new ObjectStatus(key, observedGeneration, List.of(accepted), findings, List.of());
  }

  /**
   * This status with one more finding (an IR claim lost, an invariant breach, a front end's last good build standing
   * in), every condition but Accepted kept as it is: a Gateway API Gateway's Programmed, a GatewayClass's
   * SupportedVersion. An Accepted condition {@link #of} derived from the findings is derived again; one its front
   * end wrote in its API's terms is kept unless the finding is an error on an object still accepted, which turns
   * it False with the error's reason. Parents and sections are kept.
   */
  public ObjectStatus with(Finding finding) {
    List<Finding> more = new ArrayList<>(findings);
    more.add(finding);
    ObjectStatus derived = of(key, observedGeneration, more);
    Condition accepted = condition(Condition.ACCEPTED);
    if (accepted.equals(of(key, observedGeneration, findings).condition(Condition.ACCEPTED))) {
      accepted = derived.condition(Condition.ACCEPTED);
    } else if (finding.severity() == Finding.Severity.ERROR && accepted.status() != Condition.Status.FALSE) {
      accepted = new Condition(Condition.ACCEPTED, Condition.Status.FALSE, finding.reason(), finding.toString(),
          observedGeneration);
    }
    return new ObjectStatus(key, observedGeneration, replaced(accepted), derived.findings, parents, sections);
  }

  /**
   * This status with {@code condition} in place of the one of its type (in the same position), or added last if it
   * has none of that type.
   */
  public ObjectStatus withCondition(Condition condition) {
    return new ObjectStatus(key, observedGeneration, replaced(condition), findings, parents, sections);
  }

  private List<Condition> replaced(Condition condition) {
    List<Condition> out = new ArrayList<>(conditions);
    out.replaceAll(c -> c.type().equals(condition.type()) ? condition : c);
    if (out.stream().noneMatch(c -> c.type().equals(condition.type()))) {
      out.add(condition);
    }
    return out;
  }

  /** This status with one more parent entry. */
  public ObjectStatus withParent(ParentStatus parent) {
    List<ParentStatus> more = new ArrayList<>(parents);
    more.add(parent);
    return new ObjectStatus(key, observedGeneration, conditions, findings, more, sections);
  }

  /** This status with one more section entry. */
  public ObjectStatus withSection(SectionStatus section) {
    List<SectionStatus> more = new ArrayList<>(sections);
    more.add(section);
    return new ObjectStatus(key, observedGeneration, conditions, findings, parents, more);
  }

  /** This status with {@code extra} conditions added (types not yet present), e.g. Programmed beside Accepted. */
  public ObjectStatus withConditions(List<Condition> extra) {
    List<Condition> all = new ArrayList<>(conditions);
    all.addAll(extra);
    return new ObjectStatus(key, observedGeneration, all, findings, parents, sections);
  }

  public Condition condition(String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(key + " has no condition " + type));
  }

  /** True if the object is served (its Accepted condition is not False). */
  public boolean isAccepted() {
    return condition(Condition.ACCEPTED).status() != Condition.Status.FALSE;
  }

  static List<Condition> uniqueTypes(List<Condition> conditions) {
    Set<String> types = new HashSet<>();
    for (Condition condition : conditions) {
      if (!types.add(condition.type())) {
        throw new IllegalArgumentException("condition " + condition.type() + " is given twice");
      }
    }
    return List.copyOf(conditions);
  }
}
