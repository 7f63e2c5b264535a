package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ApiObject;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Claims.Claimant;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Policy attachment as in GEP-713, for every Holdfast policy kind: a policy names its targets in
 * {@code spec.targetRefs} ({@code group}, {@code kind}, {@code name}, optional {@code sectionName}; always in the
 * policy's own namespace: a local reference has no namespace). What a kind may target, and how strictly its
 * references are read, are its {@link Rules}. Each target is resolved: one that does not exist is
 * {@link #TARGET_NOT_FOUND}; of several policies of one kind on the same target the oldest (creation time, then
 * namespace and name) wins and the others are {@link #CONFLICTED} there; a reference the kind cannot take is
 * {@link #INVALID} on its own. A consumer then asks for the winner of the most specific target that has one
 * ({@link Resolution#effective}). The policy's status lists each target as an ancestor with its {@code Accepted}
 * condition (the Gateway API policy-status shape); the policy as a whole is accepted if any target is.
 *
 * <p>Bounded: at most {@link #MAX_TARGETS} targets per policy; each policy and target is looked at a constant
 * number of times. Pure: statuses are returned, not written; the order of the policies given does not matter.
 */
final class PolicyTargets {

  /** More targets per policy than this are refused: GEP-713 suggests 16 as the schema's bound. */
  static final int MAX_TARGETS = 16;
  static final String ACCEPTED = "Accepted";
  static final String CONFLICTED = "Conflicted";
  static final String TARGET_NOT_FOUND = "TargetNotFound";
  static final String INVALID = "Invalid";
  /** A policy without targetRefs that no ExtensionRef filter names: it applies nowhere (a warning). */
  static final String NO_TARGETS = "NoTargets";

  private PolicyTargets() {
  }

  /** A target, in the policy's namespace: a Gateway, or an HTTPRoute, or one listener of a Gateway. */
  record Target(ResourceKey object, Optional<String> section) implements Comparable<Target> {
    private static final Comparator<Target> ORDER = Comparator.comparing(Target::object)
        .thenComparing(t -> t.section().orElse(""));

    @Override
    public int compareTo(Target other) {
      return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
      return object + section.map(s -> "/" + s).orElse("");
    }
  }

  /**
   * What one policy kind may target.
   *
   * @param kinds        the targets' kinds as {@code group/kind}
   * @param sectionKinds the kinds a target may name a section of ({@code sectionName}); on another kind the
   *                     reference is {@link #INVALID} on its own
   * @param strict       whether a reference to another kind (or with a namespace, or without a name) makes the whole
   *                     policy invalid; else that reference alone is {@link #INVALID} and the others resolve
   * @param referable    whether a route rule may name the kind in an ExtensionRef filter: then it may have no
   *                     targetRefs at all (it applies where rules name it)
   */
  record Rules(Set<String> kinds, Set<String> sectionKinds, boolean strict, boolean referable) {
    Rules {
      kinds = Set.copyOf(kinds);
      sectionKinds = Set.copyOf(sectionKinds);
    }
  }

  /**
   * A policy with its parsed targets, or the reason its targets cannot be read.
   *
   * @param refused the targets it names that its kind cannot take, with why; they resolve to {@link #INVALID}
   */
  record Policy(ApiObject object, Optional<Instant> created, List<Target> targets, Map<Target, String> refused,
      Optional<String> invalid) {
    Policy {
      targets = List.copyOf(targets);
      refused = Map.copyOf(refused);
    }

    Claimant claimant() {
      return new Claimant(object.key(), created);
    }
  }

  /** How one target of a policy resolved. */
  record Outcome(String reason, String message) {
    boolean accepted() {
      return reason.equals(ACCEPTED);
    }
  }

  /** Reads {@code spec.targetRefs} of {@code object} under {@code rules}. */
  static Policy read(ApiObject object, Rules rules) {
    Optional<Instant> created = created(object);
    JsonNode refs = object.at("/spec/targetRefs");
    if (rules.referable() && (refs.isMissingNode() || refs.isNull() || (refs.isArray() && refs.isEmpty()))) {
      return new Policy(object, created, List.of(), Map.of(), Optional.empty());
    }
    if (!refs.isArray() || refs.isEmpty()) {
      return new Policy(object, created, List.of(), Map.of(),
          Optional.of("spec.targetRefs needs at least one target"));
    }
    if (refs.size() > MAX_TARGETS && rules.strict()) {
      return new Policy(object, created, List.of(), Map.of(), Optional.of("spec.targetRefs has " + refs.size()
          + " targets; at most " + MAX_TARGETS));
    }
    List<Target> targets = new ArrayList<>();
    Map<Target, String> refused = new LinkedHashMap<>();
    String namespace = object.key().namespace();
    for (int i = 0; i < refs.size() && i < MAX_TARGETS; i++) {
      JsonNode ref = refs.get(i);
      String group = ref.path("group").asString(GatewayApiFrontEnd.GROUP);
      String kind = ref.path("kind").asString("");
      String name = ref.path("name").asString("");
      Optional<String> section = ref.hasNonNull("sectionName")
          ? Optional.of(ref.path("sectionName").asString("")) : Optional.empty();
      Target target = new Target(new ResourceKey(group, kind, namespace, name), section);
      if (!rules.kinds().contains(group + "/" + kind) || name.isEmpty() || ref.has("namespace")) {
        String problem = "spec.targetRefs[" + i + "] must name a " + String.join(" or ", new TreeSet<>(rules.kinds()))
            + " by name in the policy's namespace, got " + group + "/" + kind + " " + name
            + (ref.has("namespace") ? " with a namespace" : "");
        if (rules.strict()) {
          return new Policy(object, created, List.of(), Map.of(), Optional.of(problem));
        }
        refused.putIfAbsent(target, problem);
      } else if (section.isPresent() && !rules.sectionKinds().contains(group + "/" + kind)) {
        refused.putIfAbsent(target, "sectionName on " + kind + " target " + name + " is not supported; target the"
            + " whole " + kind);
      }
      targets.add(target);
    }
    return new Policy(object, created, targets, refused, Optional.empty());
  }

  /**
   * Each valid policy's targets resolved against what {@code exists}.
   *
   * @param refusal why an existing target cannot take this policy kind (e.g. a listener sharing its connection
   *                manager with others), as a non-accepted outcome; such a target wins nothing
   */
  static Resolution resolve(List<Policy> policies, Predicate<Target> exists,
      java.util.function.Function<Target, Optional<Outcome>> refusal) {
    List<Policy> oldestFirst = new ArrayList<>(policies);
    oldestFirst.sort(Comparator.comparing(Policy::claimant, Claimant.OLDEST_FIRST));
    Map<Target, Policy> winners = new TreeMap<>();
    Map<ResourceKey, Map<Target, Outcome>> outcomes = new TreeMap<>();
    for (Policy policy : oldestFirst) {
      Map<Target, Outcome> mine = new LinkedHashMap<>();
      outcomes.put(policy.object().key(), mine);
      if (policy.invalid().isPresent()) {
        continue;
      }
      for (Target target : policy.targets()) {
        String refusedHere = policy.refused().get(target);
        if (refusedHere != null) {
          mine.put(target, new Outcome(INVALID, refusedHere));
          continue;
        }
        if (!exists.test(target)) {
          mine.put(target, new Outcome(TARGET_NOT_FOUND, target + " does not exist"));
          continue;
        }
        Optional<Outcome> refused = refusal.apply(target);
        if (refused.isPresent()) {
          mine.put(target, refused.get());
          continue;
        }
        Policy winner = winners.putIfAbsent(target, policy);
        mine.put(target, winner == null || winner == policy
            ? new Outcome(ACCEPTED, "applies to " + target)
            : new Outcome(CONFLICTED, winner.object().key() + " is older and applies to " + target + " instead"));
      }
    }
    return new Resolution(winners, outcomes);
  }

  /** The outcome of resolving every policy of one kind. */
  record Resolution(Map<Target, Policy> winners, Map<ResourceKey, Map<Target, Outcome>> outcomes) {

    /** The winner of the first of {@code mostSpecificFirst} that has one. */
    Optional<Policy> effective(List<Target> mostSpecificFirst) {
      for (Target target : mostSpecificFirst) {
        Policy winner = winners.get(target);
        if (winner != null) {
          return Optional.of(winner);
        }
      }
      return Optional.empty();
    }

    /**
     * The status of {@code policy}: one ancestor per target and per route naming it in an ExtensionRef filter, each
     * with its Accepted condition; overall Accepted when any of them accepted it, else the first target's reason
     * ({@code Invalid} when it could not be read, {@link #NO_TARGETS} when it has neither). Findings: an error per
     * problem of the spec (with its own named reason), a warning per target that did not take the policy, so the
     * one-line views ({@code holdfast validate}, the admission webhook) tell a bad policy from one waiting for its
     * target.
     *
     * @param problems the problems of the policy's own spec: every ancestor then reports {@code Invalid}
     * @param users    the routes whose rules name the policy through an ExtensionRef filter
     * @param warnings more warnings about the policy (e.g. endpoints of its services left out)
     */
    ObjectStatus status(Policy policy, List<Problem> problems, Set<ResourceKey> users, List<Finding> warnings) {
      long generation = policy.object().generation();
      Optional<String> problem = policy.invalid().or(() -> problems.isEmpty() ? Optional.empty()
          : Optional.of(problems.stream().map(Problem::toString).collect(Collectors.joining("; "))));
      List<Finding> findings = new ArrayList<>();
      policy.invalid().ifPresent(m -> findings.add(new Finding(Finding.Severity.ERROR, "spec.targetRefs", INVALID, m)));
      problems.forEach(p -> findings.add(new Finding(Finding.Severity.ERROR, p.field(), p.reason(), p.message())));
      findings.addAll(warnings);
      List<ParentStatus> ancestors = new ArrayList<>();
      Map<Target, Outcome> mine = outcomes.getOrDefault(policy.object().key(), Map.of());
      boolean any = false;
      Outcome first = null;
      for (Target target : policy.targets()) {
        Outcome outcome = problem.isPresent() ? new Outcome(INVALID, problem.get())
            : mine.getOrDefault(target, new Outcome(TARGET_NOT_FOUND, target + " does not exist"));
        first = first == null ? outcome : first;
        any |= outcome.accepted();
        if (problem.isEmpty() && !outcome.accepted()) {
          findings.add(new Finding(Finding.Severity.WARNING, "spec.targetRefs", outcome.reason(), outcome.message()));
        }
        ancestors.add(new ParentStatus(target.object(), target.section(), List.of(condition(outcome, generation))));
      }
      for (ResourceKey route : users) {
        Outcome outcome = problem.isPresent() ? new Outcome(INVALID, problem.get())
            : new Outcome(ACCEPTED, "applies to the rules of " + route + " that name it in an ExtensionRef filter");
        any |= outcome.accepted();
        ancestors.add(new ParentStatus(route, Optional.empty(), List.of(condition(outcome, generation))));
      }
      if (policy.targets().isEmpty() && users.isEmpty() && problem.isEmpty()) {
        String unused = "the policy has no targetRefs and no route names it in an ExtensionRef filter: it applies"
            + " nowhere";
        findings.add(new Finding(Finding.Severity.WARNING, "spec.targetRefs", NO_TARGETS, unused));
        first = new Outcome(NO_TARGETS, unused);
      }
      Outcome overall = any ? new Outcome(ACCEPTED, "applies to at least one target")
          : problem.isPresent() ? new Outcome(INVALID, problem.get())
          : first != null ? first : new Outcome(INVALID, "no target");
      return new ObjectStatus(policy.object().key(), generation, List.of(condition(overall, generation)),
          findings, ancestors);
    }
  }

  private static Condition condition(Outcome outcome, long generation) {
    return new Condition(Condition.ACCEPTED, outcome.accepted() ? Condition.Status.TRUE : Condition.Status.FALSE,
        outcome.reason(), outcome.message(), generation);
  }

  /** {@code metadata.creationTimestamp}; empty when absent (files) or unparsable: such policies order last. */
  static Optional<Instant> created(ApiObject object) {
    String stamp = object.at("/metadata/creationTimestamp").asString("");
    if (stamp.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(stamp));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
