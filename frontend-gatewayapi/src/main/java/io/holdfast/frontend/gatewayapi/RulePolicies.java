package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ResourceKey;
import java.util.Objects;
import java.util.Optional;

/**
 * The Holdfast policies one route rule names through {@code ExtensionRef} filters: at most one SecurityPolicy and one
 * TrafficPolicy, in the route's namespace. They apply to that rule alone and take precedence over the policies
 * attached by {@code targetRefs} to its route, listener or Gateway (the most specific wins).
 */
record RulePolicies(Optional<ResourceKey> security, Optional<ResourceKey> traffic) {

  static final RulePolicies NONE = new RulePolicies(Optional.empty(), Optional.empty());

  RulePolicies {
    Objects.requireNonNull(security, "security");
    Objects.requireNonNull(traffic, "traffic");
  }

  boolean isEmpty() {
    return security.isEmpty() && traffic.isEmpty();
  }
}
