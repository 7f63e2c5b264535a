package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Claims.Claimant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Policy attachment (GEP-713) for {@code SecurityPolicy}: which policy holds each target. A target is a Gateway, one
 * of its listeners ({@code sectionName}) or a route, always in the policy's own namespace (a policy reaches nothing
 * outside it). Two policies on the same target: the oldest (creation time, then namespace and name) holds it and the
 * other is Conflicted there; a target that does not exist (or a listener name the Gateway lacks) is TargetNotFound;
 * a kind other than Gateway, HTTPRoute and GRPCRoute is Invalid. Which held target applies to a route (the most
 * specific) is the caller's: route, then listener, then Gateway. Pure; the order of the policies given does not
 * matter.
 */
final class SecurityPolicyTargets {

  static final String GATEWAY = "Gateway";
  static final List<String> ROUTE_KINDS = List.of("HTTPRoute", "GRPCRoute");

  private SecurityPolicyTargets() {
  }

  /** A Gateway ({@code section} empty), a Gateway listener, or a route ({@code section} empty). */
  record Target(ResourceKey object, Optional<String> section) implements Comparable<Target> {
    Target {
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(section, "section");
    }

    @Override
    public int compareTo(Target other) {
      int byObject = object.compareTo(other.object);
      return byObject != 0 ? byObject : section.orElse("").compareTo(other.section.orElse(""));
    }
  }

  /** One reference as written: group, kind, name and optional sectionName. */
  record Ref(String group, String kind, String name, Optional<String> sectionName) {
  }

  /** A policy asking for targets. */
  record Candidate(ResourceKey policy, Optional<java.time.Instant> created, List<Ref> refs) {
    Candidate {
      refs = List.copyOf(refs);
    }
  }

  enum Outcome {
    /** The policy holds the target. */
    ATTACHED,
    /** An older policy holds the target. */
    CONFLICTED,
    /** No such object (or listener) in the policy's namespace. */
    TARGET_NOT_FOUND,
    /** A kind or group a SecurityPolicy cannot target. */
    INVALID_KIND
  }

  /** What became of one reference of one policy; {@code holder} is the winner when Conflicted. */
  record Result(Ref ref, Target target, Outcome outcome, Optional<ResourceKey> holder) {
  }

  /**
   * @param holders each target held, with the policy holding it
   * @param results each policy's references' fates, in the order written
   */
  record Resolution(Map<Target, ResourceKey> holders, Map<ResourceKey, List<Result>> results) {
  }

  /**
   * Resolves every candidate's references.
   *
   * @param exists whether a target (in the policy's namespace) is there to attach to
   */
  static Resolution resolve(List<Candidate> candidates, Predicate<Target> exists) {
    List<Candidate> oldestFirst = new ArrayList<>(candidates);
    oldestFirst.sort(Comparator.comparing(c -> new Claimant(c.policy(), c.created()), Claimant.OLDEST_FIRST));
    Map<Target, ResourceKey> holders = new java.util.TreeMap<>();
    Map<ResourceKey, List<Result>> results = new LinkedHashMap<>();
    for (Candidate candidate : oldestFirst) {
      List<Result> mine = new ArrayList<>();
      String namespace = candidate.policy().namespace();
      for (Ref ref : candidate.refs()) {
        Optional<Target> target = target(ref, namespace);
        if (target.isEmpty()) {
          Target as = new Target(new ResourceKey(ref.group(), ref.kind(), namespace, ref.name()), ref.sectionName());
          mine.add(new Result(ref, as, Outcome.INVALID_KIND, Optional.empty()));
          continue;
        }
        if (!exists.test(target.get())) {
          mine.add(new Result(ref, target.get(), Outcome.TARGET_NOT_FOUND, Optional.empty()));
          continue;
        }
        ResourceKey holder = holders.putIfAbsent(target.get(), candidate.policy());
        if (holder == null || holder.equals(candidate.policy())) {
          mine.add(new Result(ref, target.get(), Outcome.ATTACHED, Optional.empty()));
        } else {
          mine.add(new Result(ref, target.get(), Outcome.CONFLICTED, Optional.of(holder)));
        }
      }
      results.put(candidate.policy(), mine);
    }
    return new Resolution(holders, results);
  }

  /** The target {@code ref} names, or empty for a kind a SecurityPolicy cannot target. */
  private static Optional<Target> target(Ref ref, String namespace) {
    if (!ref.group().equals(GatewayApiFrontEnd.GROUP)) {
      return Optional.empty();
    }
    if (ref.kind().equals(GATEWAY)) {
      return Optional.of(new Target(new ResourceKey(GatewayApiFrontEnd.GROUP, GATEWAY, namespace, ref.name()),
          ref.sectionName()));
    }
    if (ROUTE_KINDS.contains(ref.kind()) && ref.sectionName().isEmpty()) {
      return Optional.of(new Target(new ResourceKey(GatewayApiFrontEnd.GROUP, ref.kind(), namespace, ref.name()),
          Optional.empty()));
    }
    return Optional.empty();
  }
}
