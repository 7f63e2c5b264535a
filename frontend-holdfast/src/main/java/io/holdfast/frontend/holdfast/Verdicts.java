package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.ObjectStatus;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What validation decided, in the status model of the IR: the accepted subset (as in {@link ValidationResult})
 * and one {@link ObjectStatus} per resource key of the input.
 */
record Verdicts(GatewayConfig accepted, SortedMap<ResourceKey, ObjectStatus> statuses) {

  Verdicts {
    Objects.requireNonNull(accepted, "accepted");
    statuses = Collections.unmodifiableSortedMap(new TreeMap<>(statuses));
  }

  boolean isAccepted(ResourceKey key) {
    ObjectStatus status = statuses.get(key);
    return status != null && status.isAccepted();
  }

  /** The view kube and server use: {@link ResourceStatus} per key. */
  ValidationResult toResult() {
    SortedMap<ResourceKey, ResourceStatus> views = new TreeMap<>();
    statuses.forEach((key, status) -> views.put(key, ResourceStatus.of(status)));
    return new ValidationResult(accepted, views);
  }
}
