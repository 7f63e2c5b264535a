package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Conditions of an object as seen from one parent it attaches to, e.g. a route on one listener of a Gateway
 * ({@code status.parents[]} in the Gateway API, which echoes the parent reference as the route wrote it).
 * Holdfast's own kinds use it for a route table reached from several parents.
 *
 * @param section the parent's part as referenced, e.g. a listener name ({@code sectionName}); empty for the whole
 *                parent
 * @param port    the parent's port as referenced ({@code port} of a Gateway API parentRef); empty if none
 */
public record ParentStatus(ResourceKey parent, Optional<String> section, Optional<Integer> port,
    List<Condition> conditions) {

  public ParentStatus {
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(section, "section");
    Objects.requireNonNull(port, "port");
    conditions = ObjectStatus.uniqueTypes(conditions);
  }

  /** A parent referenced without a port. */
  public ParentStatus(ResourceKey parent, Optional<String> section, List<Condition> conditions) {
    this(parent, section, Optional.empty(), conditions);
  }
}
