package io.holdfast.ir;

import java.util.List;
import java.util.Objects;

/**
 * The status of one named part of an object, e.g. one listener of a Gateway API Gateway
 * ({@code status.listeners[]}): its conditions, which route kinds it accepts and how many routes attach to it.
 *
 * @param supportedKinds the route kinds the part accepts, in the order its API lists them
 * @param attachedRoutes how many routes attach to the part (routes accepted on it)
 */
public record SectionStatus(String name, List<Condition> conditions, List<GroupKind> supportedKinds,
    int attachedRoutes) {

  /** An API group and kind, e.g. {@code gateway.networking.k8s.io} / {@code HTTPRoute}. */
  public record GroupKind(String group, String kind) {
    public GroupKind {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(kind, "kind");
    }
  }

  public SectionStatus {
    Objects.requireNonNull(name, "name");
    conditions = ObjectStatus.uniqueTypes(conditions);
    supportedKinds = List.copyOf(supportedKinds);
    if (attachedRoutes < 0) {
      throw new IllegalArgumentException("attachedRoutes < 0: " + attachedRoutes);
    }
  }
}
