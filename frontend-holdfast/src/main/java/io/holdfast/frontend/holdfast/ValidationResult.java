package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The outcome of {@link Validator#validate}.
 *
 * @param accepted only the accepted and warned resources, consistent with each other: every upstream a
 *                 VirtualService references is in it, and each Gateway's selection has been resolved to the
 *                 explicit list of accepted VirtualServices it serves. It has no unparsed resources.
 * @param statuses one status per resource key of the input, sorted by key
 */
public record ValidationResult(GatewayConfig accepted, SortedMap<ResourceKey, ResourceStatus> statuses) {

  public ValidationResult {
    Objects.requireNonNull(accepted, "accepted");
    statuses = Collections.unmodifiableSortedMap(new TreeMap<>(statuses));
  }

  public ResourceStatus status(ResourceKey key) {
    ResourceStatus status = statuses.get(key);
    if (status == null) {
      throw new IllegalArgumentException("no such resource: " + key);
    }
    return status;
  }
}
