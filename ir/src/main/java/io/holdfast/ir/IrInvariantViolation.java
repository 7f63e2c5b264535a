package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.util.List;
import java.util.Objects;

/**
 * An {@link Ir} that would break one of its invariants (a cluster or a secret twice, a domain served twice on a
 * listener, a reference to a cluster or secret that is not there). Front ends are meant to make this impossible,
 * so it is a bug in Holdfast, never the user's fault; it names the objects whose elements are involved, so that
 * {@link IrBuilder#build} can leave exactly those out, report it on them, and build everything else.
 */
public final class IrInvariantViolation extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The objects whose elements break the invariant; never empty. */
  private final transient List<ResourceKey> involved;

  public IrInvariantViolation(String message, Origin... involved) {
    super(message);
    this.involved = java.util.Arrays.stream(involved).map(Origin::object).distinct().toList();
    if (this.involved.isEmpty()) {
      throw new IllegalArgumentException("an invariant violation names at least one object: " + message);
    }
  }

  public List<ResourceKey> involved() {
    return Objects.requireNonNullElse(involved, List.of());
  }
}
