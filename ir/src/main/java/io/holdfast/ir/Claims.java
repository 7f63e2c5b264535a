package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * Settles claims on values only one object may hold (an address and port, a domain, a client target). The
 * oldest claimant wins ({@link Claimant#OLDEST_FIRST}), whatever order the claims came in. A claimant holds all of
 * its values or none: it loses if any of them overlaps a value an older winner holds, and then holds nothing, so
 * it never blocks a younger claimant. Pure.
 */
public final class Claims {

  private Claims() {
  }

  /**
   * Who claims. Objects without a creation time count as newest.
   *
   * @param created the object's creationTimestamp, if its source has one
   */
  public record Claimant(ResourceKey key, Optional<Instant> created) {

    /** Oldest by creation time, then by namespace, then by name: the same objects always give the same winner. */
    public static final Comparator<Claimant> OLDEST_FIRST = Comparator
        .comparing((Claimant c) -> c.created().orElse(Instant.MAX))
        .thenComparing(c -> c.key().namespace())
        .thenComparing(c -> c.key().name());

    public Claimant {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(created, "created");
    }
  }

  /** The values one claimant wants, e.g. the domains of a virtual host, in their written order. */
  public record Claim<V>(Claimant claimant, List<V> values) {
    public Claim {
      Objects.requireNonNull(claimant, "claimant");
      values = List.copyOf(values);
    }
  }

  /**
   * One value a claimant could not have.
   *
   * @param index the value's position in its claim
   * @param held  the winner's value it overlaps
   */
  public record Loss<V>(Claimant loser, int index, V value, Claimant winner, V held) {
  }

  /**
   * The losses, oldest loser first, each loser's in the order of its values.
   *
   * @param bucket   values in different buckets never overlap (e.g. the port of an address and port)
   * @param overlaps whether two values of one bucket cannot both be held
   */
  public static <V> List<Loss<V>> settle(List<Claim<V>> claims, Function<V, ?> bucket, BiPredicate<V, V> overlaps) {
    List<Claim<V>> ordered = new ArrayList<>(claims);
    ordered.sort(Comparator.comparing(Claim::claimant, Claimant.OLDEST_FIRST));
    Map<Object, List<Held<V>>> held = new HashMap<>();
    List<Loss<V>> losses = new ArrayList<>();
    for (Claim<V> claim : ordered) {
      boolean lost = false;
      for (int i = 0; i < claim.values().size(); i++) {
        V value = claim.values().get(i);
        for (Held<V> owner : held.getOrDefault(bucket.apply(value), List.of())) {
          if (overlaps.test(owner.value, value)) {
            losses.add(new Loss<>(claim.claimant(), i, value, owner.claimant, owner.value));
            lost = true;
            break;
          }
        }
      }
      if (!lost) {
        claim.values().forEach(v -> held.computeIfAbsent(bucket.apply(v), b -> new ArrayList<>())
            .add(new Held<>(v, claim.claimant())));
      }
    }
    return losses;
  }

  /** Claims on values that overlap only when equal (domains, targets). */
  public static <V> List<Loss<V>> settleEqual(List<Claim<V>> claims) {
    return settle(claims, Function.identity(), Object::equals);
  }

  private record Held<V>(V value, Claimant claimant) {
  }
}
