package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Conditions of an object as seen from one parent it attaches to, e.g. a route on one listener of a Gateway
 * ({@code status.parents[]} in the Gateway API). Holdfast's own kinds have none yet.
 *
 * @param section the parent's part, e.g. a listener name; empty for the whole parent
 */
public record ParentStatus(ResourceKey parent, Optional<String> section, List<Condition> conditions) {

  public ParentStatus {
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(section, "section");
    conditions = ObjectStatus.uniqueTypes(conditions);
  }
}
